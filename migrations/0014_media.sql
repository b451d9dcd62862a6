-- Media Parley keeps for messages: files received (downloaded from the network by the media.download
-- job) and files uploaded to send. `network_id` is the network's media id (what messages carry);
-- `message_id` is the inbound message the file came with. `state`: pending (to download), stored
-- (bytes under storage_key in the media store), refused (never stored; `reason` says why).
CREATE TABLE media (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  id text NOT NULL,
  direction text NOT NULL CHECK (direction IN ('inbound', 'outbound')),
  network_id text,
  message_id text,
  kind text NOT NULL,
  mime_type text,
  file_name text,
  size bigint,
  sha256 text,
  storage_key text,
  state text NOT NULL CHECK (state IN ('pending', 'stored', 'refused')),
  reason text,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id)
);
CREATE INDEX media_network_id ON media (workspace_id, network_id) WHERE network_id IS NOT NULL;
CREATE UNIQUE INDEX media_message ON media (workspace_id, message_id) WHERE message_id IS NOT NULL;

-- The PostgreSQL media store (MEDIA_STORE=postgres): a key's bytes in 1 MiB chunks, and which
-- generation of them is the key's whole file.
CREATE TABLE media_objects (
  workspace_id text NOT NULL,
  key text NOT NULL,
  generation text NOT NULL,
  PRIMARY KEY (workspace_id, key)
);
CREATE TABLE media_chunks (
  workspace_id text NOT NULL,
  key text NOT NULL,
  generation text NOT NULL,
  seq integer NOT NULL,
  bytes bytea NOT NULL,
  PRIMARY KEY (workspace_id, key, generation, seq)
);
