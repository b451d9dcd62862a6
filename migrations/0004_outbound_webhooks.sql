-- The customer's webhook endpoints (Settings > Developer) and every delivery made to them.
CREATE TABLE webhook_endpoints (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  id text NOT NULL,
  url text NOT NULL,
  secret_enc text NOT NULL,
  events text[] NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id)
);

-- One row per event and endpoint; event_key makes emitting the same event twice a no-op, and the id
-- (sent as webhook-id) stays the same across retries so receivers can drop duplicates.
CREATE TABLE webhook_deliveries (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  id text NOT NULL,
  endpoint_id text NOT NULL,
  event_type text NOT NULL,
  event_key text NOT NULL,
  payload jsonb NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  last_status integer,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz,
  PRIMARY KEY (workspace_id, id),
  UNIQUE (workspace_id, endpoint_id, event_key)
);
