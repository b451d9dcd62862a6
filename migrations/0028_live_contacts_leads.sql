-- Contacts and leads announced on parley_live (kinds "contact" and "lead"), so an open Contacts or
-- Leads page, or a contact's or lead's own page, follows them without a reload.
--
-- Statement-level triggers with transition tables: a CSV import's batch or an erasure announces once
-- per workspace, not once per row; "c" is the contact's id when the statement touched one contact of
-- the workspace, else null (the page reloads its list either way). As the inbox's triggers do, only
-- workspaces a browser follows (live_watchers) are announced. An update is announced only when it
-- changes something the pages show: not a customer message's last_inbound_at, not a number's wa_id.
CREATE FUNCTION contacts_live() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM pg_notify('parley_live', json_build_object('w', c.workspace_id, 'k', 'contact', 'c', c.one)::text)
    FROM (SELECT workspace_id, CASE WHEN count(*) = 1 THEN min(id) END AS one FROM new_rows GROUP BY workspace_id) c
    WHERE EXISTS (SELECT 1 FROM live_watchers w WHERE w.workspace_id = c.workspace_id AND w.until > now());
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('parley_live', json_build_object('w', c.workspace_id, 'k', 'contact', 'c', c.one)::text)
    FROM (SELECT workspace_id, CASE WHEN count(*) = 1 THEN min(id) END AS one FROM old_rows GROUP BY workspace_id) c
    WHERE EXISTS (SELECT 1 FROM live_watchers w WHERE w.workspace_id = c.workspace_id AND w.until > now());
  ELSE
    PERFORM pg_notify('parley_live', json_build_object('w', c.workspace_id, 'k', 'contact', 'c', c.one)::text)
    FROM (SELECT n.workspace_id, CASE WHEN count(*) = 1 THEN min(n.id) END AS one
          FROM new_rows n JOIN old_rows o ON o.workspace_id = n.workspace_id AND o.id = n.id
          WHERE to_jsonb(n) - '{updated_at,last_inbound_at,wa_id}'::text[]
            IS DISTINCT FROM to_jsonb(o) - '{updated_at,last_inbound_at,wa_id}'::text[]
          GROUP BY n.workspace_id) c
    WHERE EXISTS (SELECT 1 FROM live_watchers w WHERE w.workspace_id = c.workspace_id AND w.until > now());
  END IF;
  RETURN NULL;
END $$;
-- A trigger with transition tables takes one event and no column list: three of them.
CREATE TRIGGER contacts_created_live AFTER INSERT ON contacts
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION contacts_live();
CREATE TRIGGER contacts_changed_live AFTER UPDATE ON contacts
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION contacts_live();
CREATE TRIGGER contacts_erased_live AFTER DELETE ON contacts
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION contacts_live();

-- Leads carry no id ({"w", "k": "lead"}): a page reloads the leads it shows.
CREATE FUNCTION leads_live() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM pg_notify('parley_live', json_build_object('w', l.workspace_id, 'k', 'lead')::text)
    FROM (SELECT DISTINCT workspace_id FROM new_rows) l
    WHERE EXISTS (SELECT 1 FROM live_watchers w WHERE w.workspace_id = l.workspace_id AND w.until > now());
  ELSE
    PERFORM pg_notify('parley_live', json_build_object('w', l.workspace_id, 'k', 'lead')::text)
    FROM (SELECT DISTINCT n.workspace_id
          FROM new_rows n JOIN old_rows o ON o.workspace_id = n.workspace_id AND o.id = n.id
          WHERE to_jsonb(n) - 'updated_at' IS DISTINCT FROM to_jsonb(o) - 'updated_at') l
    WHERE EXISTS (SELECT 1 FROM live_watchers w WHERE w.workspace_id = l.workspace_id AND w.until > now());
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER leads_created_live AFTER INSERT ON leads
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION leads_live();
CREATE TRIGGER leads_changed_live AFTER UPDATE ON leads
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION leads_live();
