import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { MemoryRateLimiter } from '../rate-limit/memory-limiter.js';

// Jobs are queued, not run: a run started here stays as it started.
const t = testAppForTests({ queue: true, role: 'api' });

const flow = (name = 'Tag on signup') => ({
  name,
  trigger: { type: 'event', event: 'signup' },
  steps: [{ id: 'tag', type: 'add_tag', tag: 'signed-up' }],
});
const webhookSequence = {
  name: 'CRM leads',
  trigger: { type: 'webhook' },
  steps: [{ id: 's', type: 'update_lead_status', status: 'contacted' }],
};

async function created(key: string, body: unknown) {
  const res = await t.api('POST', '/automations', key, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const one = async (key: string, id: string) => {
  const res = await t.api('GET', `/automations/${id}`, key);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().automation;
};

const audit = async (workspaceId: string, id: string) =>
  (
    await t.ctx.db.query<{ action: string; actor_type: string }>(
      'SELECT action, actor_type FROM audit_log WHERE workspace_id = $1 AND entity_id = $2 ORDER BY id',
      [workspaceId, id],
    )
  ).rows;

describe('POST /api/v1/automations', () => {
  it('creates a draft flow by default and a published one when asked', async () => {
    const ws = await t.workspace();
    const draft = await created(ws.key, flow());
    expect(draft).toEqual({
      result: true,
      id: expect.stringMatching(/^fl_/),
      kind: 'flow',
      published: false,
    });
    expect(await one(ws.key, draft.id)).toMatchObject({
      status: 'draft',
      published: false,
      published_version: null,
      draft_version: 1,
      draft: flow(),
      published_definition: null,
      versions: [],
    });
    const live = await created(ws.key, { ...flow('Live'), published: true });
    expect(live).toMatchObject({ kind: 'flow', published: true });
    expect(await one(ws.key, live.id)).toMatchObject({
      status: 'published',
      published: true,
      published_version: 1,
      published_definition: flow('Live'),
      versions: [{ version: 1, published_at: expect.any(String) }],
    });
    expect(await audit(ws.id, live.id)).toEqual([
      { action: 'create', actor_type: 'api_key' },
      { action: 'publish', actor_type: 'api_key' },
    ]);
  });

  it.each([
    ['an event', { type: 'event', event: 'x' }, 'flow'],
    ['a webhook', { type: 'webhook' }, 'sequence'],
    ['a form', { type: 'form_submitted' }, 'sequence'],
    ['a new lead', { type: 'lead_created' }, 'sequence'],
  ])('makes the kind from the trigger: %s starts a %s', async (_name, trigger, kind) => {
    const ws = await t.workspace();
    const steps =
      kind === 'flow' ? flow().steps : [{ id: 's', type: 'update_lead_status', status: 'contacted' }];
    const res = await created(ws.key, { name: 'K', trigger, steps });
    expect(res.kind).toBe(kind);
    expect(res.id).toMatch(kind === 'flow' ? /^fl_/ : /^sq_/);
  });

  it("answers a webhook sequence's URL and secret once, and they take leads", async () => {
    const ws = await t.workspace();
    const res = await created(ws.key, { ...webhookSequence, published: true });
    expect(res.webhook).toEqual({
      url: `http://parley.test/api/automation/webhooks/${res.id}/${res.webhook.secret}`,
      url_without_secret: `http://parley.test/api/automation/webhooks/${res.id}`,
      secret: expect.stringMatching(/^whsec_/),
    });
    for (const who of ['ann', 'bo']) {
      const lead = await t.app.inject({
        method: 'POST',
        url: new URL(res.webhook.url).pathname,
        payload: { name: who, email: `${who}@example.com` },
      });
      expect(lead.statusCode, lead.body).toBe(202);
    }
    const got = await one(ws.key, res.id);
    expect(got.webhook).toEqual({ url_without_secret: res.webhook.url_without_secret });
    expect(JSON.stringify(got)).not.toContain(res.webhook.secret);
    expect(got.runs).toEqual({
      total: 2,
      running: 2,
      waiting: 0,
      completed: 0,
      failed: 0,
      stopped: 0,
      last_run_at: expect.any(String),
    });
    const listed = (await t.api('GET', '/automations', ws.key)).json();
    expect(JSON.stringify(listed)).not.toContain(res.webhook.secret);
  });

  it('names each problem of the definition at its field, in plain words', async () => {
    const ws = await t.workspace();
    const res = await t.api('POST', '/automations', ws.key, {
      name: 'Loop',
      trigger: { type: 'event', event: 'x' },
      steps: [
        { id: 'a', type: 'add_tag', tag: 't', next: 'b' },
        { id: 'b', type: 'add_tag', tag: 't', next: 'nowhere' },
      ],
    });
    expectRestError(res, 422, 'validation_error');
    expect(res.json().error.details).toEqual([
      { field: 'steps.1.next', message: 'No step has the id "nowhere": pick one that exists.' },
    ]);
    const unknown = await t.api('POST', '/automations', ws.key, {
      ...flow(),
      steps: [{ id: 'a', type: 'nuke' }],
    });
    expectRestError(unknown, 422, 'validation_error');
    expect(unknown.json().error.details.map((d: { field: string }) => d.field)).toEqual(['steps.0.type']);
    const stray = await t.api('POST', '/automations', ws.key, { ...flow(), colour: 'red' });
    expect(stray.json().error.details.map((d: { field: string }) => d.field)).toEqual(['colour']);
    const published = await t.api('POST', '/automations', ws.key, { ...flow(), published: 'yes' });
    expect(published.json().error.details.map((d: { field: string }) => d.field)).toEqual(['published']);
    expect((await t.api('GET', '/automations?status=archived', ws.key)).json().automations).toEqual([]);
    expect((await t.api('GET', '/automations', ws.key)).json().automations).toEqual([]);
  });

  it.each([
    ['a JSON array', '[1,2]', 422],
    ['JSON null', 'null', 422],
    ['a string', '"flow"', 422],
    ['no name', JSON.stringify({ trigger: { type: 'webhook' }, steps: [] }), 422],
    ['steps as an object', JSON.stringify({ ...flow(), steps: { a: 1 } }), 422],
    ['a trigger of no known type', JSON.stringify({ ...flow(), trigger: { type: 'cron' } }), 422],
    [
      '101 steps',
      JSON.stringify({
        ...flow(),
        steps: Array.from({ length: 101 }, (_, i) => ({ id: `s${i}`, type: 'add_tag', tag: 't' })),
      }),
      422,
    ],
    ['a NUL in the name', JSON.stringify({ ...flow('a\u0000b') }), 422],
    ['a line break in the name', JSON.stringify({ ...flow('a\nb') }), 422],
    [
      'a lone surrogate in a tag',
      JSON.stringify({ ...flow(), steps: [{ id: 'a', type: 'add_tag', tag: '\ud800' }] }),
      422,
    ],
    ['a __proto__ key', '{"name":"x","trigger":{"type":"webhook"},"steps":[],"__proto__":{"a":1}}', 400],
    ['broken JSON', '{"name":', 400],
    [
      'JSON nested 10,000 deep',
      `{"name":"x","trigger":{"type":"webhook"},"steps":[${'['.repeat(10_000)}${']'.repeat(10_000)}]}`,
      null,
    ],
  ])('refuses %s with a 4xx, never a 500', async (_name, payload, status) => {
    const ws = await t.workspace();
    const res = await t.api('POST', '/automations', ws.key, payload, { 'content-type': 'application/json' });
    if (status) expectRestError(res, status);
    else expect(res.statusCode).toBeGreaterThanOrEqual(400);
    // What people read is never the validator's own wording.
    expect(res.body).not.toMatch(/must |schema|anyOf|NOT have|should /);
    expect(res.statusCode).toBeLessThan(500);
    expect((await t.ctx.db.query('SELECT 1 FROM automations WHERE workspace_id = $1', [ws.id])).rows).toEqual(
      [],
    );
  });

  it('refuses a body over 256 KiB with 413', async () => {
    const ws = await t.workspace();
    const res = await t.api('POST', '/automations', ws.key, { ...flow(), name: 'x'.repeat(300 * 1024) });
    expectRestError(res, 413, 'payload_too_large');
  });

  it('keeps SQL and markup in names and steps as text', async () => {
    const ws = await t.workspace();
    const name = "Robert'); DROP TABLE automations; -- <b>🙂</b>";
    const res = await created(ws.key, {
      ...flow(name),
      steps: [{ id: 'x', type: 'add_tag', tag: "<script>'--" }],
    });
    expect(await one(ws.key, res.id)).toMatchObject({
      name,
      draft: { steps: [{ id: 'x', tag: "<script>'--" }] },
    });
  });

  it('honours Idempotency-Key: the same request once, another body refused', async () => {
    const ws = await t.workspace();
    const headers = { 'idempotency-key': 'create-welcome-1' };
    const first = await t.api(
      'POST',
      '/automations',
      ws.key,
      { ...webhookSequence, published: true },
      headers,
    );
    expect(first.statusCode).toBe(201);
    const again = await t.api(
      'POST',
      '/automations',
      ws.key,
      { ...webhookSequence, published: true },
      headers,
    );
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const other = await t.api('POST', '/automations', ws.key, flow(), headers);
    expect(other.statusCode).toBe(422);
    expect(other.json().error.code).toBe('idempotency_key_reused');
    const { rows } = await t.ctx.db.query('SELECT id FROM automations WHERE workspace_id = $1', [ws.id]);
    expect(rows).toEqual([{ id: first.json().id }]);
  });
});

describe('GET /api/v1/automations', () => {
  it('pages newest first by cursor, each page after the last, and filters by status', async () => {
    const ws = await t.workspace();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await created(ws.key, { ...flow(`F${i}`), published: i % 2 === 0 })).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await t.api('GET', `/automations?limit=2${cursor ? `&cursor=${cursor}` : ''}`, ws.key);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json();
      expect(page.automations.length).toBeLessThanOrEqual(2);
      seen.push(...page.automations.map((a: { id: string }) => a.id));
      cursor = page.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());

    const all = (await t.api('GET', '/automations', ws.key)).json();
    expect(all.next_cursor).toBeNull();
    expect(all.automations[0]).toEqual({
      id: ids[4],
      name: 'F4',
      kind: 'flow',
      trigger: { type: 'event', event: 'signup' },
      status: 'published',
      published: true,
      published_version: 1,
      draft_version: 1,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const published = (await t.api('GET', '/automations?status=published', ws.key)).json().automations;
    expect(published.map((a: { id: string }) => a.id)).toEqual([ids[4], ids[2], ids[0]]);
    const drafts = (await t.api('GET', '/automations?status=draft', ws.key)).json().automations;
    expect(drafts.map((a: { id: string }) => a.id)).toEqual([ids[3], ids[1]]);

    expect((await t.api('DELETE', `/automations/${ids[2]}`, ws.key)).statusCode).toBe(204);
    const left = (await t.api('GET', '/automations', ws.key)).json().automations;
    expect(left.map((a: { id: string }) => a.id)).not.toContain(ids[2]);
    const archived = (await t.api('GET', '/automations?status=archived', ws.key)).json().automations;
    expect(archived).toEqual([expect.objectContaining({ id: ids[2], status: 'archived', published: false })]);
  });

  it.each([
    'limit=0',
    'limit=201',
    'limit=abc',
    'status=live',
    'cursor=',
    'cursor=abc',
    `cursor=${Buffer.from('[1,"x"]').toString('base64url')}`,
    `cursor=${Buffer.from('["99999999999999999999","x"]').toString('base64url')}`,
    `cursor=${Buffer.from('["1","x\'; --"]').toString('base64url')}`,
    `cursor=${'a'.repeat(600)}`,
    'cursor=%00',
  ])('refuses %s with 422', async (query) => {
    const ws = await t.workspace();
    expectRestError(await t.api('GET', `/automations?${query}`, ws.key), 422, 'validation_error');
  });
});

describe('PATCH /api/v1/automations/{id}', () => {
  it('makes a new version, publishes it, unpublishes, and answers as GET does', async () => {
    const ws = await t.workspace();
    const { id } = await created(ws.key, { ...flow(), published: true });
    const steps = [...flow().steps, { id: 'later', type: 'wait', duration: '1h' }];

    const edited = await t.api('PATCH', `/automations/${id}`, ws.key, { name: 'Renamed', steps });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toEqual({ result: true, automation: await one(ws.key, id) });
    expect(edited.json().automation).toMatchObject({
      name: 'Renamed',
      status: 'published',
      draft_version: 2,
      published_version: 1,
      unpublished_changes: true,
      draft: { name: 'Renamed', trigger: flow().trigger, steps },
      published_definition: flow(),
    });

    // The same definition again is no new version.
    const same = await t.api('PATCH', `/automations/${id}`, ws.key, { name: 'Renamed' });
    expect(same.json().automation.draft_version).toBe(2);

    const published = await t.api('PATCH', `/automations/${id}`, ws.key, { published: true });
    expect(published.json().automation).toMatchObject({
      published_version: 2,
      unpublished_changes: false,
      published_definition: { name: 'Renamed', steps },
      versions: [{ version: 2 }, { version: 1 }],
    });

    const both = await t.api('PATCH', `/automations/${id}`, ws.key, { name: 'Third', published: true });
    expect(both.json().automation).toMatchObject({ draft_version: 3, published_version: 3, name: 'Third' });

    const off = await t.api('PATCH', `/automations/${id}`, ws.key, { published: false });
    expect(off.json().automation).toMatchObject({
      status: 'draft',
      published: false,
      published_version: null,
    });
    const offAgain = await t.api('PATCH', `/automations/${id}`, ws.key, { published: false });
    expect(offAgain.statusCode).toBe(200);

    expect((await audit(ws.id, id)).map((a) => a.action)).toEqual([
      'create',
      'publish',
      'update',
      'publish',
      'update',
      'publish',
      'unpublish',
    ]);
  });

  it('keeps the kind, and names the problems of the merged definition at their fields', async () => {
    const ws = await t.workspace();
    const { id } = await created(ws.key, flow());
    const kind = await t.api('PATCH', `/automations/${id}`, ws.key, { trigger: { type: 'webhook' } });
    expectRestError(kind, 422, 'validation_error');
    expect(kind.json().error.details).toEqual([
      { field: 'trigger', message: 'a flow keeps its kind: its trigger cannot become a sequence trigger' },
    ]);
    const bad = await t.api('PATCH', `/automations/${id}`, ws.key, { steps: [{ id: 'a', type: 'add_tag' }] });
    expect(bad.json().error.details.map((d: { field: string }) => d.field)).toEqual(['steps.0.tag']);
    for (const body of [{}, { published: 'yes' }, { name: '' }, { name: 'a\nb' }, { colour: 'red' }, [], 'x'])
      expect(
        (
          await t.api('PATCH', `/automations/${id}`, ws.key, JSON.stringify(body), {
            'content-type': 'application/json',
          })
        ).statusCode,
      ).toBe(422);
    // An unknown field nested 20,000 deep: refused, not a 500 from copying it.
    const deep = `{"a":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}`;
    const res = await t.api('PATCH', `/automations/${id}`, ws.key, deep, {
      'content-type': 'application/json',
    });
    expectRestError(res, 422, 'validation_error');
    expect(res.json().error.details).toEqual([{ field: 'a', message: expect.any(String) }]);
    expect((await one(ws.key, id)).draft_version).toBe(1);
  });

  it('refuses to change an archived one with 409, and answers 404 for an id of no automation', async () => {
    const ws = await t.workspace();
    const { id } = await created(ws.key, flow());
    expect((await t.api('DELETE', `/automations/${id}`, ws.key)).statusCode).toBe(204);
    for (const body of [{ name: 'x' }, { published: true }, { published: false }])
      expectRestError(await t.api('PATCH', `/automations/${id}`, ws.key, body), 409, 'conflict');
    expectRestError(await t.api('PATCH', '/automations/fl_nothing', ws.key, { name: 'x' }), 404, 'not_found');
  });
});

describe('DELETE /api/v1/automations/{id}', () => {
  it('archives and unpublishes, twice as once', async () => {
    const ws = await t.workspace();
    const { id } = await created(ws.key, { ...flow(), published: true });
    const res = await t.api('DELETE', `/automations/${id}`, ws.key);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const archived = await one(ws.key, id);
    expect(archived).toMatchObject({ status: 'archived', published: false, published_version: null });
    expect((await t.api('DELETE', `/automations/${id}`, ws.key)).statusCode).toBe(204);
    expect((await one(ws.key, id)).archived_at).toBe(archived.archived_at);
  });
});

describe('POST /api/v1/automations/{id}/restore', () => {
  it('brings an archived one back unpublished, answered as GET does, audited as the key', async () => {
    const ws = await t.workspace();
    const { id } = await created(ws.key, { ...flow(), published: true });
    expect((await t.api('DELETE', `/automations/${id}`, ws.key)).statusCode).toBe(204);
    const res = await t.api('POST', `/automations/${id}/restore`, ws.key);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ result: true, automation: await one(ws.key, id) });
    expect(res.json().automation).toMatchObject({ status: 'draft', archived_at: null, published: false });
    const listed = (await t.api('GET', '/automations', ws.key)).json().automations;
    expect(listed.map((a: { id: string }) => a.id)).toEqual([id]);
    // Restored, it changes again and publishes, which an archived one refuses.
    const published = await t.api('PATCH', `/automations/${id}`, ws.key, { published: true });
    expect(published.statusCode, published.body).toBe(200);
    expect((await audit(ws.id, id)).map((a) => [a.action, a.actor_type])).toEqual([
      ['create', 'api_key'],
      ['publish', 'api_key'],
      ['archive', 'api_key'],
      ['restore', 'api_key'],
      ['publish', 'api_key'],
    ]);
  });

  it('changes nothing for one not archived, and answers 404 for no automation or a too-long id', async () => {
    const ws = await t.workspace();
    const { id } = await created(ws.key, { ...flow(), published: true });
    const before = await one(ws.key, id);
    const res = await t.api('POST', `/automations/${id}/restore`, ws.key);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().automation).toMatchObject({ status: 'published', published: true });
    expect({ ...res.json().automation, updated_at: before.updated_at }).toEqual(before);
    expectRestError(await t.api('POST', '/automations/fl_nothing/restore', ws.key), 404, 'not_found');
    expectRestError(
      await t.api('POST', `/automations/${'x'.repeat(65)}/restore`, ws.key),
      422,
      'validation_error',
    );
  });
});

