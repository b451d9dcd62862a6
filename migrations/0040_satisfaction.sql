-- Satisfaction surveys (issue 30): when a conversation is resolved, the customer may be asked to rate
-- the help from 1 to 5 (an interactive list: WhatsApp allows only three reply buttons). No settings row
-- means the survey is off.
CREATE TABLE satisfaction_settings (
  workspace_id text PRIMARY KEY REFERENCES workspaces (id),
  enabled boolean NOT NULL DEFAULT false,
  question text NOT NULL CHECK (char_length(question) BETWEEN 1 AND 1024),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- One row per resolve that asked: who was asked, the teammate assigned at the resolve (null when no one
-- was), the message that asked (null until it was stored), and the rating once the customer tapped one.
CREATE TABLE satisfaction_surveys (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  id text NOT NULL,
  contact_id text NOT NULL,
  assignee_id text REFERENCES users (id) ON DELETE SET NULL,
  message_id text,
  rating smallint CHECK (rating BETWEEN 1 AND 5),
  answer_message_id text,
  asked_at timestamptz NOT NULL DEFAULT now(),
  answered_at timestamptz,
  PRIMARY KEY (workspace_id, id),
  CHECK ((rating IS NULL) = (answered_at IS NULL))
);
-- The contact's latest survey (the one an answer may rate), and the dashboard's period.
CREATE INDEX satisfaction_surveys_contact ON satisfaction_surveys (workspace_id, contact_id, asked_at DESC);
CREATE INDEX satisfaction_surveys_asked ON satisfaction_surveys (workspace_id, asked_at);
