-- What an inbound message holds beyond text, as the network sent it (a button's payload, a location,
-- a media id and caption, shared contacts...), and the message it replies to: the network's id for it
-- and, when Parley knows that message, Parley's own id.
ALTER TABLE messages ADD COLUMN content jsonb;
ALTER TABLE messages ADD COLUMN context_wamid text;
ALTER TABLE messages ADD COLUMN reply_to text;
