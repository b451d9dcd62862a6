-- Sign-in attempts counted in one row per subject (an e-mail address or a client address), each
-- attempt added by one atomic upsert before its password is checked: simultaneous guesses each see
-- the others, where counting failure rows after the check let every guess in flight through.
CREATE TABLE login_attempts (
  subject text PRIMARY KEY,
  attempts integer NOT NULL,
  window_start timestamptz NOT NULL
);
CREATE INDEX login_attempts_window_start ON login_attempts (window_start);

DROP TABLE login_failures;
