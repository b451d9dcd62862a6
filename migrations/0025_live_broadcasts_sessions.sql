-- Why a broadcast paused itself (null: paused by someone, or not paused).
ALTER TABLE broadcasts ADD COLUMN paused_reason text
  CHECK (paused_reason IN ('no_connected_number', 'plan_limit_reached'));

-- A broadcast created or changing state is announced on parley_live (kind "broadcast"), so its page
-- follows it without polling; the counts move with the message status notices already sent.
-- 0027_live_events.sql makes it a row of live_events instead.
CREATE FUNCTION broadcast_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('parley_live', json_build_object('w', NEW.workspace_id, 'k', 'broadcast')::text);
  RETURN NULL;
END $$;
CREATE TRIGGER broadcasts_created_live AFTER INSERT ON broadcasts
  FOR EACH ROW EXECUTE FUNCTION broadcast_changed();
CREATE TRIGGER broadcasts_live AFTER UPDATE ON broadcasts
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.paused_reason IS DISTINCT FROM NEW.paused_reason)
  EXECUTE FUNCTION broadcast_changed();

-- A session ended (signed out, removed from the workspace, password reset, expired) is announced so
-- every instance closes that session's open live streams at once ({"w", "k": "session_ended", "s"}).
CREATE FUNCTION session_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('parley_live', json_build_object('w', OLD.workspace_id, 'k', 'session_ended',
    's', OLD.token_hash)::text);
  RETURN NULL;
END $$;
CREATE TRIGGER sessions_ended_live AFTER DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION session_ended();
