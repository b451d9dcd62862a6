import { describe, expect, it } from 'vitest';
import { automationExamples } from '../src/modules/automation/v1-examples.js';
import { saveTemplate } from '../src/modules/templates/save-template.js';
import { testAppForTests } from './support/app.js';

// A cursor holds a row's moment to the microsecond. A list shown with its moment as millisecond text
// must still be ordered by the column, not by that text: two rows in one millisecond, the later one
// with the smaller id, are where the two orders part, and a page boundary between them lost a row.
const t = testAppForTests();
type Ws = { id: string; key: string };

/** Each cursor list: how to make two of the workspace's rows, its table, and where its answer lists them. */
const LISTS: {
  path: string;
  table: string;
  items: string;
  oldestFirst?: boolean;
  /** Makes the rows; answers the id of the row the path's `{id}` names, if it has one. */
  make: (ws: Ws) => Promise<unknown>;
}[] = [
  {
    path: '/templates?status=all&limit=1',
    table: 'templates',
    items: 'templates',
    make: async (ws) => {
      for (const name of ['one', 'two'])
        await saveTemplate(t.ctx.db, ws.id, {
          name,
          language: 'en',
          category: 'UTILITY',
          body: 'Hi',
          status: 'APPROVED',
        });
    },
  },
  {
    path: '/automations?limit=1',
    table: 'automations',
    items: 'automations',
    make: async (ws) => {
      for (const name of ['one', 'two'])
        expect(
          (await t.api('POST', '/automations', ws.key, { ...automationExamples.create, name })).statusCode,
        ).toBe(201);
    },
  },
  {
    path: '/contacts?limit=1',
    table: 'contacts',
    items: 'contacts',
    oldestFirst: true,
    make: async (ws) => {
      for (const phone of ['+14155550101', '+14155550102'])
        expect((await t.api('POST', '/contacts', ws.key, { phone })).statusCode).toBe(201);
    },
  },
  {
    path: '/forms?limit=1',
    table: 'forms',
    items: 'forms',
    make: async (ws) => {
      for (const name of ['one', 'two'])
        expect((await t.api('POST', '/forms', ws.key, { name })).statusCode).toBe(201);
    },
  },
  {
    path: '/webhooks/{id}/deliveries?limit=1',
    table: 'webhook_deliveries',
    items: 'deliveries',
    make: async (ws) => {
      const endpoint = (
        await t.api('POST', '/webhooks', ws.key, { url: 'https://hooks.example.com/parley' })
      ).json();
      for (const id of ['wd_one', 'wd_two'])
        await t.ctx.db.query(
          `INSERT INTO webhook_deliveries (workspace_id, id, endpoint_id, event_type, event_key, payload)
           VALUES ($1, $2, $3, 'message.status', $2, '{}')`,
          [ws.id, id, endpoint.endpoint.id],
        );
      return endpoint.endpoint.id;
    },
  },
];

describe('cursor pages of rows made in the same millisecond', () => {
  it.each(LISTS)('GET $path walks both in order', async ({ path, table, items, oldestFirst, make }) => {
    const ws = await t.workspace();
    const id = await make(ws);
    const named = typeof id === 'string' ? path.replace('{id}', id) : path;
    const ids = (
      await t.ctx.db.query<{ id: string }>(`SELECT id FROM ${table} WHERE workspace_id = $1 ORDER BY id`, [
        ws.id,
      ])
    ).rows.map((r) => r.id);
    expect(ids).toHaveLength(2);
    const [smaller, larger] = ids as [string, string];
    // 100 µs and 500 µs into the same millisecond: the larger id is the earlier row.
    await t.ctx.db.query(
      `UPDATE ${table} SET created_at = timestamptz '2026-01-01 10:00:00.0001+00'
         + CASE id WHEN $2 THEN interval '0' ELSE interval '400 microseconds' END
       WHERE workspace_id = $1`,
      [ws.id, larger],
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const res = await t.api('GET', `${named}${query}`, ws.key);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      seen.push(...(body[items] as { id: string }[]).map((x) => x.id));
      cursor = body.next_cursor;
    } while (cursor && seen.length < 5);
    expect(seen).toEqual(oldestFirst ? [larger, smaller] : [smaller, larger]);
  });
});
