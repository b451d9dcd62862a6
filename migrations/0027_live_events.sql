-- Live updates without NOTIFY on the hot path. A notifying transaction holds one lock of the whole
-- cluster from before its commit until after, so with a browser on the inbox every send and status
-- change of its workspace committed one at a time (docs/benchmarks.md). The changes 0021 and 0025
-- announced on parley_live are rows here instead, which each instance's LiveHub reads every 250 ms
-- while it has a workspace watched, and prunes. Ended sessions stay on NOTIFY: rare, and wanted at once.
CREATE TABLE live_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  workspace_id text NOT NULL,
  kind text NOT NULL,
  contact_id text,
  message_id text,
  direction text
);

-- The change, recorded only while a browser follows the workspace (live_watchers, 0021).
CREATE FUNCTION record_live_event(w text, k text, c text, m text, d text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM live_watchers x WHERE x.workspace_id = w AND x.until > now()) THEN
    INSERT INTO live_events (workspace_id, kind, contact_id, message_id, direction) VALUES (w, k, c, m, d);
  END IF;
END $$;

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
          updated_at = CASE WHEN NEW.direction = 'inbound' AND c.state = 'resolved' THEN now() ELSE c.updated_at END;
  END IF;
  PERFORM record_live_event(NEW.workspace_id, CASE WHEN TG_OP = 'INSERT' THEN 'message' ELSE 'status' END,
    NEW.contact_id, NEW.id, NEW.direction);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION inbox_conversation_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM record_live_event(NEW.workspace_id,
    CASE WHEN TG_TABLE_NAME = 'conversation_notes' THEN 'note' ELSE 'conversation' END, NEW.contact_id, NULL, NULL);
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION broadcast_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM record_live_event(NEW.workspace_id, 'broadcast', NULL, NULL, NULL);
  RETURN NULL;
END $$;
