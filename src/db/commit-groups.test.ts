import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/database.js';
import { CommitGroups } from './commit-groups.js';

describe('commit groups', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    await database.db.exec('CREATE TABLE grouped (id int PRIMARY KEY, at bigint NOT NULL)');
  });
  afterAll(async () => {
    await database?.drop();
  });

  const insert = (groups: CommitGroups, id: number) =>
    groups.query<{ tx: string }>(
      'INSERT INTO grouped (id, at) VALUES ($1, txid_current()) RETURNING txid_current()::text AS tx',
      [id],
    );

  it('commits statements that arrive together in fewer transactions, each answered with its own rows', async () => {
    const groups = new CommitGroups(database.db);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => insert(groups, i + 1)));
    const transactions = new Set(answers.map((a) => a.rows[0]!.tx));
    // The first goes at once, alone; those arriving while groups commit wait and go together.
    expect(transactions.size).toBeLessThan(10);
    const { rows } = await database.db.query<{ n: number }>('SELECT count(*)::int AS n FROM grouped');
    expect(rows[0]!.n).toBe(40);
  });

  it('fails only the statement that fails: the rest of its group is committed', async () => {
    const groups = new CommitGroups(database.db);
    // The first four go at once, one group each (GROUPS_AT_ONCE); the rest wait and go as one group.
    const ids = [101, 102, 103, 104, 105, 106, 1, 107, 108];
    // 1 is taken by the test before: its insert fails, the others go in.
    const answers = await Promise.allSettled(ids.map((id) => insert(groups, id)));
    expect(answers.map((a) => a.status)).toEqual(ids.map((id) => (id === 1 ? 'rejected' : 'fulfilled')));
    const { rows } = await database.db.query<{ id: number }>(
      'SELECT id FROM grouped WHERE id > 100 ORDER BY id',
    );
    expect(rows.map((r) => r.id)).toEqual([101, 102, 103, 104, 105, 106, 107, 108]);
  });
});
