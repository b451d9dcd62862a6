-- The plan's contact limit is kept by the database itself, so every path that creates contacts
-- (REST upserts, events, leads, inbound messages) obeys it, exactly, without making all creations in
-- a workspace wait on one counter row.
--
-- Each workspace has CONTACT_SLOTS counter rows; a creation adds 1 to the row of its connection's slot
-- and holds that row's lock until commit, so at most CONTACT_SLOTS creations are ever uncommitted at
-- once. While the committed total plus that many stays within the limit, no creation can pass it and
-- none waits on another connection's. Closer to the limit the insert fails with SQLSTATE PL409 and is
-- retried with parley.contact_limit_mode = 'exact': that locks every slot row in order (waiting for
-- creations in flight), counts, and refuses with SQLSTATE PL402 at the limit. An insert that turns
-- into an update (ON CONFLICT) fires no INSERT trigger and takes no place.

CREATE TABLE contact_counts (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  slot smallint NOT NULL,
  n integer NOT NULL DEFAULT 0,
  PRIMARY KEY (workspace_id, slot)
);

CREATE FUNCTION workspaces_add_contact_slots() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO contact_counts (workspace_id, slot) SELECT NEW.id, s FROM generate_series(0, 15) AS s;
  RETURN NULL;
END $$;

CREATE TRIGGER workspaces_contact_slots AFTER INSERT ON workspaces
  FOR EACH ROW EXECUTE FUNCTION workspaces_add_contact_slots();

CREATE FUNCTION contacts_take_slot() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  slots constant integer := 16;
  my_slot constant integer := pg_backend_pid() % slots;
  contact_limit integer;
  total bigint;
BEGIN
  -- A contact the network brings (a customer writing in) is always stored, and counted.
  IF current_setting('parley.contact_limit_mode', true) = 'count_only' THEN
    UPDATE contact_counts SET n = n + 1 WHERE workspace_id = NEW.workspace_id AND slot = my_slot;
    RETURN NULL;
  END IF;
  SELECT p.contacts_limit INTO contact_limit
  FROM workspaces w JOIN plans p ON p.name = w.plan WHERE w.id = NEW.workspace_id;
  IF current_setting('parley.contact_limit_mode', true) IS DISTINCT FROM 'exact' THEN
    UPDATE contact_counts SET n = n + 1 WHERE workspace_id = NEW.workspace_id AND slot = my_slot;
    SELECT sum(n) INTO total FROM contact_counts WHERE workspace_id = NEW.workspace_id;
    IF total + slots - 1 <= contact_limit THEN
      RETURN NULL;
    END IF;
    RAISE EXCEPTION 'near the contact limit of workspace %', NEW.workspace_id USING ERRCODE = 'PL409';
  END IF;
  PERFORM 1 FROM contact_counts WHERE workspace_id = NEW.workspace_id ORDER BY slot FOR UPDATE;
  SELECT sum(n) INTO total FROM contact_counts WHERE workspace_id = NEW.workspace_id;
  IF total >= contact_limit THEN
    RAISE EXCEPTION 'contact limit reached for workspace %', NEW.workspace_id USING ERRCODE = 'PL402';
  END IF;
  UPDATE contact_counts SET n = n + 1 WHERE workspace_id = NEW.workspace_id AND slot = my_slot;
  RETURN NULL;
END $$;

CREATE FUNCTION contacts_give_slot() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE contact_counts SET n = n - 1 WHERE workspace_id = OLD.workspace_id AND slot = pg_backend_pid() % 16;
  RETURN NULL;
END $$;

CREATE TRIGGER contacts_limit AFTER INSERT ON contacts FOR EACH ROW EXECUTE FUNCTION contacts_take_slot();
CREATE TRIGGER contacts_count_down AFTER DELETE ON contacts FOR EACH ROW EXECUTE FUNCTION contacts_give_slot();
