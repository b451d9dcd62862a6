import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test/support/database.js';
import type { Queryable } from '../../db/db.js';
import { migrate } from '../../db/migrate.js';
import { newId } from '../../lib/ids.js';
import { createWorkspace } from '../workspaces/create-workspace.js';
import { setPlan } from '../workspaces/plans.js';
import { withContactLimit } from './contact-limit.js';

// The race the fast path guards against (creations in flight on other connections) cannot happen on
// PGlite's one connection; contact-limit-race.postgres.test.ts races them on PostgreSQL. What one
// connection can check is the bound the fast path stands on: it admits a creation only while the
// committed total plus one creation in flight on each of the other 15 slots stays within the limit.
const SLOTS = 16;

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  await migrate(database.db);
});
afterAll(async () => {
  await database?.drop();
});

async function workspaceWithLimit(contacts: number): Promise<string> {
  const plan = `limit${contacts}`;
  await setPlan(database.db, plan, { contacts, monthlyLeads: 1, messagesPerMonth: 1 });
  return (await createWorkspace(database.db, { name: 'Limited', plan })).id;
}

let phone = 14155550000;
const insertContact = (q: Queryable, workspaceId: string) =>
  q.query('INSERT INTO contacts (workspace_id, id, phone) VALUES ($1, $2, $3)', [
    workspaceId,
    newId('ct'),
    String(phone++),
  ]);

const count = async (workspaceId: string) =>
  (
    await database.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM contacts WHERE workspace_id = $1',
      [workspaceId],
    )
  ).rows[0]!.n;

describe('contact limit, one connection', () => {
  it('leaves the fast path while the other slots could still take the total past the limit', async () => {
    const limit = 40;
    const ws = await workspaceWithLimit(limit);
    const fastPathRoom = limit - (SLOTS - 1);
    for (let i = 0; i < fastPathRoom; i++) await insertContact(database.db, ws);
    // One more without the exact count: 15 creations in flight elsewhere could pass the limit.
    await expect(insertContact(database.db, ws)).rejects.toMatchObject({ code: 'PL409' });
    expect(await count(ws)).toBe(fastPathRoom);
  });

  it('admits exactly the limit one by one, then answers plan_limit_reached and stores nothing', async () => {
    const limit = 20;
    const ws = await workspaceWithLimit(limit);
    for (let i = 0; i < limit; i++) await withContactLimit(database.db, (q) => insertContact(q, ws));
    await expect(withContactLimit(database.db, (q) => insertContact(q, ws))).rejects.toMatchObject({
      code: 'plan_limit_reached',
    });
    expect(await count(ws)).toBe(limit);
  });

  it('refuses a batch in one transaction that would pass the limit, whole', async () => {
    const limit = 20;
    const ws = await workspaceWithLimit(limit);
    for (let i = 0; i < limit - 2; i++) await withContactLimit(database.db, (q) => insertContact(q, ws));
    const batch = (n: number) =>
      withContactLimit(
        database.db,
        async (q) => {
          for (let i = 0; i < n; i++) await insertContact(q, ws);
        },
        { transaction: true },
      );
    await expect(batch(3)).rejects.toMatchObject({ code: 'plan_limit_reached' });
    expect(await count(ws)).toBe(limit - 2);
    await batch(2);
    expect(await count(ws)).toBe(limit);
  });
});
