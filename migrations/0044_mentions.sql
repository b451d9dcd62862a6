-- Issue 32: a teammate named in a note (`<@usr_…>` in its text, a member of the note's workspace)
-- is told in the app, and by e-mail when SMTP is set. The mentions a note holds are kept by user id,
-- so the note shows the member's name as it is now.
CREATE TABLE note_mentions (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  note_id text NOT NULL,
  user_id text NOT NULL REFERENCES users (id),
  PRIMARY KEY (workspace_id, note_id, user_id)
);

-- One teammate's own notices: read_at set when they open it (or mark all read).
CREATE TABLE notifications (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  id text NOT NULL,
  user_id text NOT NULL REFERENCES users (id),
  kind text NOT NULL CHECK (kind IN ('mention')),
  contact_id text NOT NULL,
  note_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  read_at timestamptz,
  -- When the mention e-mail went out: at most one every few minutes per teammate (mentions.ts).
  emailed_at timestamptz,
  PRIMARY KEY (workspace_id, id)
);
CREATE INDEX notifications_user ON notifications (workspace_id, user_id, created_at DESC, id DESC);
CREATE INDEX notifications_unread ON notifications (workspace_id, user_id) WHERE read_at IS NULL;

-- A live event for one member only (a notice of theirs): the hub writes it to that user's streams,
-- never to the rest of the workspace. Null: every member of the workspace, as before.
ALTER TABLE live_events ADD COLUMN user_id text;

CREATE FUNCTION notification_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM live_watchers x WHERE x.workspace_id = NEW.workspace_id AND x.until > now()) THEN
    INSERT INTO live_events (workspace_id, kind, contact_id, user_id)
    VALUES (NEW.workspace_id, 'notification', NEW.contact_id, NEW.user_id);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER notifications_live AFTER INSERT ON notifications
  FOR EACH ROW EXECUTE FUNCTION notification_added();
