-- Bots (issue 29): a run keeps variables, may wait for a contact's answer, holds the conversation while
-- it talks to the contact, and may visit a step more than once (loops through an ask or a wait).
ALTER TABLE runs ADD COLUMN variables jsonb NOT NULL DEFAULT '{}';
-- Set while an ask step waits for the contact's answer: which step and visit, attempts so far, expiry.
ALTER TABLE runs ADD COLUMN awaiting jsonb;
ALTER TABLE runs ADD COLUMN holds_conversation boolean NOT NULL DEFAULT false;
-- One bot talks to a contact at a time.
CREATE UNIQUE INDEX runs_conversation_bot ON runs (workspace_id, contact_id)
  WHERE holds_conversation AND status IN ('running', 'waiting');

-- 'stopped': a teammate's reply or the contact's STOP ended the run; error holds the reason.
ALTER TABLE runs DROP CONSTRAINT runs_status_check;
ALTER TABLE runs ADD CONSTRAINT runs_status_check
  CHECK (status IN ('running', 'waiting', 'completed', 'failed', 'stopped'));

-- A step reached again runs again: each visit has its own row, the guard and the record of that visit.
ALTER TABLE run_steps ADD COLUMN visit integer NOT NULL DEFAULT 1 CHECK (visit >= 1);
ALTER TABLE run_steps DROP CONSTRAINT run_steps_pkey;
ALTER TABLE run_steps ADD PRIMARY KEY (workspace_id, run_id, step_id, visit);
-- The visit of next_step this visit queued: a job delivered again queues that same one, not another.
ALTER TABLE run_steps ADD COLUMN next_visit integer;
