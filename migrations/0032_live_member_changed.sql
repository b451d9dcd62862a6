-- A member removed from a workspace or given another role is announced on parley_live
-- ({"w", "k": "member_changed", "u"}), so every instance ends that user's open streams of that
-- workspace at once. Ending their sessions there (0025) missed a stream whose session had since
-- switched to another workspace: it went on carrying the old workspace's event ids and kinds.
CREATE FUNCTION member_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('parley_live', json_build_object('w', OLD.workspace_id, 'k', 'member_changed',
    'u', OLD.user_id)::text);
  RETURN NULL;
END $$;
CREATE TRIGGER memberships_removed_live AFTER DELETE ON memberships
  FOR EACH ROW EXECUTE FUNCTION member_changed();
CREATE TRIGGER memberships_role_live AFTER UPDATE OF role ON memberships
  FOR EACH ROW WHEN (OLD.role IS DISTINCT FROM NEW.role) EXECUTE FUNCTION member_changed();
