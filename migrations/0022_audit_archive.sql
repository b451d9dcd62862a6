-- Who changed what: one row per create, edit, delete or archive made by a teammate (user id), an API
-- key (key id) or Parley itself (system). `changes` names the fields that changed (and small values
-- such as a role or a status), never secrets or a contact's personal data, so erasing a contact
-- leaves nothing of them here.
CREATE TABLE audit_log (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  id bigint GENERATED ALWAYS AS IDENTITY,
  actor_type text NOT NULL CHECK (actor_type IN ('user', 'api_key', 'system')),
  actor_id text,
  action text NOT NULL,
  entity_type text NOT NULL,
  entity_id text NOT NULL,
  changes jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id)
);
CREATE INDEX audit_log_entity ON audit_log (workspace_id, entity_type, id);

-- Archived things leave the app's lists (restorable); an archived form takes no submissions, an
-- archived flow or sequence starts no runs (archiving unpublishes it), an archived template is not
-- listed or sent (it is one the network would not delete).
ALTER TABLE forms ADD COLUMN archived_at timestamptz;
ALTER TABLE leads ADD COLUMN archived_at timestamptz;
ALTER TABLE automations ADD COLUMN archived_at timestamptz;
ALTER TABLE templates ADD COLUMN archived_at timestamptz;
