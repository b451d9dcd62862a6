-- The inbox at scale: a keyset on (last_message_at, contact_id) pages the list newest first, and
-- trigram indexes serve its search (ILIKE '%…%') over contact names, phones and message text, on
-- PostgreSQL and on PGlite alike (both ship pg_trgm). The search no longer reads only the newest
-- messages: every message's text is indexed.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

DROP INDEX conversations_recent;
CREATE INDEX conversations_recent ON conversations (workspace_id, last_message_at DESC, contact_id DESC)
  WHERE last_message_at IS NOT NULL;

CREATE INDEX messages_text_trgm ON messages USING gin (text gin_trgm_ops) WHERE text IS NOT NULL;
CREATE INDEX contacts_name_trgm ON contacts USING gin (name gin_trgm_ops) WHERE name IS NOT NULL;
CREATE INDEX contacts_phone_trgm ON contacts USING gin (phone gin_trgm_ops);
