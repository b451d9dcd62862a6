-- Lead intake: forms (public token, fields, active flag), leads, and the plan's monthly lead count.

CREATE TABLE forms (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  id text NOT NULL,
  name text NOT NULL,
  -- Public (it sits in web pages), random and unguessable; looked up across workspaces on submit.
  token text NOT NULL,
  active boolean NOT NULL DEFAULT true,
  -- [{name, label, type, required, options?}]: name, email and phone plus custom fields, in order.
  fields jsonb NOT NULL,
  thank_you_message text,
  redirect_url text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id)
);
-- Under Citus this lookup would go through a reference table of tokens; one index is enough here.
CREATE UNIQUE INDEX forms_token ON forms (token);

CREATE TABLE leads (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  id text NOT NULL,
  -- The contact with the lead's phone; null without a phone, or when the plan's contact limit was reached.
  contact_id text,
  name text,
  email text,
  phone text,
  source text NOT NULL CHECK (source IN ('form', 'webhook')),
  source_id text NOT NULL,
  status text NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'contacted', 'qualified', 'won', 'lost')),
  -- Every other submitted field; for a webhook, the entire body.
  fields jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id)
);
CREATE INDEX leads_listing ON leads (workspace_id, created_at, id);
CREATE INDEX leads_contact ON leads (workspace_id, contact_id) WHERE contact_id IS NOT NULL;

-- Leads created per workspace per calendar month (UTC), against the plan's monthly_leads_limit.
CREATE TABLE lead_usage (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  month date NOT NULL,
  created integer NOT NULL DEFAULT 0,
  PRIMARY KEY (workspace_id, month)
);

-- Signed workflow-webhook bodies seen in the last 24 hours: the signature has no timestamp, so a
-- captured request could be replayed; the same body again answers as the first and starts nothing.
CREATE TABLE webhook_intake_seen (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  sequence_id text NOT NULL,
  body_sha256 text NOT NULL,
  -- Null while the first request is still being handled.
  lead_id text,
  run_id text,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (workspace_id, sequence_id, body_sha256)
);
CREATE INDEX webhook_intake_seen_expiry ON webhook_intake_seen (expires_at);
