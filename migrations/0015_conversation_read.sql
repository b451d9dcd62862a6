-- Settings › General: whether opening a conversation in the app tells the network its customer's
-- messages were read (blue ticks). Off unless an owner or admin turns it on.
ALTER TABLE workspaces ADD COLUMN mark_read boolean NOT NULL DEFAULT false;
-- When a teammate read an inbound message in the app (set on it and every earlier one from the
-- contact, as the network's own read marks them): each is told to the network at most once.
ALTER TABLE messages ADD COLUMN team_read_at timestamptz;
-- An inbound message's `context` as the network sent it (forwarded, frequently_forwarded,
-- referred_product besides the replied-to id), and the click-to-WhatsApp ad it came from (`referral`).
ALTER TABLE messages ADD COLUMN context jsonb;
ALTER TABLE messages ADD COLUMN referral jsonb;
