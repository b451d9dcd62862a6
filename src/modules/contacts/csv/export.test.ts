import { expect, it } from 'vitest';
import { testAppForTests } from '../../../../test/support/app.js';
import { recordPages } from '../../../../test/support/statements.js';
import { contactRecords } from './export-contacts.js';

const t = testAppForTests();

it('reads the contacts a page of 1,000 at a time, each page only when the file has taken the last', async () => {
  const ws = await t.workspace();
  await t.ctx.db.query(
    `INSERT INTO contacts (workspace_id, id, phone)
     SELECT $1, 'ct_' || lpad(g::text, 6, '0'), (14150000000 + g)::text FROM generate_series(1, 2500) AS g`,
    [ws.id],
  );
  const db = t.ctx.db;
  await recordPages(db, async (pages) => {
    const records = contactRecords(db, ws.id, [])[Symbol.asyncIterator]();
    expect((await records.next()).value[0]).toBe('ct_000001');
    expect(pages).toEqual([1000]);
    for (let i = 1; i < 1000; i++) await records.next();
    expect(pages).toEqual([1000]);
    expect((await records.next()).value[0]).toBe('ct_001001');
    expect(pages).toEqual([1000, 1000]);
    let rest = 0;
    while (!(await records.next()).done) rest++;
    expect(rest).toBe(1499);
    expect(pages).toEqual([1000, 1000, 500]);
  });
});
