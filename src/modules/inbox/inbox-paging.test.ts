import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { type AppClient, workspaceWithOwner } from '../../../test/support/app-session.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { seedInbox } from '../../../test/support/seed-inbox.mjs';
import { COUNT_CAP } from './inbox-counts.js';

const t = testAppForTests();

interface Page {
  conversations: { contact_id: string; name: string; match: string | null }[];
  next_cursor: string | null;
  counts: Record<'open' | 'mine' | 'unassigned' | 'snoozed' | 'all', number> | null;
}

const inbox = async (client: AppClient, query: Record<string, string>) => {
  const res = await client.call('GET', `/inbox?${new URLSearchParams(query)}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Page;
};

/** Every page's contact ids, following next_cursor from the first page. */
async function walk(client: AppClient, query: Record<string, string>, between?: () => Promise<void>) {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page: Page = await inbox(client, { ...query, ...(cursor ? { cursor } : {}) });
    seen.push(...page.conversations.map((r) => r.contact_id));
    cursor = page.next_cursor;
    await between?.();
  } while (cursor);
  return seen;
}

const seeded = async (conversations: number, messages: number) => {
  const owner = await workspaceWithOwner(t);
  await seedInbox(t.ctx.db, owner.workspaceId, { conversations, messages, assigneeId: owner.client.userId });
  return owner;
};

describe('the inbox list at scale', () => {
  it('pages by cursor, newest first, visiting each conversation once while new ones arrive', async () => {
    const { client, workspaceId } = await seeded(230, 690);
    const newest = Array.from({ length: 230 }, (_, i) => `seed_${229 - i}`);
    expect(await walk(client, { filter: 'all', limit: '50' })).toEqual(newest);

    // A conversation arriving mid-walk lands before the first page: the walk neither repeats nor skips one.
    let arrived = 0;
    const seen = await walk(client, { filter: 'all', limit: '40' }, async () => {
      arrived++;
      await t.ctx.db.transaction(async (tx) => {
        // The contact bypasses the plan's contact limit (the seed's contacts are counted in one slot).
        await tx.query('SET LOCAL session_replication_role = replica');
        await tx.query(`INSERT INTO contacts (workspace_id, id, phone) VALUES ($1, $2, $3)`, [
          workspaceId,
          `new_ct_${arrived}`,
          `1666${arrived}`,
        ]);
        await tx.query('SET LOCAL session_replication_role = origin');
        await tx.query(
          `INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, text, status, status_rank)
           VALUES ($1, $2, 'inbound', $3, $4, 'text', 'new', 'received', 0)`,
          [workspaceId, `new_${arrived}`, `new_ct_${arrived}`, `1666${arrived}`],
        );
      });
    });
    expect(arrived).toBe(6);
    expect(seen).toEqual(newest);
    expect((await inbox(client, { filter: 'all', limit: '6' })).conversations[0]?.contact_id).toBe(
      'new_ct_6',
    );
  });

  it('counts each filter, up to the cap, a snoozed conversation under Snoozed only', async () => {
    const { client, workspaceId } = await seeded(120, 240);
    const page = await inbox(client, { filter: 'open' });
    // Seeded: every fifth resolved, every third (n % 3 = 0) the owner's.
    const n = Array.from({ length: 120 }, (_, i) => i);
    const open = n.filter((i) => i % 5 !== 0);
    expect(page.counts).toEqual({
      all: 120,
      open: open.length,
      mine: open.filter((i) => i % 3 === 0).length,
      unassigned: open.filter((i) => i % 3 !== 0).length,
      snoozed: 0,
    });
    expect((await inbox(client, { filter: 'open', cursor: page.next_cursor! })).counts).toBeNull();

    // One of the owner's and one unassigned, snoozed for an hour; one whose snooze has ended.
    const snooze = (ids: string[], until: string) =>
      t.ctx.db.query(
        `UPDATE conversations SET snoozed_until = now() + $3::interval WHERE workspace_id = $1 AND contact_id = ANY($2)`,
        [workspaceId, ids, until],
      );
    await snooze(['seed_3', 'seed_1'], '1 hour');
    await snooze(['seed_2'], '-1 second');
    expect((await inbox(client, { filter: 'open' })).counts).toEqual({
      all: 120,
      open: open.length - 2,
      mine: open.filter((i) => i % 3 === 0).length - 1,
      unassigned: open.filter((i) => i % 3 !== 0).length - 1,
      snoozed: 2,
    });

    const big = await seeded(COUNT_CAP + 5, COUNT_CAP + 5);
    expect((await inbox(big.client, {})).counts?.all).toBe(COUNT_CAP);
  });

  it('searches message text through the whole history, and says which text matched', async () => {
    const { client } = await seeded(300, 8000);
    // Message 1234 (contact 34's), under 6,765 newer ones: found, case aside.
    const rare = await inbox(client, { filter: 'all', q: 'REF 1234' });
    expect(rare.conversations.map((r) => [r.contact_id, r.match])).toEqual([
      ['seed_34', 'Do you deliver to Colaba, ref 1234'],
    ]);
    // 1,000 messages say it (found through the index at once): every conversation with one, once.
    const said = new Set<string>();
    for (let m = 0; m < 8000; m++) if (Math.floor(m / 7) % 8 === 6) said.add(`seed_${m % 300}`);
    const parcel = await walk(client, { filter: 'all', q: 'parcel arrived', limit: '25' });
    expect(parcel.length).toBe(said.size);
    expect(new Set(parcel)).toEqual(said);
    const page = await inbox(client, { filter: 'all', q: 'Parcel Arrived' });
    expect(page.conversations.every((r) => /parcel arrived/i.test(r.match ?? ''))).toBe(true);
    // Every message says it (found by walking the newest conversations): each conversation, once, newest first.
    // The newest message is 7999, contact 199's; contact 200's newest is 7700.
    const everyone = Array.from({ length: 300 }, (_, i) => `seed_${(499 - i) % 300}`);
    expect(await walk(client, { filter: 'all', q: 'ref', limit: '100' })).toEqual(everyone);
  });

  it('matches a name from one character, a phone by digits only, and message text from three', async () => {
    const { client } = await seeded(40, 40);
    const ids = async (q: string) =>
      (await inbox(client, { filter: 'all', q })).conversations.map((r) => r.contact_id);
    // Names "Meera Shah 0", "Ravi Kumar 1", …; phones 1555 and 7 digits.
    expect(await ids('Meera Shah 0')).toEqual(['seed_0']);
    expect(await ids('+1 555 000-0039')).toEqual(['seed_39']);
    // Digits among words are not a phone: "ref 39" is message 39's text, not phones with 39 in them.
    expect(await ids('ref 39')).toEqual(['seed_39']);
    // Two characters: names and phones only, not message text (messages 0 to 6 say "Colaba").
    expect(await ids('ol')).toEqual([]);
    expect(await ids('ola')).toEqual(['seed_6', 'seed_5', 'seed_4', 'seed_3', 'seed_2', 'seed_1', 'seed_0']);
  });

  it('refuses a cursor that is not one of its own', async () => {
    const { client } = await workspaceWithOwner(t);
    expectRestError(await client.call('GET', '/inbox?cursor=nonsense'), 422, 'validation_error');
  });
});
