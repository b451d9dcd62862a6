-- The web app's people: users sign in with a password; memberships give them a role in a workspace;
-- invitations bring teammates in; sessions are cookies whose token is stored only as a hash.

-- Users are global (one person may belong to several workspaces): a reference table under Citus.
CREATE TABLE users (
  id text PRIMARY KEY,
  email text NOT NULL,
  name text NOT NULL DEFAULT '',
  password_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email ON users (lower(email));

CREATE TABLE memberships (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  user_id text NOT NULL REFERENCES users (id),
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, user_id)
);
CREATE INDEX memberships_user ON memberships (user_id);

CREATE TABLE invitations (
  workspace_id text NOT NULL REFERENCES workspaces (id),
  id text NOT NULL,
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
  token_hash text NOT NULL UNIQUE,
  invited_by text NOT NULL REFERENCES users (id),
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (workspace_id, id)
);

-- Looked up by token hash on every request of the web app, across workspaces.
CREATE TABLE sessions (
  token_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id),
  workspace_id text NOT NULL REFERENCES workspaces (id),
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expiry ON sessions (expires_at);

-- Failed sign-ins, counted per e-mail address and per client address to slow password guessing.
CREATE TABLE login_failures (
  subject text NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_failures_subject ON login_failures (subject, at);
