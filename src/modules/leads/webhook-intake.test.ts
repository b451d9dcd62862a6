import { createHmac } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { expectIntakeError, freshAddress, leadsOf } from '../../../test/support/intake.js';
import { until } from '../../../test/support/until.js';
import { rotateSequenceSecret } from '../automation/intake.js';
import { createAutomation } from '../automation/save-automation.js';
import { createEndpoint } from '../webhooks/endpoints.js';
import { setPlan } from '../workspaces/plans.js';
import { forgetSeenBodies } from './replay-guard.js';

const t = testAppForTests({ queue: true, env: { WEBHOOKS_ALLOW_PRIVATE: 'true' } });

// A run that waits a day stays "waiting", so a second enrolment of its lead meets it.
const WAIT = [
  { id: 'wait', type: 'wait', duration: '1d' },
  { id: 'after', type: 'update_lead_status', status: 'contacted' },
];

async function webhookSequence(options: { plan?: string; steps?: unknown[]; publish?: boolean } = {}) {
  const ws = await t.workspace({ defaultCountryCode: '91', plan: options.plan ?? 'growth' });
  const seq = await createAutomation(
    t.ctx,
    ws.id,
    { name: 'From Zapier', trigger: { type: 'webhook' }, steps: options.steps ?? WAIT },
    { publish: options.publish ?? true },
  );
  return { ws, id: seq.id, secret: seq.secret! };
}

