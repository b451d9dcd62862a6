import { createHmac, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import { safeEqual } from '../../lib/constant-time.js';
import { sha256Hex } from '../../lib/hash.js';
import type { Language } from './languages.js';
import { countAttempts } from './login-throttle.js';
import type { Role } from './roles.js';

export const SESSION_COOKIE = 'parley_session';
const SESSION_DAYS = 14;
// A session in use is extended when fewer than this many days are left.
const RENEW_BELOW_DAYS = 7;
// Sessions one user may start in a window: each may hold live streams and rows, and a person
// signs in a few times a day (issue 27 measured 410 sign-ins of one member in 39 s).
const SIGN_INS_PER_USER = 20;
const SIGN_IN_WINDOW_MINUTES = 15;

export interface Session {
  tokenHash: string;
  userId: string;
  email: string;
  name: string;
  /** The web app's language the person chose; null follows their browser. */
  language: Language | null;
  workspaceId: string;
  workspaceName: string;
  defaultCountryCode: string | null;
  timeZone: string;
  role: Role;
  /** Sent back by the browser in `x-parley-csrf` on every state-changing request. */
  csrfToken: string;
}

/**
 * Starts a session: a random 256-bit token in the cookie, only its SHA-256 in the database; 429 past
 * the user's sessions in the window, counted atomically with the others starting at once.
 */
export async function startSession(
  ctx: AppContext,
  db: Queryable,
  reply: FastifyReply,
  userId: string,
  workspaceId: string,
): Promise<void> {
  const started = await countAttempts(
    db,
    [{ subject: `sessions:${userId}`, limit: SIGN_INS_PER_USER }],
    SIGN_IN_WINDOW_MINUTES,
  );
  if (!started.allowed) {
    reply.header('Retry-After', String(started.retryAfterSeconds));
    throw new ApiError(
      'rate_limited',
      `This account signed in ${SIGN_INS_PER_USER} times in ${SIGN_IN_WINDOW_MINUTES} minutes; wait and sign in again`,
    );
  }
  const token = randomBytes(32).toString('base64url');
  await db.query(
    `INSERT INTO sessions (token_hash, user_id, workspace_id, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(days => $4))`,
    [sha256Hex(token), userId, workspaceId, SESSION_DAYS],
  );
  // Expired sessions go as new ones start: no job needed, and the index keeps it cheap.
  await db.query('DELETE FROM sessions WHERE expires_at < now()');
  reply.header('set-cookie', sessionCookie(ctx, token, SESSION_DAYS * 86_400));
}

export async function endSession(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const token = cookieValue(request, SESSION_COOKIE);
  if (token) await ctx.db.query('DELETE FROM sessions WHERE token_hash = $1', [sha256Hex(token)]);
  reply.header('set-cookie', sessionCookie(ctx, '', 0));
}

/** The request's session, if its cookie names a live one whose user is still a member of its workspace. */
export async function currentSession(ctx: AppContext, request: FastifyRequest): Promise<Session | null> {
  const token = cookieValue(request, SESSION_COOKIE);
  if (!token || token.length > 100) return null;
  const tokenHash = sha256Hex(token);
  const { rows } = await ctx.db.query<{
    user_id: string;
    email: string;
    name: string;
    language: Language | null;
    workspace_id: string;
    workspace_name: string;
    default_country_code: string | null;
    time_zone: string;
    role: Role;
    renew: boolean;
  }>(
    `SELECT s.user_id, u.email, u.name, u.language, s.workspace_id, w.name AS workspace_name, w.default_country_code,
       w.time_zone, m.role,
       s.expires_at < now() + make_interval(days => $2) AS renew
     FROM sessions s
     JOIN users u ON u.id = s.user_id
     JOIN memberships m ON m.workspace_id = s.workspace_id AND m.user_id = s.user_id
     JOIN workspaces w ON w.id = s.workspace_id
     WHERE s.token_hash = $1 AND s.expires_at > now()`,
    [tokenHash, RENEW_BELOW_DAYS],
  );
  const row = rows[0];
  if (!row) return null;
  if (row.renew) {
    await ctx.db.query(
      'UPDATE sessions SET expires_at = now() + make_interval(days => $2), last_seen_at = now() WHERE token_hash = $1',
      [tokenHash, SESSION_DAYS],
    );
  }
  return {
    tokenHash,
    userId: row.user_id,
    email: row.email,
    name: row.name,
    language: row.language,
    workspaceId: row.workspace_id,
    workspaceName: row.workspace_name,
    defaultCountryCode: row.default_country_code,
    timeZone: row.time_zone,
    role: row.role,
    csrfToken: csrfTokenFor(ctx, tokenHash),
  };
}

/** Derived from the session, so nothing more is stored: HMAC(secret key, session hash). */
function csrfTokenFor(ctx: AppContext, tokenHash: string): string {
  return createHmac('sha256', ctx.config.secretKey).update(`csrf:${tokenHash}`).digest('base64url');
}

export function csrfMatches(session: Session, presented: string): boolean {
  return safeEqual(presented, session.csrfToken);
}

function sessionCookie(ctx: AppContext, value: string, maxAge: number): string {
  const secure = ctx.config.appUrl.startsWith('https:') ? '; Secure' : '';
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`;
}

function cookieValue(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
