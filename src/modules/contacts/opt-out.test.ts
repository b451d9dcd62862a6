import { describe, expect, it } from 'vitest';
import { workspaceWithOwner } from '../../../test/support/app-session.js';
import { simControl, simState, simulatorAppForTests } from '../../../test/support/messaging.js';
import { until } from '../../../test/support/until.js';
import { listRuns } from '../automation/list-runs.js';
import { createAutomation } from '../automation/save-automation.js';
import { createEndpoint } from '../webhooks/endpoints.js';
import { updateWorkspace } from '../workspaces/update-workspace.js';

const t = simulatorAppForTests({ queue: true, statusDelaysMs: [-1, -1, -1] });

let n = 0;
const nextPhone = () => `1415555${String(7100 + ++n)}`;

const WELCOME = { name: 'welcome', language: 'en', body: ['Ann', 'Parley'] }; // MARKETING
const HELLO = { name: 'hello', language: 'en_US' }; // UTILITY

async function contactOf(key: string, phone: string) {
  const list = (await t.api('GET', '/contacts?limit=200', key)).json().contacts;
  return list.find((c: { phone: string }) => c.phone === phone);
}

const writeIn = (phone: string, phoneNumberId: string, body: Record<string, unknown>) =>
  simControl(t.base, '/inbound', { from: phone, phone_number_id: phoneNumberId, ...body });

const consentOf = async (workspaceId: string, contactId: string) =>
  (
    await t.ctx.db.query(
      `SELECT opted_out, source, message_id, keyword, user_id FROM consent_changes
       WHERE workspace_id = $1 AND contact_id = $2 ORDER BY created_at`,
      [workspaceId, contactId],
    )
  ).rows;

describe('an inbound keyword', () => {
  it('opts the contact out on STOP in any case and punctuation, and back in on START', async () => {
    const ws = await t.connectedWorkspace();
    const phone = nextPhone();
    await writeIn(phone, ws.number.phoneNumberId, { text: ' Stop! ' });
    const out = await until(async () => {
      const c = await contactOf(ws.key, phone);
      return c?.opted_out && c;
    });
    expect(Date.parse(out.opted_out_at)).toBeGreaterThan(Date.now() - 60_000);
    const inbound = (await t.ctx.db.query('SELECT id FROM messages WHERE workspace_id = $1', [ws.id]))
      .rows[0];
    expect(await consentOf(ws.id, out.id)).toEqual([
      { opted_out: true, source: 'keyword', message_id: inbound!.id, keyword: 'STOP', user_id: null },
    ]);

    const marketing = await t.api('POST', '/messages', ws.key, { to: `+${phone}`, template: WELCOME });
    expect(marketing.statusCode).toBe(409);
    expect(marketing.json()).toEqual({
      result: false,
      error: {
        code: 'contact_opted_out',
        message: expect.stringMatching(/opted out of marketing/),
        request_id: expect.any(String),
      },
    });
    expect((await t.api('POST', '/messages', ws.key, { to: `+${phone}`, template: HELLO })).statusCode).toBe(
      201,
    );
    expect(
      (
        await t.api('POST', '/messages', ws.key, {
          to: `+${phone}`,
          type: 'text',
          text: 'Sorry to see you go',
        })
      ).statusCode,
    ).toBe(201);

    await writeIn(phone, ws.number.phoneNumberId, { text: 'start' });
    await until(async () => (await contactOf(ws.key, phone))?.opted_out === false);
    expect((await contactOf(ws.key, phone)).opted_out_at).toBeNull();
    expect(
      (await t.api('POST', '/messages', ws.key, { to: `+${phone}`, template: WELCOME })).statusCode,
    ).toBe(201);
  });

  it("reads a quick-reply button's payload against the workspace's own words", async () => {
    const ws = await t.connectedWorkspace();
    await updateWorkspace(t.ctx.db, ws.id, { opt_out_keywords: ['no_more_offers'] });
    const phone = nextPhone();
    await writeIn(phone, ws.number.phoneNumberId, {
      message: { type: 'button', button: { payload: 'NO_MORE_OFFERS', text: 'Stop promotions' } },
    });
    const out = await until(async () => {
      const c = await contactOf(ws.key, phone);
      return c?.opted_out && c;
    });
    expect((await consentOf(ws.id, out.id))[0]).toMatchObject({
      source: 'payload',
      keyword: 'NO_MORE_OFFERS',
    });
  });

  it('leaves a sentence that holds the word alone, and another workspace never sees the change', async () => {
    const ws = await t.connectedWorkspace();
    const other = await t.connectedWorkspace();
    const phone = nextPhone();
    await t.api('POST', '/contacts', other.key, { phone: `+${phone}` });
    await writeIn(phone, ws.number.phoneNumberId, { text: 'please stop calling me at work' });
    await until(() => contactOf(ws.key, phone));
    expect((await contactOf(ws.key, phone)).opted_out).toBe(false);
    await writeIn(phone, ws.number.phoneNumberId, { text: 'STOP' });
    await until(async () => (await contactOf(ws.key, phone))?.opted_out);
    expect((await contactOf(other.key, phone)).opted_out).toBe(false);
  });

  it('sends the confirmation the workspace set, once, and records the outbound webhook event', async () => {
    const ws = await t.connectedWorkspace();
    await updateWorkspace(t.ctx.db, ws.id, {
      opt_out_confirmation: 'You will get no more offers. Reply START to undo.',
    });
    await createEndpoint(t.ctx, ws.id, 'https://hooks.example.invalid/x', ['contact.opted_out']);
    const phone = nextPhone();
    await writeIn(phone, ws.number.phoneNumberId, { text: 'unsubscribe' });
    const sent = await until(() => simState(t).messages.find((m) => m.to === phone));
    expect(sent.payload).toMatchObject({
      type: 'text',
      text: { body: 'You will get no more offers. Reply START to undo.' },
    });
    // Saying it again changes nothing, so nothing more is sent or recorded.
    await writeIn(phone, ws.number.phoneNumberId, { text: 'STOP' });
    await until(
      async () =>
        (
          await t.ctx.db.query('SELECT 1 FROM messages WHERE workspace_id = $1 AND direction = $2', [
            ws.id,
            'inbound',
          ])
        ).rows.length === 2,
    );
    const events = await t.ctx.db.query<{ event_type: string; payload: { data: Record<string, unknown> } }>(
      'SELECT event_type, payload FROM webhook_deliveries WHERE workspace_id = $1',
      [ws.id],
    );
    expect(events.rows).toHaveLength(1);
    expect(events.rows[0]!.payload.data).toMatchObject({
      phone,
      opted_out: true,
      source: 'keyword',
      keyword: 'UNSUBSCRIBE',
    });
    expect(simState(t).messages.filter((m) => m.to === phone)).toHaveLength(1);
  });
});

