-- Broadcasts: an approved template sent to a segment of contacts. The audience is snapshotted into
-- broadcast_recipients (one row per contact, unique), then released through the ordinary send path,
-- each message stored under the source key broadcast:<id>:<contact>, so a retried or restarted
-- delivery finds the message instead of sending a second one. A recipient's state follows its
-- message's status (messaging/status.ts), so counts and lists read this table alone.
CREATE TABLE broadcasts (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  id text NOT NULL,
  name text NOT NULL,
  status text NOT NULL CHECK (status IN ('draft', 'scheduled', 'sending', 'paused', 'waiting_for_limit',
    'completed', 'cancelled')),
  template_name text NOT NULL,
  template_language text NOT NULL,
  template_category text NOT NULL,
  audience jsonb NOT NULL,
  "values" jsonb NOT NULL,
  send_at timestamptz,
  time_zone text NOT NULL,
  reply_window_hours integer NOT NULL DEFAULT 24,
  -- The snapshot: done once every contact of the audience has its recipient row; `snapshot_after`
  -- is the last contact id taken, so a delivery restarted mid-snapshot goes on from there.
  snapshot_done boolean NOT NULL DEFAULT false,
  snapshot_after text,
  recipient_count integer NOT NULL DEFAULT 0,
  waiting_until timestamptz,
  -- One delivery at a time: the job holding the lease (renewed each batch) releases recipients.
  lease_owner text,
  lease_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  completed_at timestamptz,
  cancelled_at timestamptz,
  PRIMARY KEY (workspace_id, id)
);
CREATE INDEX broadcasts_listing ON broadcasts (workspace_id, created_at DESC, id DESC);

CREATE TABLE broadcast_recipients (
  workspace_id text NOT NULL,
  broadcast_id text NOT NULL,
  contact_id text NOT NULL,
  phone text NOT NULL,
  name text,
  -- pending (snapshotted), releasing (handed to the send path), then its message's status mapped:
  -- queued, sent (accepted or sent), delivered, read, failed; or skipped with a reason.
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'releasing', 'queued', 'sent',
    'delivered', 'read', 'failed', 'skipped')),
  message_id text,
  error_code integer,
  error_title text,
  released_at timestamptz,
  sent_at timestamptz,
  delivered_at timestamptz,
  read_at timestamptz,
  failed_at timestamptz,
  replied_at timestamptz,
  PRIMARY KEY (workspace_id, broadcast_id, contact_id)
);
CREATE INDEX broadcast_recipients_state ON broadcast_recipients (workspace_id, broadcast_id, state);
-- An inbound message finds the broadcasts its contact may be replying to.
CREATE INDEX broadcast_recipients_contact ON broadcast_recipients (workspace_id, contact_id)
  WHERE sent_at IS NOT NULL AND replied_at IS NULL;

-- The number's messaging limit counts unique recipients of templates in a rolling 24 hours: an
-- index-only scan of messages_created (0023), which holds direction, type and contact_id for it.

-- Which contacts a CSV import created or updated (a broadcast's audience may be one import).
CREATE TABLE contact_import_contacts (
  workspace_id text NOT NULL,
  import_id text NOT NULL,
  contact_id text NOT NULL,
  PRIMARY KEY (workspace_id, import_id, contact_id)
);

-- Times of day (a broadcast's send_at without an offset) are read in the workspace's IANA time zone.
ALTER TABLE workspaces ADD COLUMN time_zone text NOT NULL DEFAULT 'UTC';
