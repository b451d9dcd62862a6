import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { fieldsNamed, hostilePageQueries } from '../../../test/support/hostile-pages.js';
import { encodeCursor } from '../../api/page-cursor.js';

const t = testAppForTests();

let n = 0;
const contact = async (key: string) => {
  const res = await t.api('POST', '/contacts', key, { phone: `+1415555${String(++n).padStart(4, '0')}` });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
};

type Page = {
  entries: { entity_id: string; actor_type: string; action: string }[];
  next_cursor: string | null;
};
const page = async (key: string, query = '') => {
  const res = await t.api('GET', `/audit-log?${query}`, key);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Page;
};

describe('GET /api/v1/audit-log', () => {
  it("lists the key's changes newest first, with the key as actor, filtered by entity", async () => {
    const { key } = await t.workspace();
    const first = await contact(key);
    const second = await contact(key);
    const all = await page(key);
    expect(all.entries.map((e) => e.entity_id)).toEqual([second, first]);
    expect(all.entries[0]).toMatchObject({ actor_type: 'api_key', action: 'create', entity_type: 'contact' });
    expect(all.next_cursor).toBeNull();
    expect((await page(key, 'entity=contact')).entries).toHaveLength(2);
    expect((await page(key, 'entity=form')).entries).toEqual([]);
    expectRestError(await t.api('GET', '/audit-log?entity=planet', key), 422, 'validation_error');
  });

  it('follows next_cursor over every entry exactly once while new entries are recorded between pages', async () => {
    const { key } = await t.workspace();
    const before: string[] = [];
    for (let i = 0; i < 5; i++) before.push(await contact(key));
    const seen: string[] = [];
    let next = await page(key, 'limit=2');
    seen.push(...next.entries.map((e) => e.entity_id));
    while (next.next_cursor) {
      await contact(key);
      next = await page(key, `limit=2&cursor=${next.next_cursor}`);
      seen.push(...next.entries.map((e) => e.entity_id));
    }
    expect(seen).toEqual([...before].reverse());
  });

  it.each([
    ...hostilePageQueries('ct', '1'),
    [`cursor=${encodeCursor({ micros: '1', id: 'ct_x' })}`, 'cursor'],
  ])('refuses ?%s with 422 at %s', async (query, field) => {
    const { key } = await t.workspace();
    const res = await t.api('GET', `/audit-log?${query}`, key);
    expectRestError(res, 422, 'validation_error');
    expect(fieldsNamed(res)).toEqual([field]);
  });
});
