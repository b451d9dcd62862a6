import { expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { recordPages } from '../../../test/support/statements.js';
import { leadRecords } from './export-leads.js';

const t = testAppForTests();

it('reads the leads a page of 1,000 at a time, each page only when the file has taken the last', async () => {
  const ws = await t.workspace();
  await t.ctx.db.query(
    `INSERT INTO leads (workspace_id, id, source, source_id, fields)
     SELECT $1, 'ld_' || lpad(g::text, 6, '0'), 'form', 'fm_x', '{}' FROM generate_series(1, 1500) AS g`,
    [ws.id],
  );
  const db = t.ctx.db;
  await recordPages(db, async (pages) => {
    const records = leadRecords(db, ws.id)[Symbol.asyncIterator]();
    expect((await records.next()).value[0]).toBe('ld_000001');
    for (let i = 1; i < 1000; i++) await records.next();
    expect(pages).toEqual([1000]);
    expect((await records.next()).value[0]).toBe('ld_001001');
    while (!(await records.next()).done);
    expect(pages).toEqual([1000, 500]);
  });
});
