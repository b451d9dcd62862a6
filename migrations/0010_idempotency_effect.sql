-- The effect a request made (a message's id), written in the transaction that made it, for an answer
-- that is only known after commit: a retry after a crash answers from it instead of doing it again.
ALTER TABLE idempotency_keys ADD COLUMN effect_id text;
