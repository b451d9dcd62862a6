-- Password reset links: only the token's SHA-256 is kept, each used once, for an hour. Users are
-- not a tenant's rows, so neither are their resets (no workspace_id).
CREATE TABLE password_resets (
  token_hash text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX password_resets_user ON password_resets (user_id);
CREATE INDEX password_resets_expires_at ON password_resets (expires_at);