describe('POST /api/v1/automations/{id}/rotate-secret', () => {
  it('answers a new secret once; the old one stops taking leads, the new one takes them', async () => {
    const ws = await t.workspace();
    const first = await created(ws.key, { ...webhookSequence, published: true });
    const res = await t.api('POST', `/automations/${first.id}/rotate-secret`, ws.key);
    expect(res.statusCode, res.body).toBe(200);
    const { webhook } = res.json();
    expect(res.json()).toEqual({
      result: true,
      webhook: {
        url: `http://parley.test/api/automation/webhooks/${first.id}/${webhook.secret}`,
        url_without_secret: `http://parley.test/api/automation/webhooks/${first.id}`,
        secret: expect.stringMatching(/^whsec_/),
      },
    });
    expect(webhook.secret).not.toBe(first.webhook.secret);
    const post = (url: string) =>
      t.app.inject({ method: 'POST', url: new URL(url).pathname, payload: { email: 'ann@example.com' } });
    expect((await post(first.webhook.url)).statusCode).toBe(401);
    expect((await post(webhook.url)).statusCode).toBe(202);
    // Shown once: GET and the audit log never hold it.
    expect(JSON.stringify(await one(ws.key, first.id))).not.toContain(webhook.secret);
    const { rows } = await t.ctx.db.query(
      `SELECT action, actor_type, changes FROM audit_log WHERE workspace_id = $1 AND entity_id = $2 AND action = 'update'`,
      [ws.id, first.id],
    );
    expect(rows).toEqual([{ action: 'update', actor_type: 'api_key', changes: { fields: ['secret'] } }]);
  });

  it('refuses a flow with 409 and no automation with 404, changing nothing', async () => {
    const ws = await t.workspace();
    const { id } = await created(ws.key, flow());
    const before = await one(ws.key, id);
    expectRestError(await t.api('POST', `/automations/${id}/rotate-secret`, ws.key), 409, 'conflict');
    expect(await one(ws.key, id)).toEqual(before);
    expect((await audit(ws.id, id)).map((a) => a.action)).toEqual(['create']);
    expectRestError(await t.api('POST', '/automations/sq_nothing/rotate-secret', ws.key), 404, 'not_found');
  });
});

