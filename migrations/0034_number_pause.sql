-- A number Meta refuses to send from, whatever the message (its token expired or revoked, the account
-- locked or blocked): its sends wait, held queued, until the owner puts it right; the code and Meta's
-- words say why.
ALTER TABLE connected_numbers ADD COLUMN paused_at timestamptz;
ALTER TABLE connected_numbers ADD COLUMN paused_code integer;
ALTER TABLE connected_numbers ADD COLUMN paused_reason text;

ALTER TABLE broadcasts DROP CONSTRAINT broadcasts_paused_reason_check;
ALTER TABLE broadcasts ADD CONSTRAINT broadcasts_paused_reason_check
  CHECK (paused_reason IN ('no_connected_number', 'plan_limit_reached', 'number_paused'));
