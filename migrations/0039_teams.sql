-- Teams and auto-assignment (issue 30): named groups of members, each member's availability, the
-- team a conversation belongs to, and the workspace's routing settings.

CREATE TABLE teams (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  id text NOT NULL,
  name text NOT NULL,
  -- Open and pending conversations one member may hold before round robin passes them by; null: no cap.
  max_open_per_member integer CHECK (max_open_per_member BETWEEN 1 AND 1000),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id)
);
CREATE UNIQUE INDEX teams_name ON teams (workspace_id, lower(name));

CREATE TABLE team_members (
  workspace_id text NOT NULL,
  team_id text NOT NULL,
  user_id text NOT NULL,
  -- When round robin last gave this member a conversation of this team; null (never) goes first.
  last_assigned_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, team_id, user_id),
  FOREIGN KEY (workspace_id, team_id) REFERENCES teams (workspace_id, id) ON DELETE CASCADE,
  FOREIGN KEY (workspace_id, user_id) REFERENCES memberships (workspace_id, user_id) ON DELETE CASCADE
);
CREATE INDEX team_members_user ON team_members (workspace_id, user_id);

ALTER TABLE memberships
  ADD COLUMN availability text NOT NULL DEFAULT 'online' CHECK (availability IN ('online', 'away')),
  ADD COLUMN last_seen_at timestamptz;

ALTER TABLE conversations ADD COLUMN team_id text;
ALTER TABLE conversations ADD CONSTRAINT conversations_team FOREIGN KEY (workspace_id, team_id)
  REFERENCES teams (workspace_id, id) ON DELETE SET NULL (team_id);
CREATE INDEX conversations_team ON conversations (workspace_id, team_id) WHERE team_id IS NOT NULL;
-- The cap counts a member's open and pending conversations.
CREATE INDEX conversations_assignee_open ON conversations (workspace_id, assignee_id)
  WHERE assignee_id IS NOT NULL AND state <> 'resolved';

CREATE TABLE routing_settings (
  workspace_id text PRIMARY KEY REFERENCES workspaces (id),
  auto_assign_team_id text,
  idle_minutes integer NOT NULL DEFAULT 15 CHECK (idle_minutes BETWEEN 1 AND 1440),
  updated_at timestamptz NOT NULL DEFAULT now(),
  FOREIGN KEY (workspace_id, auto_assign_team_id) REFERENCES teams (workspace_id, id)
    ON DELETE SET NULL (auto_assign_team_id)
);

-- The inbox hears a conversation moved to another team as it hears a new assignee.
CREATE TRIGGER conversations_team_live AFTER UPDATE OF team_id ON conversations
  FOR EACH ROW WHEN (OLD.team_id IS DISTINCT FROM NEW.team_id) EXECUTE FUNCTION inbox_conversation_changed();
