-- The team inbox: one conversation per contact (its state, who has it, when the team last read it),
-- internal notes, saved quick replies, the teammate who sent each reply from the app, and live
-- notices for the browser on parley_live.

CREATE TABLE conversations (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  contact_id text NOT NULL,
  state text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'pending', 'resolved')),
  assignee_id text REFERENCES users (id),
  last_message_at timestamptz,
  -- When the newest customer message was stored (not the network's whole-second date): against team_read_at.
  last_inbound_at timestamptz,
  team_read_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, contact_id)
);
CREATE INDEX conversations_recent ON conversations (workspace_id, last_message_at DESC NULLS LAST);
CREATE INDEX conversations_assignee ON conversations (workspace_id, assignee_id, last_message_at DESC)
  WHERE assignee_id IS NOT NULL;

-- Every contact with messages has its conversation, open.
INSERT INTO conversations (workspace_id, contact_id, last_message_at, last_inbound_at)
SELECT workspace_id, contact_id, max(created_at), max(created_at) FILTER (WHERE direction = 'inbound')
FROM messages GROUP BY workspace_id, contact_id;
-- What the team read before the inbox: what the network was told was read.
UPDATE conversations c SET team_read_at = r.read_at
FROM (SELECT workspace_id, contact_id, max(team_read_at) AS read_at FROM messages
      WHERE team_read_at IS NOT NULL GROUP BY workspace_id, contact_id) r
WHERE r.workspace_id = c.workspace_id AND r.contact_id = c.contact_id;

-- The teammate who sent a message from the app; null for the REST API and flows (source_key set).
ALTER TABLE messages ADD COLUMN sent_by text REFERENCES users (id);
-- The inbox's search reads the workspace's newest messages' text only (a bounded number of them),
-- through messages_created (0023, the same key): one index fewer to write with every message.

CREATE TABLE conversation_notes (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  id text NOT NULL,
  contact_id text NOT NULL,
  author_id text REFERENCES users (id),
  text text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id)
);
CREATE INDEX conversation_notes_contact ON conversation_notes (workspace_id, contact_id, created_at);

CREATE TABLE quick_replies (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  id text NOT NULL,
  title text NOT NULL,
  text text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id)
);
CREATE UNIQUE INDEX quick_replies_title ON quick_replies (workspace_id, lower(title));

-- The workspaces a browser is following (an open stream or a polling client), until a few minutes
-- after the last one leaves (LiveHub renews it). Only their changes are announced: a NOTIFY holds
-- one lock of the whole cluster from before its commit until after, so every notifying transaction
-- commits alone; announcing to no one would cost each send and status that.
CREATE TABLE live_watchers (
  workspace_id text PRIMARY KEY,
  until timestamptz NOT NULL
);

-- A message stored moves its conversation up (a customer's reopens a resolved one); a message stored
-- or moving on in status, a conversation changing hands or state, a note: each is announced on
-- parley_live as it commits, with ids only ({"w": workspace, "k": kind, "c": contact, "m": message, "d": direction}).
-- 0027_live_events.sql replaces these announcements with rows of live_events (NOTIFY serialised commits).
CREATE FUNCTION inbox_message_stored() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO conversations AS c (workspace_id, contact_id, last_message_at, last_inbound_at)
    VALUES (NEW.workspace_id, NEW.contact_id, NEW.created_at,
            CASE WHEN NEW.direction = 'inbound' THEN now() END)
    ON CONFLICT (workspace_id, contact_id) DO UPDATE
      SET last_message_at = GREATEST(c.last_message_at, EXCLUDED.last_message_at),
          last_inbound_at = COALESCE(EXCLUDED.last_inbound_at, c.last_inbound_at),
          state = CASE WHEN NEW.direction = 'inbound' AND c.state = 'resolved' THEN 'open' ELSE c.state END,
          updated_at = CASE WHEN NEW.direction = 'inbound' AND c.state = 'resolved' THEN now() ELSE c.updated_at END;
  END IF;
  IF EXISTS (SELECT 1 FROM live_watchers w WHERE w.workspace_id = NEW.workspace_id AND w.until > now()) THEN
    PERFORM pg_notify('parley_live', json_build_object('w', NEW.workspace_id,
      'k', CASE WHEN TG_OP = 'INSERT' THEN 'message' ELSE 'status' END,
      'c', NEW.contact_id, 'm', NEW.id, 'd', NEW.direction)::text);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER messages_live AFTER INSERT ON messages
  FOR EACH ROW EXECUTE FUNCTION inbox_message_stored();
CREATE TRIGGER messages_status_live AFTER UPDATE OF status ON messages
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION inbox_message_stored();

CREATE FUNCTION inbox_conversation_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM live_watchers w WHERE w.workspace_id = NEW.workspace_id AND w.until > now()) THEN
    PERFORM pg_notify('parley_live', json_build_object('w', NEW.workspace_id,
      'k', CASE WHEN TG_TABLE_NAME = 'conversation_notes' THEN 'note' ELSE 'conversation' END,
      'c', NEW.contact_id)::text);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER conversations_live AFTER UPDATE ON conversations
  FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state OR OLD.assignee_id IS DISTINCT FROM NEW.assignee_id
    OR OLD.team_read_at IS DISTINCT FROM NEW.team_read_at)
  EXECUTE FUNCTION inbox_conversation_changed();
CREATE TRIGGER conversation_notes_live AFTER INSERT ON conversation_notes
  FOR EACH ROW EXECUTE FUNCTION inbox_conversation_changed();
