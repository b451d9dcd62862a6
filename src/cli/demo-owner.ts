import { randomBytes } from 'node:crypto';
import type { Queryable } from '../db/db.js';
import { addMember, createUserUnlessTaken, userByEmail } from '../modules/accounts/users.js';

export const DEMO_OWNER_EMAIL = 'demo@example.com';

/** How to see the demo in the web app: who signs in, and the password only when it was made just now. */
export interface DemoSignIn {
  url: string;
  email: string;
  password?: string;
  note: string;
}

/**
 * Makes the demo workspace visible in the web app. The owner of the server's first workspace gets it
 * in their workspace switcher; a server nobody has set up gets a demo owner whose generated password
 * is returned once (stored only as a hash, like any password) for the person running the command.
 */
export async function giveDemoAnOwner(
  db: Queryable,
  appUrl: string,
  workspaceId: string,
): Promise<DemoSignIn> {
  const { rows } = await db.query<{ id: string; email: string }>(
    `SELECT u.id, u.email FROM memberships m
     JOIN users u ON u.id = m.user_id JOIN workspaces w ON w.id = m.workspace_id
     WHERE m.role = 'owner' AND m.workspace_id <> $1
     ORDER BY w.created_at, w.id, m.created_at LIMIT 1`,
    [workspaceId],
  );
  const owner = rows[0];
  if (owner) {
    await addMember(db, workspaceId, owner.id, 'owner');
    return {
      url: appUrl,
      email: owner.email,
      note: 'sign in as this owner of the first workspace and pick "Demo" in the workspace switcher',
    };
  }
  const password = randomBytes(15).toString('base64url');
  const created = await createUserUnlessTaken(db, DEMO_OWNER_EMAIL, password, 'Demo owner');
  // A demo owner made before and no longer an owner anywhere keeps the password printed back then.
  const userId = created ?? (await userByEmail(db, DEMO_OWNER_EMAIL))!.id;
  await addMember(db, workspaceId, userId, 'owner');
  if (!created)
    return {
      url: appUrl,
      email: DEMO_OWNER_EMAIL,
      note: 'sign in with the password printed when it was made',
    };
  return {
    url: appUrl,
    email: DEMO_OWNER_EMAIL,
    password,
    note: `printed only this once; \`parley user reset-password --email ${DEMO_OWNER_EMAIL}\` sets another`,
  };
}
