-- When each conversation began, for REST v1's list (GET /api/v1/conversations): newest first by
-- (created_at, contact_id), paged by a cursor on that key, so a page boundary holds while new
-- conversations arrive. A conversation from before this column began with its contact's first
-- message (or, with none, when its row last changed).
ALTER TABLE conversations ADD COLUMN created_at timestamptz;
UPDATE conversations c SET created_at = COALESCE(
  (SELECT min(m.created_at) FROM messages m WHERE m.workspace_id = c.workspace_id AND m.contact_id = c.contact_id),
  c.updated_at);
ALTER TABLE conversations ALTER COLUMN created_at SET DEFAULT now();
ALTER TABLE conversations ALTER COLUMN created_at SET NOT NULL;
CREATE INDEX conversations_created ON conversations (workspace_id, created_at DESC, contact_id DESC);

-- A note added through REST v1 has no teammate as its author: the API key that wrote it.
ALTER TABLE conversation_notes ADD COLUMN api_key_id text;
