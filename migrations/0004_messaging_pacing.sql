-- Per connected number, the earliest time the next message may go to the network (a GCRA "theoretical
-- arrival time"): every sender, in any process, takes its slot here, so a number's sends stay within
-- its messages_per_second however many API and worker instances share the database. UNLOGGED: the
-- row is rewritten on every send and worth nothing after a crash (an empty table just means "now").
CREATE UNLOGGED TABLE message_pacing (
  workspace_id text NOT NULL,
  number_id text NOT NULL,
  next_slot_at timestamptz NOT NULL,
  PRIMARY KEY (workspace_id, number_id)
) WITH (fillfactor = 50);
