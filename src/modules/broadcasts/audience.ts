import { ApiError } from '../../api/errors.js';
import type { Db, Queryable } from '../../db/db.js';
import { EXPENSIVE_READ, withinTime } from '../../db/time-bound.js';
import { CONTACT_COLUMNS } from '../contacts/list-contacts.js';
import type { Contact } from '../contacts/schemas.js';
import { withinShare } from '../rate-limit/read-share.js';
import type { Audience } from './schemas.js';

/**
 * The WHERE clause (over `contacts c`) choosing an audience's contacts, its parameters numbered
 * from $2 ($1 is the workspace). Opted-out contacts are left out of a MARKETING template's audience.
 */
export function audienceFilter(audience: Audience, marketing: boolean): { where: string; params: unknown[] } {
  const params: unknown[] = [];
  const p = (value: unknown) => {
    params.push(value);
    return `$${params.length + 1}`;
  };
  const where = ['c.workspace_id = $1'];
  if (marketing) where.push('NOT c.opted_out');
  if (audience.tags_all?.length) where.push(`c.tags @> ${p(audience.tags_all)}::text[]`);
  if (audience.tags_any?.length) where.push(`c.tags && ${p(audience.tags_any)}::text[]`);
  if (audience.tags_none?.length) where.push(`NOT (c.tags && ${p(audience.tags_none)}::text[])`);
  for (const trait of audience.traits ?? []) {
    const key = p(trait.key);
    if ('exists' in trait) where.push(`(c.traits -> ${key}) IS ${trait.exists ? 'NOT ' : ''}NULL`);
    // An imported trait is text: 42 matches "42" as well as 42.
    else
      where.push(
        `(c.traits -> ${key} = ${p(JSON.stringify(trait.equals))}::jsonb OR c.traits ->> ${key} = ${p(String(trait.equals))})`,
      );
  }
  for (const [column, period] of [
    ['created_at', audience.created],
    ['last_inbound_at', audience.last_inbound],
  ] as const) {
    if (period?.from) where.push(`c.${column} >= ${p(period.from)}::timestamptz`);
    if (period?.to) where.push(`c.${column} < ${p(period.to)}::timestamptz`);
  }
  if (audience.import_id) {
    where.push(
      `c.id IN (SELECT contact_id FROM contact_import_contacts WHERE workspace_id = $1 AND import_id = ${p(audience.import_id)})`,
    );
  }
  return { where: where.join(' AND '), params };
}

/** An audience naming an import must name one of the workspace's (422 at the field otherwise). */
export async function checkAudience(db: Queryable, workspaceId: string, audience: Audience, field: string) {
  for (const period of ['created', 'last_inbound'] as const) {
    for (const end of ['from', 'to'] as const) {
      const value = audience[period]?.[end];
      const year = value === undefined ? 2000 : new Date(value).getUTCFullYear();
      if (!(year >= 1 && year <= 9999))
        throw ApiError.invalid(
          `${field}.${period}.${end}`,
          'Give a date and time such as 2026-01-31T00:00:00Z.',
        );
    }
  }
  if (!audience.import_id) return;
  const { rows } = await db.query('SELECT 1 FROM contact_imports WHERE workspace_id = $1 AND id = $2', [
    workspaceId,
    audience.import_id,
  ]);
  if (!rows[0])
    throw ApiError.invalid(`${field}.import_id`, `There is no contact import ${audience.import_id}.`);
}

/** How many contacts the audience holds now. */
export async function countAudience(
  db: Queryable,
  workspaceId: string,
  audience: Audience,
  marketing: boolean,
) {
  const { where, params } = audienceFilter(audience, marketing);
  const { rows } = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM contacts c WHERE ${where}`,
    [workspaceId, ...params],
  );
  return rows[0]!.count;
}

/**
 * POST /broadcasts/audience: the count before sending, and up to five of the contacts, newest first;
 * 503 past the time bound (a count over every contact with trait conditions can take long).
 */
export async function audienceWithSample(
  db: Db,
  workspaceId: string,
  audience: Audience,
  marketing: boolean,
) {
  await checkAudience(db, workspaceId, audience, 'audience');
  const { where, params } = audienceFilter(audience, marketing);
  return withinShare(workspaceId, () =>
    withinTime(
      db,
      EXPENSIVE_READ.ms,
      async (tx) => {
        const sample = await tx.query<Contact>(
          `SELECT ${CONTACT_COLUMNS}
         FROM contacts c WHERE ${where} ORDER BY c.created_at DESC, c.id DESC LIMIT 5`,
          [workspaceId, ...params],
        );
        return { count: await countAudience(tx, workspaceId, audience, marketing), sample: sample.rows };
      },
      (cause) =>
        new ApiError(
          'unavailable',
          `Counting this audience took longer than ${EXPENSIVE_READ.ms / 1000} seconds; narrow it or try again later`,
          undefined,
          { cause },
        ),
    ),
  );
}
