-- Flows (trigger: an event name) and sequences (trigger: webhook, form submitted, lead created) are
-- one thing to the engine: an automation with a draft definition and immutable published versions.
CREATE TABLE automations (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('flow', 'sequence')),
  name text NOT NULL,
  trigger_type text NOT NULL CHECK (trigger_type IN ('event', 'webhook', 'form_submitted', 'lead_created')),
  trigger_event text,
  trigger_form_id text,
  -- Webhook sequences: the secret, sealed with PARLEY_SECRET_KEY (the HMAC check needs it in clear).
  secret_enc text,
  draft jsonb NOT NULL,
  draft_version integer NOT NULL DEFAULT 1,
  published_version integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id),
  CHECK ((trigger_type = 'event') = (trigger_event IS NOT NULL))
);
-- The intake webhook names a sequence by id alone.
CREATE UNIQUE INDEX automations_id ON automations (id);
CREATE INDEX automations_published_event ON automations (workspace_id, trigger_event)
  WHERE published_version IS NOT NULL AND trigger_type = 'event';

-- A published version never changes; runs point at the version they started on.
CREATE TABLE automation_versions (
  workspace_id text NOT NULL,
  automation_id text NOT NULL,
  version integer NOT NULL,
  definition jsonb NOT NULL,
  published_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, automation_id, version),
  FOREIGN KEY (workspace_id, automation_id) REFERENCES automations (workspace_id, id)
);

-- POST /events: the event, and the published flows (id, version) it matched when it arrived.
CREATE TABLE events (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  id text NOT NULL,
  contact_id text NOT NULL,
  name text NOT NULL,
  properties jsonb NOT NULL DEFAULT '{}',
  flows jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id)
);
CREATE INDEX events_contact ON events (workspace_id, contact_id, created_at);

CREATE TABLE runs (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  id text NOT NULL,
  automation_id text NOT NULL,
  version integer NOT NULL,
  contact_id text,
  lead_id text,
  event_id text,
  -- What started the run: {"event": {...}} or {"lead": {...}}, for templates and conditions.
  trigger_data jsonb NOT NULL DEFAULT '{}',
  status text NOT NULL CHECK (status IN ('running', 'waiting', 'completed', 'failed')),
  current_step text,
  error text,
  started_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  PRIMARY KEY (workspace_id, id),
  FOREIGN KEY (workspace_id, automation_id, version) REFERENCES automation_versions (workspace_id, automation_id, version)
);
-- An event starts a flow once, however often its start job runs.
CREATE UNIQUE INDEX runs_event ON runs (workspace_id, automation_id, event_id) WHERE event_id IS NOT NULL;
-- A lead is enrolled in a sequence once while a run of it is unfinished.
CREATE UNIQUE INDEX runs_active_lead ON runs (workspace_id, automation_id, lead_id)
  WHERE lead_id IS NOT NULL AND status IN ('running', 'waiting');
CREATE INDEX runs_automation ON runs (workspace_id, automation_id, started_at DESC);
CREATE INDEX runs_contact ON runs (workspace_id, contact_id, started_at DESC);

-- Each step of a run at most once (the graph has no cycles): the row is the guard and the record.
CREATE TABLE run_steps (
  workspace_id text NOT NULL,
  run_id text NOT NULL,
  step_id text NOT NULL,
  type text NOT NULL,
  status text NOT NULL CHECK (status IN ('started', 'done', 'failed', 'skipped', 'waiting')),
  outcome jsonb NOT NULL DEFAULT '{}',
  next_step text,
  wait_until timestamptz,
  attempts integer NOT NULL DEFAULT 1,
  error text,
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  PRIMARY KEY (workspace_id, run_id, step_id),
  FOREIGN KEY (workspace_id, run_id) REFERENCES runs (workspace_id, id)
);

-- A message sent by a run step carries the step's key: sent once however often the step runs.
ALTER TABLE messages ADD COLUMN source_key text;
CREATE UNIQUE INDEX messages_source_key ON messages (workspace_id, source_key) WHERE source_key IS NOT NULL;
