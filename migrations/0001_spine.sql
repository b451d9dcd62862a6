-- Every tenant table carries workspace_id first in its primary key and indexes, so the schema can be
-- distributed by workspace_id (Citus) without a rewrite.

CREATE TABLE plans (
  name text PRIMARY KEY,
  contacts_limit integer NOT NULL CHECK (contacts_limit >= 0),
  monthly_leads_limit integer NOT NULL CHECK (monthly_leads_limit >= 0),
  messages_per_month_limit integer NOT NULL CHECK (messages_per_month_limit >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO plans (name, contacts_limit, monthly_leads_limit, messages_per_month_limit) VALUES
  ('free', 1000, 100, 1000),
  ('starter', 10000, 1000, 20000),
  ('growth', 100000, 10000, 200000),
  ('scale', 2000000, 100000, 5000000);

CREATE TABLE workspaces (
  id text PRIMARY KEY,
  name text NOT NULL,
  default_country_code text,
  plan text NOT NULL REFERENCES plans (name),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Looked up by hash on every request, across workspaces: a reference table under Citus.
CREATE TABLE api_keys (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  id text NOT NULL,
  name text NOT NULL DEFAULT '',
  display_prefix text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz,
  last_used_at timestamptz,
  PRIMARY KEY (workspace_id, id)
);

CREATE UNIQUE INDEX api_keys_id ON api_keys (id);
-- For the key caches' revocation watch: "what was revoked, or changed, since I last asked".
CREATE INDEX api_keys_revoked ON api_keys (revoked_at) WHERE revoked_at IS NOT NULL;
CREATE INDEX workspaces_updated ON workspaces (updated_at);

CREATE TABLE contacts (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  id text NOT NULL,
  phone text NOT NULL,
  name text,
  email text,
  tags text[] NOT NULL DEFAULT '{}',
  traits jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id),
  UNIQUE (workspace_id, phone)
);

CREATE INDEX contacts_listing ON contacts (workspace_id, created_at, id);

CREATE TABLE templates (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  id text NOT NULL,
  name text NOT NULL,
  language text NOT NULL,
  category text NOT NULL,
  body text NOT NULL,
  status text NOT NULL,
  variable_count integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id),
  UNIQUE (workspace_id, name, language)
);

CREATE TABLE idempotency_keys (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  key text NOT NULL,
  request_hash text NOT NULL,
  locked_until timestamptz,
  response_status integer,
  response_body text,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (workspace_id, key)
);

CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);
