-- Why a template stopped being sendable when Parley learnt it from a refused send (paused, disabled,
-- no longer on the network), shown beside its status until the status changes again.
ALTER TABLE templates ADD COLUMN status_reason text;
