import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DB, type TestDatabase } from '../../test/support/database.js';
import { FaultProxy } from '../../test/support/fault-proxy.js';
import { until } from '../../test/support/until.js';
import type { Db } from './db.js';
import { DatabaseUnreachableError } from './outage.js';
import { openPostgres } from './postgres.js';

// The pool's side of an outage; the server's (503s, /readyz, recovery) is in
// test/db-outage.postgres.test.ts.
describe.runIf(TEST_DB === 'postgres')('a PostgreSQL pool through a faulty network', () => {
  let database: TestDatabase;
  let proxy: FaultProxy;
  let db: Db;
  const lines: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    const url = new URL(database.url!);
    proxy = await FaultProxy.start({ host: url.hostname, port: Number(url.port || 5432) });
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    const log = {
      warn: (_: object, msg: string) => lines.push(msg),
      info: (_: object, msg: string) => lines.push(msg),
    };
    db = await openPostgres(url.toString(), 3, { log });
  });
  afterAll(async () => {
    await db?.close();
    await proxy?.close();
    await database?.drop();
  });

  it('lets a slow statement finish: the database answers the probe, so it is not an outage', async () => {
    const { rows } = await db.query('SELECT 1 AS n FROM pg_sleep(1.5)');
    expect(rows).toEqual([{ n: 1 }]);
    expect(lines).toEqual([]);
  });

  it('gives up on a slow statement within seconds when the network goes silent under it', async () => {
    const before = lines.length;
    const slow = db.query('SELECT 1 FROM pg_sleep(10)');
    slow.catch(() => {});
    // Past the first probe, which the database answered.
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    await proxy.set('blackhole');
    const started = Date.now();
    await expect(slow).rejects.toBeInstanceOf(DatabaseUnreachableError);
    // The next probe (a second on) waits 2 s for an answer: gone about 3 s after the silence began.
    expect(Date.now() - started).toBeLessThan(5_000);

    await proxy.set('forward');
    await until(
      () =>
        db.query('SELECT 1').then(
          () => true,
          () => false,
        ),
      5_000,
    );
    expect(lines.slice(before)).toEqual([
      'The database is unreachable: requests are answered 503 until it answers',
      'The database answers again',
    ]);
  });

  it('fails a transaction whose connection is cut, without ending the process, and works again after', async () => {
    const before = lines.length;
    let inside!: () => void;
    const entered = new Promise<void>((resolve) => (inside = resolve));
    const cut = db.transaction(async (tx) => {
      await tx.query('SELECT 1');
      inside();
      await tx.query('SELECT pg_sleep(5)');
    });
    await entered;
    await proxy.set('refuse');
    await expect(cut).rejects.toBeInstanceOf(DatabaseUnreachableError);
    await expect(db.query('SELECT 1')).rejects.toBeInstanceOf(DatabaseUnreachableError);

    await proxy.set('forward');
    await until(
      () =>
        db.query('SELECT 1').then(
          () => true,
          () => false,
        ),
      5_000,
    );
    expect(await db.transaction((tx) => tx.query('SELECT 2 AS n'))).toMatchObject({ rows: [{ n: 2 }] });
    expect(lines.slice(before)).toEqual([
      'The database is unreachable: requests are answered 503 until it answers',
      'The database answers again',
    ]);
  });
});
