-- A workspace's connected WhatsApp number (one per workspace for now). Secrets are encrypted with
-- PARLEY_SECRET_KEY (AES-256-GCM); the webhook verify token is compared, so it is kept as a hash.
CREATE TABLE connected_numbers (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  id text NOT NULL,
  phone_number_id text NOT NULL,
  business_account_id text NOT NULL,
  display_phone text NOT NULL,
  access_token_enc text NOT NULL,
  app_secret_enc text NOT NULL,
  verify_token_hash text NOT NULL,
  graph_base_url text NOT NULL,
  messages_per_second integer NOT NULL DEFAULT 80 CHECK (messages_per_second BETWEEN 1 AND 1000),
  templates_synced_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id),
  UNIQUE (workspace_id)
);
CREATE UNIQUE INDEX connected_numbers_id ON connected_numbers (id);

ALTER TABLE contacts ADD COLUMN wa_id text;
ALTER TABLE contacts ADD COLUMN last_inbound_at timestamptz;
CREATE INDEX contacts_wa_id ON contacts (workspace_id, wa_id) WHERE wa_id IS NOT NULL;

ALTER TABLE templates ADD COLUMN external_id text;

-- Outbound and inbound messages. Status only moves forward (see messaging/status.ts); rank orders it.
CREATE TABLE messages (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  id text NOT NULL,
  direction text NOT NULL CHECK (direction IN ('outbound', 'inbound')),
  contact_id text NOT NULL,
  phone text NOT NULL,
  type text NOT NULL,
  template_name text,
  template_language text,
  template_values jsonb,
  text text,
  callback_data text,
  status text NOT NULL,
  status_rank smallint NOT NULL,
  wamid text,
  -- While a send is in flight nobody else sends the message: the at-most-once guard for retries.
  sending_until timestamptz,
  error_code integer,
  error_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id)
);
CREATE UNIQUE INDEX messages_wamid ON messages (workspace_id, wamid) WHERE wamid IS NOT NULL;
CREATE INDEX messages_contact ON messages (workspace_id, contact_id, created_at);

-- Messages sent per workspace per calendar month (UTC), against the plan's messages_per_month_limit.
CREATE TABLE message_usage (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  month date NOT NULL,
  sent integer NOT NULL DEFAULT 0,
  PRIMARY KEY (workspace_id, month)
);
