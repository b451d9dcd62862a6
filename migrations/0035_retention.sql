-- Data retention (Settings › Workspace): per workspace, how many days message content, media, finished
-- runs and delivery logs are kept; null keeps them for ever. The daily maintenance.retention job
-- (src/modules/retention/) removes what is older, in small batches each committed on its own.
ALTER TABLE workspaces ADD COLUMN retention_message_content_days integer DEFAULT 365
  CHECK (retention_message_content_days BETWEEN 1 AND 36500);
ALTER TABLE workspaces ADD COLUMN retention_media_days integer DEFAULT 90
  CHECK (retention_media_days BETWEEN 1 AND 36500);
ALTER TABLE workspaces ADD COLUMN retention_finished_runs_days integer DEFAULT 90
  CHECK (retention_finished_runs_days BETWEEN 1 AND 36500);
ALTER TABLE workspaces ADD COLUMN retention_delivery_logs_days integer DEFAULT 30
  CHECK (retention_delivery_logs_days BETWEEN 1 AND 36500);

-- A message past its content's time keeps its row (status, direction, type, template name: what the
-- dashboard, broadcast reports and the inbox count and list) and loses what it said; this says when.
ALTER TABLE messages ADD COLUMN content_removed_at timestamptz;

-- Media past its time: the row stays, state 'removed' (the conversation says so), its bytes leave the
-- media store after the row is marked; storage_key is cleared once they are gone, so a job killed in
-- between deletes them next time.
ALTER TABLE media DROP CONSTRAINT media_state_check;
ALTER TABLE media ADD CONSTRAINT media_state_check CHECK (state IN ('pending', 'stored', 'refused', 'removed'));
CREATE INDEX media_kept ON media (workspace_id, created_at) WHERE storage_key IS NOT NULL;

-- Delivery logs are read newest first per endpoint and removed oldest first per workspace.
CREATE INDEX webhook_deliveries_created ON webhook_deliveries (workspace_id, created_at);

-- Finished runs counted per day before they are deleted, so the dashboard's counts outlive the rows.
CREATE TABLE run_outcome_days (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  day date NOT NULL,
  completed integer NOT NULL DEFAULT 0,
  failed integer NOT NULL DEFAULT 0,
  PRIMARY KEY (workspace_id, day)
);

-- How far the content of a workspace's messages has been removed, oldest first: (created_at, id) of
-- the last message passed. Blanked rows stay, so without it each run would read them all again.
CREATE TABLE retention_progress (
  workspace_id text PRIMARY KEY REFERENCES workspaces (id),
  messages_created_at timestamptz,
  messages_id text
);
