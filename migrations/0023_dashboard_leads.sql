-- The home dashboard's per-day counts, the runs list, and leads with an owner and notes.

-- Messages per day over a period: an index-only scan of the workspace's recent rows. The one index
-- on (workspace_id, created_at): the inbox's search and the messaging limit's count use it too.
CREATE INDEX messages_created ON messages (workspace_id, created_at) INCLUDE (direction, status_rank, type, contact_id);
-- Runs finished per day (completed or failed), and the runs list newest first.
CREATE INDEX runs_finished ON runs (workspace_id, finished_at) INCLUDE (status) WHERE finished_at IS NOT NULL;
CREATE INDEX runs_listing ON runs (workspace_id, started_at DESC, id);

-- A teammate who looks after the lead: a member of the workspace (checked when assigned).
ALTER TABLE leads ADD COLUMN owner_id text REFERENCES users (id);
CREATE INDEX leads_owner ON leads (workspace_id, owner_id, created_at) WHERE owner_id IS NOT NULL;

CREATE TABLE lead_notes (
  workspace_id text NOT NULL,
  id text NOT NULL,
  lead_id text NOT NULL,
  -- Null once the author's account is gone; the note stays.
  author_id text REFERENCES users (id) ON DELETE SET NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id),
  FOREIGN KEY (workspace_id, lead_id) REFERENCES leads (workspace_id, id)
);
CREATE INDEX lead_notes_lead ON lead_notes (workspace_id, lead_id, created_at);
