import type { FastifyReply } from 'fastify';
import type { Static } from 'typebox';
import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import type { SetupBody } from './schemas.js';
import { startSession } from './sessions.js';
import { createOwnedWorkspace, createUser } from './users.js';

// Keeps two first-run setups racing each other from both creating an owner.
const SETUP_LOCK = 7_202_612;

export async function hasUsers(db: Queryable): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM users LIMIT 1');
  return rows.length > 0;
}

/** First-run setup: the first user, owner of the first workspace, signed in. Only while there is no user. */
export async function setUpServer(
  ctx: AppContext,
  reply: FastifyReply,
  input: Static<typeof SetupBody>,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [SETUP_LOCK]);
    if (await hasUsers(tx)) {
      throw new ApiError(
        'conflict',
        'This server is already set up; sign in, or ask an owner for an invitation',
      );
    }
    const userId = await createUser(tx, input.email, input.password, input.name);
    const workspaceId = await createOwnedWorkspace(
      tx,
      userId,
      input.workspace_name,
      input.default_country_code,
    );
    await startSession(ctx, tx, reply, userId, workspaceId);
  });
}
