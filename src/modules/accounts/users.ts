import type { Queryable } from '../../db/db.js';
import { newId } from '../../lib/ids.js';
import { createWorkspace } from '../workspaces/create-workspace.js';
import { hashPassword } from './passwords.js';
import type { Role } from './roles.js';

export interface UserRow {
  id: string;
  email: string;
  name: string;
  password_hash: string;
}

export async function userByEmail(db: Queryable, email: string): Promise<UserRow | null> {
  const { rows } = await db.query<UserRow>(
    'SELECT id, email, name, password_hash FROM users WHERE lower(email) = lower($1)',
    [email],
  );
  return rows[0] ?? null;
}

export async function createUser(db: Queryable, email: string, password: string, name = ''): Promise<string> {
  return insertUser(db, email, await hashPassword(password), name);
}

/** createUser with the password already hashed (hashPassword). */
export async function insertUser(
  db: Queryable,
  email: string,
  passwordHash: string,
  name = '',
): Promise<string> {
  const id = newId('usr');
  await db.query('INSERT INTO users (id, email, name, password_hash) VALUES ($1, $2, $3, $4)', [
    id,
    email.trim(),
    name.trim(),
    passwordHash,
  ]);
  return id;
}

export async function addMember(
  db: Queryable,
  workspaceId: string,
  userId: string,
  role: Role,
): Promise<void> {
  await db.query(
    `INSERT INTO memberships (workspace_id, user_id, role) VALUES ($1, $2, $3)
     ON CONFLICT (workspace_id, user_id) DO NOTHING`,
    [workspaceId, userId, role],
  );
}

/**
 * A new user, or null when an account with this e-mail exists or is being created: a racing
 * insert waits for the other transaction and, if it commits, inserts nothing (no unique violation).
 */
export async function createUserUnlessTaken(
  db: Queryable,
  email: string,
  password: string,
  name = '',
): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO users (id, email, name, password_hash) VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING RETURNING id`,
    [newId('usr'), email.trim(), name.trim(), await hashPassword(password)],
  );
  return rows[0]?.id ?? null;
}

/** A workspace created from the web app, with its creator as owner. */
export async function createOwnedWorkspace(
  db: Queryable,
  userId: string,
  name: string,
  defaultCountryCode: string | null | undefined,
): Promise<string> {
  const workspace = await createWorkspace(db, { name, defaultCountryCode: defaultCountryCode ?? null });
  await addMember(db, workspace.id, userId, 'owner');
  return workspace.id;
}

/** The user's workspaces, oldest membership first. */
export async function workspacesOf(db: Queryable, userId: string) {
  const { rows } = await db.query<{ id: string; name: string; role: Role }>(
    `SELECT w.id, w.name, m.role FROM memberships m JOIN workspaces w ON w.id = m.workspace_id
     WHERE m.user_id = $1 ORDER BY m.created_at, w.id`,
    [userId],
  );
  return rows;
}
