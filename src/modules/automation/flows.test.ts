import { createServer, type IncomingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import { simHeaders, simState, simulatorAppForTests } from '../../../test/support/messaging.js';
import { until } from '../../../test/support/until.js';
import { setPlan } from '../workspaces/plans.js';
import { getRun, listRuns } from './list-runs.js';
import { runStep } from './run-step.js';
import { createAutomation, unpublishAutomation } from './save-automation.js';

const t = simulatorAppForTests({
  queue: true,
  env: { WEBHOOKS_ALLOW_PRIVATE: 'true' },
  statusDelaysMs: [-1, -1, -1],
});

const flow = (event: string, steps: unknown[], name = 'A flow') => ({
  name,
  trigger: { type: 'event', event },
  steps,
});
const publishedFlow = (workspaceId: string, event: string, steps: unknown[], name?: string) =>
  createAutomation(t.ctx, workspaceId, flow(event, steps, name), { publish: true });
const welcome = (id = 'hello', body = ['{{contact.name | "there"}}', '{{event.properties.plan}}']) => ({
  id,
  type: 'send_template',
  template: { name: 'welcome', language: 'en', body },
});

async function finished(workspaceId: string, automationId: string, count = 1) {
  return until(async () => {
    const runs = await listRuns(t.ctx, workspaceId, { automationId });
    return (
      runs.length >= count && runs.every((r) => r.status === 'completed' || r.status === 'failed') && runs
    );
  });
}

const sentTo = (phone: string) => simState(t).messages.filter((m) => m.to === phone);

describe('POST /events', () => {
  it('starts every published flow listening for the event, and no other', async () => {
    const ws = await t.connectedWorkspace();
    const a = await publishedFlow(ws.id, 'signup', [welcome()]);
    const b = await publishedFlow(ws.id, 'signup', [{ id: 't', type: 'add_tag', tag: 'b' }]);
    const draft = await createAutomation(
      t.ctx,
      ws.id,
      flow('signup', [{ id: 't', type: 'add_tag', tag: 'draft' }]),
    );
    const other = await publishedFlow(ws.id, 'purchase', [{ id: 't', type: 'add_tag', tag: 'x' }]);

    const res = await t.api('POST', '/events', ws.key, {
      phone: '98765 43210',
      event: 'signup',
      properties: { plan: 'growth' },
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ result: true, id: expect.stringMatching(/^ev_/), flows_started: 2 });

    const [runA] = await finished(ws.id, a.id);
    const [runB] = await finished(ws.id, b.id);
    expect(runA!.status).toBe('completed');
    expect(runB!.status).toBe('completed');
    expect(await listRuns(t.ctx, ws.id, { automationId: draft.id })).toEqual([]);
    expect(await listRuns(t.ctx, ws.id, { automationId: other.id })).toEqual([]);

    const [sent] = sentTo('919876543210');
    expect(sent!.payload).toMatchObject({
      template: { components: [{ parameters: [{ text: 'there' }, { text: 'growth' }] }] },
    });
    const contact = await t.ctx.db.query<{ tags: string[] }>(
      'SELECT tags FROM contacts WHERE workspace_id = $1',
      [ws.id],
    );
    expect(contact.rows[0]!.tags).toEqual(['b']);
  });

  it('answers flows_started 0 when nothing listens, and still stores the event and the contact', async () => {
    const ws = await t.workspace({ defaultCountryCode: '91' });
    const res = await t.api('POST', '/events', ws.key, { phone: '+14155552671', event: 'nobody-listens' });
    expect(res.statusCode).toBe(202);
    expect(res.json().flows_started).toBe(0);
    const { rows } = await t.ctx.db.query(
      'SELECT e.name FROM events e JOIN contacts c ON c.workspace_id = e.workspace_id AND c.id = e.contact_id WHERE e.workspace_id = $1 AND c.phone = $2',
      [ws.id, '14155552671'],
    );
    expect(rows).toEqual([{ name: 'nobody-listens' }]);
  });

  it('refuses bad bodies with 422 naming the field, and stores nothing', async () => {
    const ws = await t.workspace({ defaultCountryCode: null });
    const cases: [unknown, string][] = [
      [{ event: 'signup' }, 'phone'],
      [{ phone: '+14155552671' }, 'event'],
      [{ phone: '+14155552671', event: '' }, 'event'],
      [{ phone: '+14155552671', event: 'x', properties: { plan: 3 } }, 'properties.plan'],
      [{ phone: '+14155552671', event: 'x', properties: { nested: { a: 'b' } } }, 'properties.nested'],
      [{ phone: '+14155552671', event: 'x', properties: ['a'] }, 'properties'],
      [{ phone: '98765 43210', event: 'x' }, 'phone'],
      [{ phone: '+14155552671', event: 'x', extra: true }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const res = await t.api('POST', '/events', ws.key, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(JSON.stringify(res.json().error.details), JSON.stringify(body)).toContain(field);
    }
    const { rows } = await t.ctx.db.query('SELECT 1 FROM events WHERE workspace_id = $1', [ws.id]);
    expect(rows).toEqual([]);
  });

  it('answers hostile bodies with the error envelope, never a 500', async () => {
    const ws = await t.workspace({ defaultCountryCode: '91' });
    const raw = (payload: string, headers: Record<string, string> = {}) =>
      t.api('POST', '/events', ws.key, payload, { 'content-type': 'application/json', ...headers });
    expect((await raw('{"phone": "+14155552671", "event":')).statusCode).toBe(400);
    expect(
      (await raw(JSON.stringify({ phone: '+14155552671', event: 'x'.repeat(300_000) }))).statusCode,
    ).toBe(413);
    expect(
      (await raw('{"phone":"+14155552671","event":"x","properties":{"__proto__":{"a":"b"}}}')).statusCode,
    ).toBe(400);
    expect((await raw('{"phone":"+14155552671","event":"a\\u0000b"}')).statusCode).toBe(422);
    // A lone surrogate cannot go into jsonb; a pair (an emoji) can.
    expect((await raw('{"phone":"+14155552671","event":"x","properties":{"x\\udc00y":""}}')).statusCode).toBe(
      422,
    );
    expect((await raw('{"phone":"+14155552671","event":"x","properties":{"a":"\\ud800"}}')).statusCode).toBe(
      422,
    );
    expect((await raw(`${'['.repeat(5000)}${']'.repeat(5000)}`)).statusCode).toBe(422);
    expect((await raw('phone=1', { 'content-type': 'application/x-www-form-urlencoded' })).statusCode).toBe(
      415,
    );
    const { rows } = await t.ctx.db.query('SELECT 1 FROM events WHERE workspace_id = $1', [ws.id]);
    expect(rows).toEqual([]);
  });

  it('answers 402 when a new contact would pass the plan limit', async () => {
    await setPlan(t.ctx.db, 'tiny', { contacts: 1, monthlyLeads: 10, messagesPerMonth: 10 });
    const ws = await t.workspace({ plan: 'tiny' });
    expect((await t.api('POST', '/events', ws.key, { phone: '+14155552671', event: 'a' })).statusCode).toBe(
      202,
    );
    expect((await t.api('POST', '/events', ws.key, { phone: '+14155552671', event: 'b' })).statusCode).toBe(
      202,
    );
    const over = await t.api('POST', '/events', ws.key, { phone: '+14155552672', event: 'a' });
    expect(over.statusCode).toBe(402);
    expect(over.json().error.code).toBe('plan_limit_reached');
  });

  it('keeps tenants apart: an event starts only its own workspace flows', async () => {
    const mine = await t.connectedWorkspace();
    const theirs = await t.connectedWorkspace();
    const theirFlow = await publishedFlow(theirs.id, 'signup', [{ id: 't', type: 'add_tag', tag: 'x' }]);
    const res = await t.api('POST', '/events', mine.key, { phone: '+14155550000', event: 'signup' });
    expect(res.json().flows_started).toBe(0);
    expect(await listRuns(t.ctx, theirs.id, { automationId: theirFlow.id })).toEqual([]);
  });
});

describe('runs', () => {
  it('branches on conditions over the contact and the event', async () => {
    const ws = await t.connectedWorkspace();
    const f = await publishedFlow(ws.id, 'check', [
      {
        id: 'is-vip',
        type: 'condition',
        if: {
          all: [
            { field: 'contact.tags', op: 'contains', value: 'vip' },
            { field: 'event.properties.plan', op: 'equals', value: 'pro' },
          ],
        },
        if_true: 'vip',
        if_false: 'regular',
      },
      { id: 'vip', type: 'add_tag', tag: 'vip-path', next: null },
      { id: 'regular', type: 'set_trait', key: 'path', value: 'regular {{event.properties.plan}}' },
    ]);
    await t.api('POST', '/contacts', ws.key, { phone: '+14155551111', tags: ['vip'] });
    await t.api('POST', '/events', ws.key, {
      phone: '+14155551111',
      event: 'check',
      properties: { plan: 'pro' },
    });
    await t.api('POST', '/events', ws.key, {
      phone: '+14155552222',
      event: 'check',
      properties: { plan: 'pro' },
    });
    await finished(ws.id, f.id, 2);
    const { rows } = await t.ctx.db.query<{ phone: string; tags: string[]; traits: object }>(
      'SELECT phone, tags, traits FROM contacts WHERE workspace_id = $1 ORDER BY phone',
      [ws.id],
    );
    expect(rows).toEqual([
      { phone: '14155551111', tags: ['vip', 'vip-path'], traits: {} },
      { phone: '14155552222', tags: [], traits: { path: 'regular pro' } },
    ]);
    const run = (await listRuns(t.ctx, ws.id, { automationId: f.id })).find((r) => r.contact_id !== null)!;
    const detail = await getRun(t.ctx, ws.id, run.id);
    expect(detail!.steps.map((s) => [s.step_id, s.status])).toContainEqual(['is-vip', 'done']);
  });

  it('never sends free text outside the window: the step takes its "not sent" branch', async () => {
    const ws = await t.connectedWorkspace();
    const f = await publishedFlow(ws.id, 'nudge', [
      {
        id: 'text',
        type: 'send_text',
        text: 'Hi {{contact.name | "there"}}',
        not_sent: 'fallback',
        next: null,
      },
      welcome('fallback', ['friend', 'Parley']),
    ]);
    await t.api('POST', '/events', ws.key, { phone: '+14155553333', event: 'nudge' });
    const [run] = await finished(ws.id, f.id);
    const detail = await getRun(t.ctx, ws.id, run!.id);
    expect(detail!.steps.map((s) => [s.step_id, s.status, s.outcome.sent ?? null])).toEqual([
      ['text', 'skipped', false],
      ['fallback', 'done', null],
    ]);
    expect(sentTo('14155553333').map((m) => m.type)).toEqual(['template']);
  });

  it('sends free text inside the window', async () => {
    const ws = await t.connectedWorkspace();
    const f = await publishedFlow(ws.id, 'reply', [
      { id: 'text', type: 'send_text', text: 'Thanks {{contact.name}}!', not_sent: null },
    ]);
    await t.api('POST', '/contacts', ws.key, { phone: '+14155554444', name: 'Ravi' });
    const inbound = await fetch(`${t.base}/_sim/inbound`, {
      method: 'POST',
      headers: simHeaders,
      body: JSON.stringify({ from: '14155554444', text: 'hi', phone_number_id: ws.number.phoneNumberId }),
    });
    expect(((await inbound.json()) as { delivered_status: number }).delivered_status).toBe(200);
    await t.api('POST', '/events', ws.key, { phone: '+14155554444', event: 'reply' });
    await finished(ws.id, f.id);
    expect(sentTo('14155554444').map((m) => m.payload)).toMatchObject([{ text: { body: 'Thanks Ravi!' } }]);
  });

  it('fails the run with a clear error for a template the workspace does not have', async () => {
    const ws = await t.connectedWorkspace();
    const f = await publishedFlow(ws.id, 'oops', [
      { id: 'send', type: 'send_template', template: { name: 'gone', language: 'en' } },
    ]);
    await t.api('POST', '/events', ws.key, { phone: '+14155555555', event: 'oops' });
    const [run] = await finished(ws.id, f.id);
    expect(run!.status).toBe('failed');
    expect(run!.error).toMatch(/step "send": template_not_found/);
  });

  it('waits, then goes on; the run shows the wait until it ends', async () => {
    const ws = await t.connectedWorkspace();
    const f = await publishedFlow(ws.id, 'later', [
      { id: 'pause', type: 'wait', duration: '2s' },
      { id: 'tag', type: 'add_tag', tag: 'after-wait' },
    ]);
    await t.api('POST', '/events', ws.key, { phone: '+14155556666', event: 'later' });
    const waiting = await until(async () => {
      const [run] = await listRuns(t.ctx, ws.id, { automationId: f.id });
      return run?.status === 'waiting' && run;
    });
    const during = await getRun(t.ctx, ws.id, waiting.id);
    expect(during!.steps).toMatchObject([{ step_id: 'pause', status: 'waiting', next_step: 'tag' }]);
    const [done] = await finished(ws.id, f.id);
    const after = await getRun(t.ctx, ws.id, done!.id);
    expect(after!.steps.map((s) => s.status)).toEqual(['done', 'done']);
    expect(Date.parse(after!.finished_at!) - Date.parse(after!.started_at)).toBeGreaterThanOrEqual(1900);
  });

  it('holds a run whose last step is a wait until the wait ends', async () => {
    const ws = await t.connectedWorkspace();
    const f = await publishedFlow(ws.id, 'cooldown', [
      { id: 'tag', type: 'add_tag', tag: 'cooling' },
      { id: 'hold', type: 'wait', duration: '2s' },
    ]);
    await t.api('POST', '/events', ws.key, { phone: '+14155556060', event: 'cooldown' });
    const waiting = await until(async () => {
      const [run] = await listRuns(t.ctx, ws.id, { automationId: f.id });
      return run?.status === 'waiting' && run;
    });
    expect((await getRun(t.ctx, ws.id, waiting.id))!.steps.map((s) => s.status)).toEqual(['done', 'waiting']);
    const [done] = await finished(ws.id, f.id);
    expect(done!.status).toBe('completed');
    expect((await getRun(t.ctx, ws.id, done!.id))!.steps.map((s) => s.status)).toEqual(['done', 'done']);
    expect(Date.parse(done!.finished_at!) - Date.parse(done!.started_at)).toBeGreaterThanOrEqual(1900);
  });

  it('calls HTTP endpoints with the step idempotency key and retries a 5xx', async () => {
    const seen: { headers: IncomingHttpHeaders; body: string }[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ headers: req.headers, body });
        res.writeHead(seen.length === 1 ? 503 : 200).end('ok');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const port = (receiver.address() as { port: number }).port;
    try {
      const ws = await t.connectedWorkspace();
      const f = await publishedFlow(ws.id, 'crm', [
        {
          id: 'push',
          type: 'http_request',
          url: `http://127.0.0.1:${port}/hook?plan={{event.properties.plan}}`,
          headers: { 'X-Plan': '{{event.properties.plan}}' },
          body: '{"phone": "{{contact.phone}}"}',
        },
      ]);
      await t.api('POST', '/events', ws.key, {
        phone: '+14155557777',
        event: 'crm',
        properties: { plan: 'pro' },
      });
      const [run] = await until(async () => {
        const runs = await listRuns(t.ctx, ws.id, { automationId: f.id });
        return runs[0]?.status === 'completed' && runs;
      }, 30_000);
      expect(seen).toHaveLength(2);
      expect(new Set(seen.map((s) => s.headers['idempotency-key']))).toEqual(new Set([`${run!.id}/push`]));
      expect(seen[1]!.headers['x-plan']).toBe('pro');
      expect(JSON.parse(seen[1]!.body)).toEqual({ phone: '14155557777' });
    } finally {
      receiver.close();
    }
  });

  it('runs a step once however often its job is delivered', async () => {
    const ws = await t.connectedWorkspace();
    const f = await publishedFlow(ws.id, 'once', [welcome('send', ['A', 'B'])]);
    await t.api('POST', '/events', ws.key, { phone: '+14155558888', event: 'once' });
    const [run] = await finished(ws.id, f.id);
    // The queue delivers at least once: the same job again, and again with the step forced back to
    // "started" as if its worker had died after the send but before recording it.
    await runStep(t.ctx, { workspaceId: ws.id, runId: run!.id, stepId: 'send' }, false);
    await t.ctx.db.query("UPDATE runs SET status = 'running' WHERE workspace_id = $1 AND id = $2", [
      ws.id,
      run!.id,
    ]);
    await t.ctx.db.query("UPDATE run_steps SET status = 'started' WHERE workspace_id = $1 AND run_id = $2", [
      ws.id,
      run!.id,
    ]);
    await runStep(t.ctx, { workspaceId: ws.id, runId: run!.id, stepId: 'send' }, false);
    expect(sentTo('14155558888')).toHaveLength(1);
    const { rows } = await t.ctx.db.query('SELECT 1 FROM messages WHERE workspace_id = $1', [ws.id]);
    expect(rows).toHaveLength(1);
  });

  it('lets running runs finish after the flow is unpublished, and starts no new ones', async () => {
    const ws = await t.connectedWorkspace();
    const f = await publishedFlow(ws.id, 'drip', [
      { id: 'pause', type: 'wait', duration: '1s' },
      { id: 'tag', type: 'add_tag', tag: 'dripped' },
    ]);
    await t.api('POST', '/events', ws.key, { phone: '+14155559999', event: 'drip' });
    await until(async () => (await listRuns(t.ctx, ws.id, { automationId: f.id }))[0]?.status === 'waiting');
    await unpublishAutomation(t.ctx.db, ws.id, f.id);
    const again = await t.api('POST', '/events', ws.key, { phone: '+14155559999', event: 'drip' });
    expect(again.json().flows_started).toBe(0);
    const [run] = await finished(ws.id, f.id);
    expect(run!.status).toBe('completed');
    expect(await listRuns(t.ctx, ws.id, { automationId: f.id })).toHaveLength(1);
  });
});