describe('REST v1 contacts', () => {
  it('sets and shows opted_out, and the flag is kept when an upsert leaves it out', async () => {
    const ws = await t.workspace({ defaultCountryCode: '1' });
    const phone = nextPhone();
    const created = await t.api('POST', '/contacts', ws.key, { phone: `+${phone}`, opted_out: true });
    expect(created.statusCode).toBe(201);
    await t.api('POST', '/contacts', ws.key, { phone: `+${phone}`, name: 'Ann' });
    const c = await contactOf(ws.key, phone);
    expect(c).toMatchObject({ name: 'Ann', opted_out: true, opted_out_at: expect.any(String) });
    expect((await consentOf(ws.id, c.id)).map((r) => r.source)).toEqual(['api']);
    await t.api('POST', '/contacts', ws.key, { phone: `+${phone}`, opted_out: false });
    expect((await contactOf(ws.key, phone)).opted_out).toBe(false);
  });

  it('refuses an opted_out that is not a boolean with 422', async () => {
    const ws = await t.workspace({ defaultCountryCode: '1' });
    const res = await t.api('POST', '/contacts', ws.key, { phone: '+14155550000', opted_out: 'yes' });
    expect(res.statusCode).toBe(422);
  });
});

describe('the web app', () => {
  it('lets a member set and clear the flag on their own contacts only', async () => {
    const mine = await workspaceWithOwner(t, 'member');
    const theirs = await workspaceWithOwner(t);
    const contact = (await t.api('POST', '/contacts', mine.apiKey, { phone: '+14155557999' })).json();
    const other = (await t.api('POST', '/contacts', theirs.apiKey, { phone: '+14155557999' })).json();
    const set = await mine.client.call('PUT', `/contacts/${contact.id}/opt-out`, { opted_out: true });
    expect(set.statusCode).toBe(200);
    expect(set.json().contact.opted_out).toBe(true);
    expect((await consentOf(mine.workspaceId, contact.id))[0]).toMatchObject({
      source: 'app',
      user_id: mine.client.userId,
    });
    const across = await mine.client.call('PUT', `/contacts/${other.id}/opt-out`, { opted_out: true });
    expect(across.statusCode).toBe(404);
    expect((await contactOf(theirs.apiKey, '14155557999')).opted_out).toBe(false);
  });
});

describe('a flow', () => {
  it('skips a MARKETING template to an opted-out contact with the reason, and still sends a utility one', async () => {
    const ws = await t.connectedWorkspace();
    const phone = nextPhone();
    await t.api('POST', '/contacts', ws.key, { phone: `+${phone}`, opted_out: true });
    const flow = await createAutomation(
      t.ctx,
      ws.id,
      {
        name: 'Promo',
        trigger: { type: 'event', event: 'promo' },
        steps: [
          {
            id: 'offer',
            type: 'send_template',
            template: { name: 'welcome', language: 'en', body: ['a', 'b'] },
          },
          { id: 'receipt', type: 'send_template', template: { name: 'hello', language: 'en_US' } },
        ],
      },
      { publish: true },
    );
    await t.api('POST', '/events', ws.key, { phone: `+${phone}`, event: 'promo' });
    const run = await until(async () => {
      const [r] = await listRuns(t.ctx, ws.id, { automationId: flow.id });
      return r?.status === 'completed' && r;
    });
    const steps = (
      await t.ctx.db.query(
        'SELECT step_id, status, outcome FROM run_steps WHERE workspace_id = $1 AND run_id = $2 ORDER BY started_at',
        [ws.id, run.id],
      )
    ).rows;
    expect(steps).toEqual([
      {
        step_id: 'offer',
        status: 'skipped',
        outcome: { sent: false, code: 'opted_out', reason: 'the contact opted out of marketing messages' },
      },
      {
        step_id: 'receipt',
        status: 'done',
        outcome: expect.objectContaining({ message_id: expect.any(String) }),
      },
    ]);
    expect(
      simState(t)
        .messages.filter((m) => m.to === phone)
        .map((m) => (m.payload as { template: { name: string } }).template.name),
    ).toEqual(['hello']);
  });
});
