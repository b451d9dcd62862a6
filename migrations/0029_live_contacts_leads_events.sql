-- Contacts and leads recorded in live_events (0027) instead of announced on parley_live (0028). A
-- notifying transaction holds one lock of the whole cluster from before its commit until after, so
-- while a browser followed a workspace every contact upsert, import batch and lead of it committed one
-- at a time, after every other notifying transaction of the cluster: 480 to 1,030 upserts a second
-- against 2,050 to 2,250 with the row (pgbench, docs/benchmarks.md). A row of live_events is written
-- like any other row; each instance's LiveHub reads it within 250 ms, as the inbox's since 0027.
-- As before: one row per workspace per statement, only for workspaces a browser follows (live_watchers),
-- contact_id the contact's when the statement touched one contact of the workspace, else null, and
-- none for a lead.
-- A lead's notes are now recorded too (kind "lead"), so a lead's open page shows a teammate's note.
CREATE OR REPLACE FUNCTION live_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ws text[];
  ids text[];
BEGIN
  -- The cheap question first, as the REST upsert is the hot path: does a browser follow these workspaces?
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
  INSERT INTO live_events (workspace_id, kind, contact_id)
  SELECT t.w, TG_ARGV[0], CASE WHEN TG_ARGV[0] = 'contact' AND t.n = 1 THEN t.one END
  FROM (SELECT w, count(*) AS n, min(id) AS one FROM unnest(ws, ids) AS u(w, id) GROUP BY w) t
  WHERE EXISTS (SELECT 1 FROM live_watchers lw WHERE lw.workspace_id = t.w AND lw.until > now());
  RETURN NULL;
END $$;

CREATE TRIGGER lead_notes_added_live AFTER INSERT ON lead_notes
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION live_rows_changed('lead');
