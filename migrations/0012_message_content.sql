-- A media, interactive, location or reaction message keeps its content as the Graph request carries it
-- (the type's object in Meta's shape), so a retry sends the same. IF NOT EXISTS: inbound content may
-- add the same column.
ALTER TABLE messages ADD COLUMN IF NOT EXISTS content jsonb;
