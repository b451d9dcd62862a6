-- POST /events stores the event and nothing else: an event whose flows' runs are not started yet is
-- marked, and the workers start the runs of many such events per transaction (the outbox,
-- src/modules/automation/event-outbox.ts). Events stored before this start from their queued job.
ALTER TABLE events ADD COLUMN runs_pending boolean NOT NULL DEFAULT false;
CREATE INDEX events_runs_pending ON events (created_at) WHERE runs_pending;
