-- A send whose outcome is unknown may have reached the network: its process died during the call, or
-- the call timed out or was cut. The Cloud API has no idempotency key, so such a message is not sent
-- again at once: the network's status webhook names it (biz_opaque_callback_data is the message id)
-- and confirms it; only when none comes within SEND_CONFIRM_WINDOW_MS is it sent again, at most
-- twice more (messaging/retry-send.ts). unconfirmed_since is set when an attempt may begin and
-- cleared when its outcome is known.
ALTER TABLE messages ADD COLUMN unconfirmed_since timestamptz;
ALTER TABLE messages ADD COLUMN unconfirmed_attempts smallint NOT NULL DEFAULT 0;

-- Queued messages, for the sweep that finds one whose send lease ran out with nobody to send it.
CREATE INDEX messages_queued ON messages (sending_until) WHERE status_rank = 0;
