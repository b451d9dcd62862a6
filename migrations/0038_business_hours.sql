-- Business hours (Settings › Business hours): the weekly schedule, read in the workspace's time_zone,
-- holidays closed all day, and the built-in away and greeting messages. No row, or a null schedule:
-- always inside hours (src/modules/routing/).
CREATE TABLE business_hours (
  workspace_id text PRIMARY KEY REFERENCES workspaces (id),
  -- {"mon": [{"from": "09:00", "to": "17:30"}], ..., "sun": []}; null: no schedule.
  schedule jsonb,
  -- [{"date": "2026-12-25", "name": "Christmas"}]
  holidays jsonb NOT NULL DEFAULT '[]',
  away_enabled boolean NOT NULL DEFAULT false,
  away_text text NOT NULL,
  greeting_enabled boolean NOT NULL DEFAULT false,
  greeting_text text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- When each contact was last sent the away message: claimed in the transaction that stores the
-- customer's message, so two messages in a row get one away message, not two.
CREATE TABLE away_replies (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  contact_id text NOT NULL,
  sent_at timestamptz NOT NULL,
  PRIMARY KEY (workspace_id, contact_id)
);
