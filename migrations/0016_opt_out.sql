-- Opt-out: a contact who asked to stop gets no marketing templates (Meta's policy keeps utility and
-- authentication ones, and replies inside the 24-hour window, allowed). Each change is kept with how it
-- came (a keyword or button payload in an inbound message, REST v1, the web app) and which message.
ALTER TABLE contacts ADD COLUMN opted_out boolean NOT NULL DEFAULT false;
ALTER TABLE contacts ADD COLUMN opted_out_at timestamptz;

CREATE TABLE consent_changes (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  id text NOT NULL,
  contact_id text NOT NULL,
  opted_out boolean NOT NULL,
  source text NOT NULL CHECK (source IN ('keyword', 'payload', 'api', 'app')),
  message_id text,
  keyword text,
  user_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id)
);
CREATE INDEX consent_changes_contact ON consent_changes (workspace_id, contact_id, created_at);

-- The workspace's own words besides STOP, UNSUBSCRIBE and START, and the replies that confirm a change.
ALTER TABLE workspaces ADD COLUMN opt_out_keywords text[] NOT NULL DEFAULT '{}';
ALTER TABLE workspaces ADD COLUMN opt_in_keywords text[] NOT NULL DEFAULT '{}';
ALTER TABLE workspaces ADD COLUMN opt_out_confirmation text;
ALTER TABLE workspaces ADD COLUMN opt_in_confirmation text;
