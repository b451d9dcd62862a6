-- Labels, snooze and saved views for the team inbox (issue 32).

-- A workspace's labels: a name unique in any case, and a colour named from the app's fixed palette
-- (the name, never CSS, so the app decides how each looks in light and dark).
CREATE TABLE labels (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  id text NOT NULL,
  name text NOT NULL,
  colour text NOT NULL CHECK (colour IN ('grey', 'red', 'orange', 'yellow', 'green', 'teal', 'blue', 'purple', 'pink')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id)
);
CREATE UNIQUE INDEX labels_name ON labels (workspace_id, lower(name));

CREATE TABLE conversation_labels (
  workspace_id text NOT NULL,
  contact_id text NOT NULL,
  label_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, contact_id, label_id),
  FOREIGN KEY (workspace_id, contact_id) REFERENCES conversations (workspace_id, contact_id) ON DELETE CASCADE,
  FOREIGN KEY (workspace_id, label_id) REFERENCES labels (workspace_id, id) ON DELETE CASCADE
);
-- The inbox's label filter walks a label's conversations.
CREATE INDEX conversation_labels_label ON conversation_labels (workspace_id, label_id, contact_id);

-- Snoozed while snoozed_until is in the future; 'infinity' is "until the customer writes". The inbox
-- compares it with now() as it reads, so waking at the time needs no job; a customer's message clears it.
ALTER TABLE conversations ADD COLUMN snoozed_until timestamptz;
CREATE INDEX conversations_snoozed ON conversations (workspace_id, snoozed_until) WHERE snoozed_until IS NOT NULL;

CREATE OR REPLACE FUNCTION inbox_message_stored() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO conversations AS c (workspace_id, contact_id, last_message_at, last_inbound_at)
    VALUES (NEW.workspace_id, NEW.contact_id, NEW.created_at,
            CASE WHEN NEW.direction = 'inbound' THEN now() END)
    ON CONFLICT (workspace_id, contact_id) DO UPDATE
      SET last_message_at = GREATEST(c.last_message_at, EXCLUDED.last_message_at),
          last_inbound_at = COALESCE(EXCLUDED.last_inbound_at, c.last_inbound_at),
          state = CASE WHEN NEW.direction = 'inbound' AND c.state = 'resolved' THEN 'open' ELSE c.state END,
          -- The customer wrote: a snoozed conversation wakes.
          snoozed_until = CASE WHEN NEW.direction = 'inbound' THEN NULL ELSE c.snoozed_until END,
          updated_at = CASE WHEN NEW.direction = 'inbound' AND c.state = 'resolved' THEN now() ELSE c.updated_at END;
  END IF;
  PERFORM record_live_event(NEW.workspace_id, CASE WHEN TG_OP = 'INSERT' THEN 'message' ELSE 'status' END,
    NEW.contact_id, NEW.id, NEW.direction);
  RETURN NULL;
END $$;

-- The inbox hears snoozes and labels as it hears a new assignee.
CREATE TRIGGER conversations_snooze_live AFTER UPDATE OF snoozed_until ON conversations
  FOR EACH ROW WHEN (OLD.snoozed_until IS DISTINCT FROM NEW.snoozed_until) EXECUTE FUNCTION inbox_conversation_changed();
CREATE FUNCTION conversation_label_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM record_live_event(OLD.workspace_id, 'conversation', OLD.contact_id, NULL, NULL);
  ELSE
    PERFORM record_live_event(NEW.workspace_id, 'conversation', NEW.contact_id, NULL, NULL);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER conversation_labels_live AFTER INSERT OR DELETE ON conversation_labels
  FOR EACH ROW EXECUTE FUNCTION conversation_label_changed();

-- Saved views: a member's named filter (filter, label, search, assignee, team) as JSON the server
-- checks against one schema. A view is its author's; `shared` shows it to the whole workspace, and
-- only its author changes or deletes it.
CREATE TABLE saved_views (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  id text NOT NULL,
  user_id text NOT NULL,
  name text NOT NULL,
  query jsonb NOT NULL,
  shared boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id),
  FOREIGN KEY (workspace_id, user_id) REFERENCES memberships (workspace_id, user_id) ON DELETE CASCADE
);
CREATE INDEX saved_views_user ON saved_views (workspace_id, user_id);