describe("another workspace's key", () => {
  it('gets 404 on every id route and changes nothing', async () => {
    const a = await t.workspace();
    const b = await t.workspace();
    const { id } = await created(a.key, { ...flow(), published: true });
    const before = await one(a.key, id);
    expectRestError(await t.api('GET', `/automations/${id}`, b.key), 404, 'not_found');
    for (const body of [
      { name: 'Of B' },
      { published: false },
      { steps: [{ id: 'x', type: 'add_tag', tag: 'b' }] },
    ])
      expectRestError(await t.api('PATCH', `/automations/${id}`, b.key, body), 404, 'not_found');
    expectRestError(await t.api('DELETE', `/automations/${id}`, b.key), 404, 'not_found');
    for (const action of ['restore', 'rotate-secret'])
      expectRestError(await t.api('POST', `/automations/${id}/${action}`, b.key), 404, 'not_found');
    expect((await t.api('GET', '/automations', b.key)).json().automations).toEqual([]);
    expect(await one(a.key, id)).toEqual(before);
  });
});

describe('the per-key rate limit', () => {
  const limited = testAppForTests({ limiter: new MemoryRateLimiter(2, 60_000) });

  it('counts these routes too: past it, 429 with Retry-After, and nothing is created', async () => {
    const ws = await limited.workspace();
    expect((await limited.api('GET', '/automations', ws.key)).statusCode).toBe(200);
    expect((await limited.api('GET', '/automations', ws.key)).statusCode).toBe(200);
    const refused = await limited.api('POST', '/automations', ws.key, flow());
    expectRestError(refused, 429, 'rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await limited.ctx.db.query('SELECT 1 FROM automations')).rows).toEqual([]);
  });
});
