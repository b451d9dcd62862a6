-- Contacts and leads announced on parley_live (kinds "contact" and "lead"), so an open Contacts or
-- Leads page, or a contact's or lead's own page, follows them without a reload.
--
-- Statement-level triggers with transition tables: a CSV import's batch or an erasure announces once
-- per workspace, not once per row. "c" is the contact's id when the statement touched one contact of
-- the workspace, else null (the page reloads its list either way); a lead's notice carries no id. As
-- the inbox's triggers do, only workspaces a browser follows (live_watchers) are announced. An update
-- is announced only when it changes something the pages show: TG_ARGV[1] names the columns that do
-- not count (a customer message's last_inbound_at, a number's wa_id, updated_at).
-- A function of its own, apart from the messages triggers (0021), so either can change alone.
CREATE FUNCTION live_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ws text[];
  ids text[];
BEGIN
  -- The cheap question first, as the REST upsert is the hot path: does a browser follow these workspaces?
  -- Unfollowed, a one-row statement costs each trigger a few microseconds (docs/benchmarks.md).
  IF TG_OP = 'DELETE' THEN
    PERFORM FROM old_rows r JOIN live_watchers w ON w.workspace_id = r.workspace_id AND w.until > now() LIMIT 1;
  ELSE
    PERFORM FROM new_rows r JOIN live_watchers w ON w.workspace_id = r.workspace_id AND w.until > now() LIMIT 1;
  END IF;
  IF NOT FOUND THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(workspace_id), array_agg(id) INTO ws, ids FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(workspace_id), array_agg(id) INTO ws, ids FROM old_rows;
  ELSE
    SELECT array_agg(n.workspace_id), array_agg(n.id) INTO ws, ids
    FROM new_rows n JOIN old_rows o ON o.workspace_id = n.workspace_id AND o.id = n.id
    WHERE to_jsonb(n) - TG_ARGV[1]::text[] IS DISTINCT FROM to_jsonb(o) - TG_ARGV[1]::text[];
  END IF;
  IF ws IS NULL THEN -- an upsert that inserted fires the update trigger too, with no rows
    RETURN NULL;
  END IF;
  PERFORM pg_notify('parley_live', json_build_object('w', t.w, 'k', TG_ARGV[0],
    'c', CASE WHEN TG_ARGV[0] = 'contact' AND t.n = 1 THEN t.one END)::text)
  FROM (SELECT w, count(*) AS n, min(id) AS one FROM unnest(ws, ids) AS u(w, id) GROUP BY w) t
  WHERE EXISTS (SELECT 1 FROM live_watchers lw WHERE lw.workspace_id = t.w AND lw.until > now());
  RETURN NULL;
END $$;

-- A trigger with transition tables takes one event and no column list: one per event.
CREATE TRIGGER contacts_created_live AFTER INSERT ON contacts
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION live_rows_changed('contact');
CREATE TRIGGER contacts_changed_live AFTER UPDATE ON contacts
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION live_rows_changed('contact', '{updated_at,last_inbound_at,wa_id}');
CREATE TRIGGER contacts_erased_live AFTER DELETE ON contacts
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION live_rows_changed('contact');
CREATE TRIGGER leads_created_live AFTER INSERT ON leads
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION live_rows_changed('lead');
CREATE TRIGGER leads_changed_live AFTER UPDATE ON leads
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION live_rows_changed('lead', '{updated_at}');
