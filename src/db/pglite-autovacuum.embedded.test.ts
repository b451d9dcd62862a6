import { expect, it } from 'vitest';
import { openPglite } from './pglite.js';
import { pgliteAutovacuum } from './pglite-autovacuum.js';

it('analyzes a table that changed, so the planner walks the index instead of sorting', async () => {
  const db = await openPglite(undefined);
  await db.exec(`CREATE TABLE items (owner text, at timestamptz, id text);
    CREATE INDEX items_listing ON items (owner, at, id);`);
  for (let i = 0; i < 3000; i++) await db.query('INSERT INTO items VALUES ($1, now(), $2)', ['o', `i${i}`]);
  const plan = async () =>
    (
      await db.query<{ 'QUERY PLAN': string }>(
        "EXPLAIN SELECT * FROM items WHERE owner = 'o' ORDER BY at, id LIMIT 50",
      )
    ).rows
      .map((r) => r['QUERY PLAN'])
      .join('\n');
  expect(await plan()).toMatch(/Sort/);
  const first = await pgliteAutovacuum(db);
  expect(first.analyzed).toContain('"public"."items"');
  expect(await plan()).not.toMatch(/Sort/);
  expect((await pgliteAutovacuum(db)).analyzed).not.toContain('"public"."items"');

  await db.query("DELETE FROM items WHERE id LIKE 'i1%'");
  expect((await pgliteAutovacuum(db)).vacuumed).toContain('"public"."items"');
  await db.close();
});
