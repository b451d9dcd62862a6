-- Every instance keeps in memory what a send reads first (the workspace's connected number with its
-- credentials, its approved templates): any change to either, made by Parley or by hand in the
-- database, announces the workspace on parley_sending as it commits, and every instance drops what
-- it holds of that workspace.
CREATE FUNCTION announce_sending_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('parley_sending', OLD.workspace_id); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('parley_sending', NEW.workspace_id); END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER connected_numbers_announce AFTER INSERT OR UPDATE OR DELETE ON connected_numbers
  FOR EACH ROW EXECUTE FUNCTION announce_sending_change();
CREATE TRIGGER templates_announce AFTER INSERT OR UPDATE OR DELETE ON templates
  FOR EACH ROW EXECUTE FUNCTION announce_sending_change();
