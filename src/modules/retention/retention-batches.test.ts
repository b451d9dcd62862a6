import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { TEST_DB } from '../../../test/support/database.js';
import { RETENTION_BATCH, runRetention } from './run-retention.js';

const t = testAppForTests();

const ROWS = Number(process.env.RETENTION_ROWS ?? 3000);
const FILES = 200;
const SIZE = Number(process.env.RETENTION_BATCH_SIZE ?? RETENTION_BATCH[TEST_DB]);

/**
 * On PGlite every statement of the process waits for the one before it: a send stored while the
 * retention job runs waits for the batch in front of it. Measured here: how long a one-row message
 * insert (what a send stores first) takes, every few milliseconds, while the job removes a backlog.
 */
describe('retention batches', () => {
  it('keep a message insert made meanwhile waiting a few milliseconds at most', async () => {
    const ws = await t.workspace();
    const db = t.ctx.db;
    await db.query(`INSERT INTO contacts (workspace_id, id, phone) VALUES ($1, 'ct_r', '919800000001')`, [
      ws.id,
    ]);
    await db.query(
      `INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, text, content, status, status_rank, created_at)
       SELECT $1, 'msg_old' || g, CASE WHEN g % 2 = 0 THEN 'inbound' ELSE 'outbound' END, 'ct_r', '919800000001',
         'text', repeat('words ', 40), jsonb_build_object('body', repeat('x', 200)), 'read', 4,
         now() - interval '400 days' + g * interval '1 second'
       FROM generate_series(1, $2) g`,
      [ws.id, ROWS],
    );
    await db.query(
      `INSERT INTO automations (workspace_id, id, kind, name, trigger_type, trigger_event, draft, published_version)
       VALUES ($1, 'au_r', 'flow', 'r', 'event', 'signup', '{}', 1)`,
      [ws.id],
    );
    await db.query(
      `INSERT INTO automation_versions (workspace_id, automation_id, version, definition) VALUES ($1, 'au_r', 1, '{}')`,
      [ws.id],
    );
    await db.query(
      `INSERT INTO runs (workspace_id, id, automation_id, version, status, trigger_data, started_at, finished_at)
       SELECT $1, 'run_old' || g, 'au_r', 1, 'completed', jsonb_build_object('event', repeat('y', 200)),
         now() - interval '400 days', now() - interval '400 days' + g * interval '1 second'
       FROM generate_series(1, $2) g`,
      [ws.id, ROWS],
    );
    await db.query(
      `INSERT INTO run_steps (workspace_id, run_id, step_id, type, status, outcome)
       SELECT $1, 'run_old' || g, s, 'send_text', 'done', jsonb_build_object('message_id', 'msg' || g)
       FROM generate_series(1, $2) g, unnest(ARRAY['a', 'b', 'c']) s`,
      [ws.id, ROWS],
    );
    await db.query(
      `INSERT INTO webhook_deliveries (workspace_id, id, endpoint_id, event_type, event_key, payload, status, created_at)
       SELECT $1, 'wd_old' || g, 'we_1', 'message.status', 'k' || g, jsonb_build_object('data', repeat('z', 300)),
         'delivered', now() - interval '400 days' + g * interval '1 second'
       FROM generate_series(1, $2) g`,
      [ws.id, ROWS],
    );
    for (let i = 0; i < FILES; i++) {
      await t.ctx.media.put(`${ws.id}/me_old${i}`, Readable.from([Buffer.alloc(2048, i)]));
    }
    await db.query(
      `INSERT INTO media (workspace_id, id, direction, kind, mime_type, size, storage_key, state, created_at)
       SELECT $1, 'me_old' || g, 'inbound', 'image', 'image/jpeg', 2048, $1 || '/me_old' || g, 'stored',
         now() - interval '400 days'
       FROM generate_series(0, $2 - 1) g`,
      [ws.id, FILES],
    );

    const probe = async () => {
      const started = performance.now();
      await db.query(
        `INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, text, status, status_rank)
         VALUES ($1, $2, 'outbound', 'ct_r', '919800000001', 'text', 'hello', 'queued', 0)`,
        [ws.id, `msg_probe_${Math.random().toString(36).slice(2)}`],
      );
      return performance.now() - started;
    };
    const quiet: number[] = [];
    for (let i = 0; i < 200; i++) quiet.push(await probe());

    const waits: number[] = [];
    let running = true;
    const started = performance.now();
    // Each statement the job runs, timed: on PGlite the longest is the longest a send can wait.
    const statements: number[] = [];
    const byKind = new Map<string, number[]>();
    const timed = Object.create(db, {
      query: {
        value: async (text: string, params?: unknown[]) => {
          const at = performance.now();
          try {
            return await db.query(text, params);
          } finally {
            const ms = performance.now() - at;
            statements.push(ms);
            const kind = /FROM (messages|runs|webhook_deliveries|media)\b/.exec(text)?.[1] ?? 'other';
            byKind.set(kind, [...(byKind.get(kind) ?? []), ms]);
          }
        },
      },
    });
    const job = runRetention({ ...t.ctx, db: timed }, SIZE).finally(() => {
      running = false;
    });
    while (running) {
      waits.push(await probe());
      await new Promise((r) => setTimeout(r, 2));
    }
    const done = await job;
    const took = performance.now() - started;
    expect(done).toEqual({ message_content: ROWS, media: FILES, finished_runs: ROWS, delivery_logs: ROWS });

    const pct = (list: number[], p: number) =>
      [...list].sort((a, b) => a - b)[Math.floor((list.length - 1) * p)]!;
    const figures = {
      rows_per_kind: ROWS,
      batch: SIZE,
      statements: statements.length,
      statement_p50_ms: +pct(statements, 0.5).toFixed(2),
      statement_max_ms: +pct(statements, 1).toFixed(2),
      job_ms: Math.round(took),
      probes: waits.length,
      quiet_p50_ms: +pct(quiet, 0.5).toFixed(2),
      quiet_max_ms: +pct(quiet, 1).toFixed(2),
      during_p50_ms: +pct(waits, 0.5).toFixed(2),
      during_p99_ms: +pct(waits, 0.99).toFixed(2),
      during_max_ms: +pct(waits, 1).toFixed(2),
    };
    const kinds = Object.fromEntries(
      [...byKind].map(([k, list]) => [
        k,
        { n: list.length, p50: +pct(list, 0.5).toFixed(1), max: +pct(list, 1).toFixed(1) },
      ]),
    );
    console.log(`retention on ${TEST_DB}:`, JSON.stringify(figures), JSON.stringify(kinds));
    // The whole removal takes seconds; an insert made meanwhile waits for one batch, not for that.
    expect(waits.length).toBeGreaterThan(20);
    expect(figures.during_p99_ms).toBeLessThan(60);
  }, 300_000);
});