function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url,
    // Each post from its own address, so the per-address limits stay out of the way.
    remoteAddress: freshAddress(),
    headers: { 'content-type': 'application/json', ...headers },
    payload: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
  });
}
const sign = (raw: string, secret: string) =>
  `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
const runsOf = async (workspaceId: string) =>
  (
    await t.ctx.db.query<{ id: string; lead_id: string; automation_id: string }>(
      'SELECT id, lead_id, automation_id FROM runs WHERE workspace_id = $1 ORDER BY started_at',
      [workspaceId],
    )
  ).rows;

function expectStarted(res: LightMyRequestResponse) {
  expect(res.statusCode, res.body).toBe(202);
  expect(res.json()).toEqual({
    success: true,
    lead_id: expect.stringMatching(/^ld_/),
    run_id: expect.stringMatching(/^run_/),
  });
  return res.json() as { lead_id: string; run_id: string };
}

describe('POST /api/automation/webhooks/{sequenceId}/{secret}', () => {
  it('creates the lead from full_name and mobile, keeps the entire body, and enrols it: 202', async () => {
    const s = await webhookSequence();
    const body = { full_name: 'Meera', mobile: '98765 43210', campaign: { id: 7, tags: ['x'] }, score: 9.5 };
    const started = expectStarted(await post(`/api/automation/webhooks/${s.id}/${s.secret}`, body));
    const [lead] = await leadsOf(t, s.ws.id);
    expect(lead).toMatchObject({
      id: started.lead_id,
      name: 'Meera',
      phone: '919876543210',
      email: null,
      source: 'webhook',
      source_id: s.id,
      status: 'new',
      fields: body,
    });
    expect(lead!.contact_id).toMatch(/^ct_/);
    expect(await runsOf(s.ws.id)).toEqual([
      { id: started.run_id, lead_id: started.lead_id, automation_id: s.id },
    ]);
  });

  it('takes name, email and phone too, and gives the steps the lead (update lead status)', async () => {
    const s = await webhookSequence({
      steps: [{ id: 'qualify', type: 'update_lead_status', status: 'qualified' }],
    });
    const started = expectStarted(
      await post(`/api/automation/webhooks/${s.id}/${s.secret}`, { name: 'Ana', email: 'ana@example.com' }),
    );
    await until(async () => {
      const { rows } = await t.ctx.db.query<{ status: string }>(
        'SELECT status FROM leads WHERE workspace_id = $1 AND id = $2',
        [s.ws.id, started.lead_id],
      );
      return rows[0]?.status === 'qualified';
    });
  });

  it('answers 401 for a wrong secret, compared whatever its length, and stores nothing', async () => {
    const s = await webhookSequence();
    for (const secret of ['x', s.secret.slice(0, -1), `${s.secret}x`, 'a'.repeat(150)]) {
      expectIntakeError(
        await post(`/api/automation/webhooks/${s.id}/${secret}`, { email: 'a@example.com' }),
        401,
      );
    }
    expect(await leadsOf(t, s.ws.id)).toEqual([]);
  });

  it('answers 404 for an unknown sequence, a sequence not started by a webhook, a draft and a flow', async () => {
    const s = await webhookSequence();
    const draft = await webhookSequence({ publish: false });
    const created = await createAutomation(
      t.ctx,
      s.ws.id,
      { name: 'New leads', trigger: { type: 'lead_created' }, steps: WAIT },
      { publish: true },
    );
    const flow = await createAutomation(
      t.ctx,
      s.ws.id,
      { name: 'Signup', trigger: { type: 'event', event: 'signup' }, steps: WAIT },
      { publish: true },
    );
    const body = { email: 'a@example.com' };
    expectIntakeError(await post(`/api/automation/webhooks/sq_nope/${s.secret}`, body), 404, /webhook/);
    expectIntakeError(await post(`/api/automation/webhooks/${created.id}/${s.secret}`, body), 404);
    expectIntakeError(await post(`/api/automation/webhooks/${flow.id}/${s.secret}`, body), 404);
    expectIntakeError(
      await post(`/api/automation/webhooks/${draft.id}/${draft.secret}`, body),
      404,
      /published/,
    );
    expect(await leadsOf(t, draft.ws.id)).toEqual([]);
  });

  it('answers 400 for a body that is not JSON, 422 when no lead can be made; nothing stored', async () => {
    const s = await webhookSequence();
    const url = `/api/automation/webhooks/${s.id}/${s.secret}`;
    expectIntakeError(await post(url, '{"email": '), 400, /not valid JSON/);
    expectIntakeError(await post(url, ''), 400);
    expectIntakeError(
      await post(url, 'email=a@example.com', { 'content-type': 'application/x-www-form-urlencoded' }),
      400,
    );
    expectIntakeError(await post(url, '[{"email": "a@example.com"}]'), 422);
    expectIntakeError(await post(url, '"a@example.com"'), 422);
    expectIntakeError(await post(url, { name: 'No way to reach' }), 422, /e-mail address or a phone/);
    expectIntakeError(await post(url, { email: 'nope', mobile: '12' }), 422, /email.*phone/s);
    expect(await leadsOf(t, s.ws.id)).toEqual([]);
    expect(await runsOf(s.ws.id)).toEqual([]);
  });

  it('drops a bad phone when a good e-mail is there (the body keeps it)', async () => {
    const s = await webhookSequence();
    expectStarted(
      await post(`/api/automation/webhooks/${s.id}/${s.secret}`, { email: 'b@example.com', phone: '12' }),
    );
    const [lead] = await leadsOf(t, s.ws.id);
    expect(lead).toMatchObject({
      email: 'b@example.com',
      phone: null,
      contact_id: null,
      fields: { phone: '12' },
    });
  });

  it('runs for an existing lead with leadId, never enrolling it twice while it runs', async () => {
    const s = await webhookSequence();
    const url = `/api/automation/webhooks/${s.id}/${s.secret}`;
    const first = expectStarted(await post(url, { email: 'c@example.com' }));
    const again = expectStarted(await post(url, { leadId: first.lead_id, note: 'second touch' }));
    expect(again).toEqual(first);
    const concurrent = await Promise.all(
      Array.from({ length: 5 }, (_, i) => post(url, { leadId: first.lead_id, n: i })),
    );
    for (const res of concurrent) expect(expectStarted(res)).toEqual(first);
    expect(await runsOf(s.ws.id)).toHaveLength(1);
    const [lead] = await leadsOf(t, s.ws.id);
    expect(lead!.fields).toMatchObject({ email: 'c@example.com', note: 'second touch' });
    expect(await leadsOf(t, s.ws.id)).toHaveLength(1);
  });

  it('answers 422 for an unknown leadId, and for a lead of another workspace (tenant wall)', async () => {
    const a = await webhookSequence();
    const b = await webhookSequence();
    const bLead = expectStarted(
      await post(`/api/automation/webhooks/${b.id}/${b.secret}`, { email: 'b@example.com' }),
    );
    const url = `/api/automation/webhooks/${a.id}/${a.secret}`;
    expectIntakeError(await post(url, { leadId: 'ld_unknown' }), 422, /No lead with id/);
    expectIntakeError(await post(url, { leadId: bLead.lead_id, evil: true }), 422, /No lead with id/);
    expectIntakeError(await post(url, { leadId: 42 }), 422);
    expect(await runsOf(a.ws.id)).toEqual([]);
    const [untouched] = await leadsOf(t, b.ws.id);
    expect(untouched!.fields).toEqual({ email: 'b@example.com' });
    // A's secret does not open B's sequence either.
    expectIntakeError(
      await post(`/api/automation/webhooks/${b.id}/${a.secret}`, { email: 'x@example.com' }),
      401,
    );
  });

  it('records lead.created and answers 402 over the monthly lead limit, storing and starting nothing', async () => {
    await setPlan(t.ctx.db, 'wh-leads1', { contacts: 100, monthlyLeads: 1, messagesPerMonth: 1 });
    const s = await webhookSequence({ plan: 'wh-leads1' });
    await createEndpoint(t.ctx, s.ws.id, 'http://127.0.0.1:9/hook', ['lead.created']);
    const url = `/api/automation/webhooks/${s.id}/${s.secret}`;
    const first = expectStarted(await post(url, { email: 'one@example.com' }));
    expectIntakeError(await post(url, { email: 'two@example.com' }), 402, /monthly lead limit/);
    expect((await leadsOf(t, s.ws.id)).map((l) => l.id)).toEqual([first.lead_id]);
    expect(await runsOf(s.ws.id)).toHaveLength(1);
    // An existing lead is not a new one: it still runs.
    expect((await post(url, { leadId: first.lead_id })).statusCode).toBe(202);
    const { rows } = await t.ctx.db.query(
      "SELECT payload->'data'->>'id' AS id FROM webhook_deliveries WHERE workspace_id = $1 AND event_type = 'lead.created'",
      [s.ws.id],
    );
    expect(rows).toEqual([{ id: first.lead_id }]);
  });
});

describe('POST /api/automation/webhooks/{sequenceId} with x-api-key or X-Webhook-Signature', () => {
  it('takes the secret in x-api-key', async () => {
    const s = await webhookSequence();
    expectStarted(
      await post(`/api/automation/webhooks/${s.id}`, { email: 'k@example.com' }, { 'x-api-key': s.secret }),
    );
    expectIntakeError(
      await post(`/api/automation/webhooks/${s.id}`, { email: 'k@example.com' }, { 'x-api-key': 'no' }),
      401,
    );
  });

  it('takes an HMAC-SHA256 of the raw bytes, refusing one over other bytes or a malformed header', async () => {
    const s = await webhookSequence();
    const url = `/api/automation/webhooks/${s.id}`;
    // Formatting matters: the signature covers the bytes as sent, not a re-serialisation.
    const raw = '{ "email" : "sig@example.com",\n  "mobile": "+91 98765 43210" }';
    expectStarted(await post(url, raw, { 'x-webhook-signature': sign(raw, s.secret) }));
    const other = '{"email":"sig@example.com","mobile":"+91 98765 43210"}';
    expectIntakeError(
      await post(url, other, { 'x-webhook-signature': sign(raw, s.secret) }),
      401,
      /signature/,
    );
    const upper = `sha256=${sign(other, s.secret).slice(7).toUpperCase()}`;
    expectStarted(await post(url, other, { 'x-webhook-signature': upper }));
    for (const bad of [
      'sha256=',
      'sha256=zz',
      sign(raw, s.secret).slice(7),
      `sha1=${'0'.repeat(40)}`,
      'x'.repeat(5000),
    ]) {
      expectIntakeError(await post(url, raw, { 'x-webhook-signature': bad }), 401);
    }
    expectIntakeError(await post(url, raw), 401, /X-Webhook-Signature/);
    expect(await leadsOf(t, s.ws.id)).toHaveLength(2);
  });

  it('answers a signed body seen again within 24 hours as the first time, starting nothing new', async () => {
    const s = await webhookSequence();
    const url = `/api/automation/webhooks/${s.id}`;
    const raw = JSON.stringify({ email: 'replay@example.com' });
    const headers = { 'x-webhook-signature': sign(raw, s.secret) };
    const first = expectStarted(await post(url, raw, headers));
    expect(expectStarted(await post(url, raw, headers))).toEqual(first);
    const racing = await Promise.all(Array.from({ length: 4 }, () => post(url, raw, headers)));
    for (const res of racing) expect(expectStarted(res)).toEqual(first);
    expect(await leadsOf(t, s.ws.id)).toHaveLength(1);
    // Concurrent first sightings of one new body: one lead, one answer for all.
    const fresh = JSON.stringify({ email: 'race@example.com' });
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => post(url, fresh, { 'x-webhook-signature': sign(fresh, s.secret) })),
    );
    const ids = new Set(answers.map((r) => expectStarted(r).lead_id));
    expect(ids.size).toBe(1);
    expect(await leadsOf(t, s.ws.id)).toHaveLength(2);
    // Past 24 hours it is a new request again, and the cleanup job forgets it.
    await t.ctx.db.query("UPDATE webhook_intake_seen SET expires_at = now() - interval '1 second'");
    expect(expectStarted(await post(url, raw, headers)).lead_id).not.toBe(first.lead_id);
    await t.ctx.db.query("UPDATE webhook_intake_seen SET expires_at = now() - interval '1 second'");
    expect(await forgetSeenBodies(t.ctx.db)).toBeGreaterThanOrEqual(2);
    const left = await t.ctx.db.query('SELECT 1 FROM webhook_intake_seen WHERE workspace_id = $1', [s.ws.id]);
    expect(left.rows).toEqual([]);
  });

  it('a refused signed request does not block the same body once it can succeed', async () => {
    await setPlan(t.ctx.db, 'wh-leads0', { contacts: 100, monthlyLeads: 0, messagesPerMonth: 1 });
    const s = await webhookSequence({ plan: 'wh-leads0' });
    const raw = JSON.stringify({ email: 'later@example.com' });
    const headers = { 'x-webhook-signature': sign(raw, s.secret) };
    expectIntakeError(await post(`/api/automation/webhooks/${s.id}`, raw, headers), 402);
    await t.ctx.db.query("UPDATE workspaces SET plan = 'growth' WHERE id = $1", [s.ws.id]);
    expectStarted(await post(`/api/automation/webhooks/${s.id}`, raw, headers));
  });
});

describe('secret rotation', () => {
  it('turns the old secret away at once (path, header and signature) and takes the new one', async () => {
    const s = await webhookSequence();
    const fresh = await rotateSequenceSecret(t.ctx, s.ws.id, s.id);
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(s.secret);
    const raw = JSON.stringify({ email: 'rot@example.com' });
    expectIntakeError(await post(`/api/automation/webhooks/${s.id}/${s.secret}`, raw), 401);
    expectIntakeError(await post(`/api/automation/webhooks/${s.id}`, raw, { 'x-api-key': s.secret }), 401);
    expectIntakeError(
      await post(`/api/automation/webhooks/${s.id}`, raw, { 'x-webhook-signature': sign(raw, s.secret) }),
      401,
    );
    expectStarted(await post(`/api/automation/webhooks/${s.id}/${fresh}`, raw));
    expectStarted(
      await post(`/api/automation/webhooks/${s.id}`, `${raw} `, {
        'x-webhook-signature': sign(`${raw} `, fresh!),
      }),
    );
  });
});

describe('hostile input on the workflow webhook: the envelope, never a 500', () => {
  it.each([
    ['a 300 kB body', JSON.stringify({ email: 'a@example.com', pad: 'x'.repeat(300_000) }), 413],
    ['nesting 40 deep', `{"email":"a@example.com","n":${'['.repeat(40)}${']'.repeat(40)}}`, 422],
    ['nesting 100,000 deep', '['.repeat(100_000) + ']'.repeat(100_000), 400],
    ['U+0000 in a value', '{"email":"a@example.com","x":"\\u0000"}', 422],
    ['U+0000 in a key', '{"email":"a@example.com","\\u0000":"x"}', 422],
    ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]), 422],
  ])('%s', async (_name, payload, status) => {
    const s = await webhookSequence();
    const res = await post(`/api/automation/webhooks/${s.id}/${s.secret}`, payload);
    if (status === 400 && res.statusCode === 422) expectIntakeError(res, 422);
    else expectIntakeError(res, status);
  });

  it('refuses a number past double range (JSON.parse reads it as Infinity), naming where it sits', async () => {
    const s = await webhookSequence();
    const res = await post(
      `/api/automation/webhooks/${s.id}/${s.secret}`,
      '{"email":"a@example.com","n":{"m":[1, -1e400]}}',
    );
    expectIntakeError(res, 422, /^n\.m\[1\] is a number too large to store$/);
    expect(await leadsOf(t, s.ws.id)).toEqual([]);
  });

  it('stores lone surrogates as U+FFFD and a __proto__ key as a plain field', async () => {
    const s = await webhookSequence();
    const res = await post(
      `/api/automation/webhooks/${s.id}/${s.secret}`,
      '{"email":"a@example.com","x":"\\ud800y","__proto__":{"polluted":true}}',
    );
    expectStarted(res);
    const [lead] = await leadsOf(t, s.ws.id);
    expect(lead!.fields).toEqual(
      JSON.parse('{"email":"a@example.com","x":"\\ufffdy","__proto__":{"polluted":true}}'),
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers other paths and methods under /api/automation/webhooks with the envelope, without echoing a secret', async () => {
    const s = await webhookSequence();
    const get = await t.app.inject({ method: 'GET', url: `/api/automation/webhooks/${s.id}/${s.secret}` });
    expectIntakeError(get, 404);
    expect(get.body).not.toContain(s.secret);
    expectIntakeError(await post(`/api/automation/webhooks/${s.id}/${s.secret}/extra`, {}), 404);
    expectIntakeError(await post('/api/automation/webhooks', {}), 404);
  });
});
