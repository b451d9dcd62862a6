import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { workspaceWithOwner } from '../../../test/support/app-session.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { fieldsNamed, hostilePageQueries } from '../../../test/support/hostile-pages.js';
import { encodeCursor } from '../../api/page-cursor.js';

// Jobs are queued, not run: a run stays as it started.
const t = testAppForTests({ queue: true, role: 'api' });

/** A published webhook sequence made through REST v1, and a way to start runs of it. */
async function sequence(key: string, name: string) {
  const res = await t.api('POST', '/automations', key, {
    name,
    trigger: { type: 'webhook' },
    steps: [{ id: 's', type: 'update_lead_status', status: 'contacted' }],
    published: true,
  });
  expect(res.statusCode, res.body).toBe(201);
  const { id, webhook } = res.json();
  const start = async () => {
    const intake = await t.app.inject({
      method: 'POST',
      url: new URL(webhook.url).pathname,
      payload: { email: `lead-${Math.random()}@example.com` },
    });
    expect(intake.statusCode, intake.body).toBe(202);
    return intake.json().run_id as string;
  };
  return { id, start };
}

const page = async (key: string, query: string) => {
  const res = await t.api('GET', `/runs?${query}`, key);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { runs: { id: string; automation_id: string }[]; next_cursor: string | null };
};

describe('GET /api/v1/runs', () => {
  it('lists runs newest first, filtered by automation and status', async () => {
    const { apiKey: key } = await workspaceWithOwner(t);
    const a = await sequence(key, 'A');
    const b = await sequence(key, 'B');
    const first = await a.start();
    const second = await b.start();
    const all = await page(key, '');
    expect(all.runs.map((r) => r.id)).toEqual([second, first]);
    expect(all.next_cursor).toBeNull();
    expect(all.runs[1]).toMatchObject({ automation_id: a.id, automation_name: 'A' });
    expect((await page(key, `automation_id=${a.id}`)).runs.map((r) => r.id)).toEqual([first]);
    const { status } = all.runs[0] as unknown as { status: string };
    expect((await page(key, `status=${status}`)).runs).toHaveLength(2);
    expect((await page(key, 'status=stopped')).runs).toEqual([]);
    expect((await page(key, 'automation_id=fl_nothing')).runs).toEqual([]);
    expectRestError(await t.api('GET', '/runs?status=done', key), 422, 'validation_error');
  });

  it('follows next_cursor over every run exactly once while new runs start between pages', async () => {
    const { apiKey: key } = await workspaceWithOwner(t);
    const s = await sequence(key, 'Walk');
    const before: string[] = [];
    for (let i = 0; i < 5; i++) before.push(await s.start());
    const seen: string[] = [];
    let next = await page(key, 'limit=2');
    seen.push(...next.runs.map((r) => r.id));
    await s.start();
    while (next.next_cursor) {
      await s.start();
      next = await page(key, `limit=2&cursor=${next.next_cursor}`);
      seen.push(...next.runs.map((r) => r.id));
    }
    expect(seen).toEqual([...before].reverse());
  });

  it.each([
    ...hostilePageQueries('run'),
    [`cursor=${encodeCursor({ micros: '1', id: 'run_x' }).slice(0, 5)}`, 'cursor'],
  ])('refuses ?%s with 422 at %s', async (query, field) => {
    const { apiKey: key } = await workspaceWithOwner(t);
    const res = await t.api('GET', `/runs?${query}`, key);
    expectRestError(res, 422, 'validation_error');
    expect(fieldsNamed(res)).toEqual([field]);
  });
});

describe('GET /api/v1/runs/{id}', () => {
  it('answers a run with its steps and definition; another workspace gets 404', async () => {
    const { apiKey: key } = await workspaceWithOwner(t);
    const other = await workspaceWithOwner(t);
    const s = await sequence(key, 'One');
    const runId = await s.start();
    const res = await t.api('GET', `/runs/${runId}`, key);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().run).toMatchObject({
      id: runId,
      automation_id: s.id,
      steps: expect.any(Array),
      definition: { name: 'One', trigger: { type: 'webhook' } },
    });
    expectRestError(await t.api('GET', `/runs/${runId}`, other.apiKey), 404, 'not_found');
    expectRestError(await t.api('GET', '/runs/run_nothing', key), 404, 'not_found');
  });
});
