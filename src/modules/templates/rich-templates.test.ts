import { describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { workspaceWithOwner } from '../../../test/support/app-session.js';
import {
  connectedWorkspace,
  connectSimulator,
  listen,
  simControl,
  simState,
  simulatorAppForTests,
} from '../../../test/support/messaging.js';
import { PROMO } from '../../../test/support/rich-template.js';
import { until } from '../../../test/support/until.js';
import { runCommand } from '../../cli/commands.js';
import { jobCatalog } from '../../jobs/catalog.js';
import { retrySend } from '../messaging/retry-send.js';
import { createTemplate } from './create-template.js';

const t = simulatorAppForTests({ statusDelaysMs: [-1, -1, -1] });

async function approvedAndSynced(
  ws: { id: string; number: { businessAccountId: string } },
  name: string,
  language: string,
  app: TestApp = t,
  at = t.base,
) {
  const approved = await simControl(
    at,
    `/templates/${name}/${language}/approve?business_account_id=${ws.number.businessAccountId}`,
  );
  expect(approved.status).toBe(200);
  await runCommand(app.ctx, 'templates.sync', { workspaceId: ws.id });
}

describe('a template with a header, named variables and buttons', () => {
  it('is created, approved, synced, listed with what a send needs, and sent as Meta documents', async () => {
    const ws = await t.connectedWorkspace();
    await createTemplate(t.ctx, ws.id, PROMO);
    const onNetwork = simState(t)
      .templates.get(ws.number.businessAccountId)!
      .find((x) => x.name === 'summer_sale')!;
    expect(onNetwork.components!.map((c) => c.type)).toEqual(['HEADER', 'BODY', 'FOOTER', 'BUTTONS']);
    await approvedAndSynced(ws, 'summer_sale', 'en_US');

    const listed = (await t.api('GET', '/templates', ws.key)).json().templates;
    expect(listed.find((x: { name: string }) => x.name === 'summer_sale')).toEqual({
      id: expect.stringMatching(/^tpl_/),
      name: 'summer_sale',
      language: 'en_US',
      category: 'MARKETING',
      body: 'Hi {{first_name}}, {{discount}} off everything until Sunday!',
      variable_count: 2,
      parameter_format: 'NAMED',
      body_parameters: ['first_name', 'discount'],
      header: { format: 'IMAGE', takes_value: true },
      buttons: [
        { index: 0, type: 'URL', takes: 'text', required: true },
        { index: 1, type: 'QUICK_REPLY', takes: 'payload', required: false },
      ],
      status: 'APPROVED',
      rejected_reason: null,
      status_reason: null,
      quality_score: expect.toBeOneOf([expect.any(String), null]),
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });

    const sent = await t.api('POST', '/messages', ws.key, {
      to: '+14155552671',
      template: {
        name: 'summer_sale',
        language: 'en_US',
        header: { link: 'https://cdn.example/sale.jpg' },
        body: { first_name: 'Pablo', discount: '25%' },
        buttons: [
          { index: 0, text: 's25' },
          { index: 1, payload: 'stop-promos' },
        ],
      },
    });
    expect(sent.statusCode).toBe(201);
    expect(sent.json().status).toBe('accepted');
    const received = simState(t).messages.find((m) => m.wamid === sent.json().wamid)!;
    expect(received.payload).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '14155552671',
      type: 'template',
      template: {
        name: 'summer_sale',
        language: { code: 'en_US' },
        components: [
          {
            type: 'header',
            parameters: [{ type: 'image', image: { link: 'https://cdn.example/sale.jpg' } }],
          },
          {
            type: 'body',
            parameters: [
              { type: 'text', parameter_name: 'first_name', text: 'Pablo' },
              { type: 'text', parameter_name: 'discount', text: '25%' },
            ],
          },
          { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 's25' }] },
          {
            type: 'button',
            sub_type: 'quick_reply',
            index: '1',
            parameters: [{ type: 'payload', payload: 'stop-promos' }],
          },
        ],
      },
      biz_opaque_callback_data: sent.json().id,
    });

    // Each part missing, extra or of the wrong kind: 422 naming it, and nothing reaches the network.
    const attempts = simState(t).attempts.length;
    const good = {
      name: 'summer_sale',
      language: 'en_US',
      header: { link: 'https://cdn.example/sale.jpg' },
      body: { first_name: 'Pablo', discount: '25%' },
      buttons: [{ index: 0, text: 's25' }],
    };
    const cases: [Record<string, unknown>, string][] = [
      [{ header: undefined }, 'template.header'],
      [{ header: 'Summer sale' }, 'template.header'],
      [{ body: { first_name: 'Pablo' } }, 'template.body.discount'],
      [{ body: { first_name: 'Pablo', discount: '25%', extra: 'x' } }, 'template.body.extra'],
      [{ body: ['Pablo'] }, 'template.body'],
      [{ buttons: [] }, 'template.buttons[0]'],
      [{ buttons: [{ index: 0, payload: 's25' }] }, 'template.buttons[0]'],
      [
        {
          buttons: [
            { index: 0, text: 's25' },
            { index: 2, payload: 'x' },
          ],
        },
        'template.buttons[2]',
      ],
    ];
    for (const [change, field] of cases) {
      const res = await t.api('POST', '/messages', ws.key, {
        to: '+14155552671',
        template: { ...good, ...change },
      });
      expect(res.statusCode, field).toBe(422);
      expect(res.json().error.details.map((d: { field: string }) => d.field)).toEqual([field]);
    }
    expect(simState(t).attempts.length).toBe(attempts);

    // A send the network refused for a while goes out again with the same components.
    await simControl(t.base, '/control', { failNext: 1, failNextCode: 130429 });
    const later = await t.api('POST', '/messages', ws.key, { to: '+14155552672', template: good });
    expect(later.json().status).toBe('queued');
    await retrySend(t.ctx, { workspaceId: ws.id, messageId: later.json().id }, false);
    const resent = simState(t).messages.find((m) => m.to === '14155552672')!;
    expect((resent.payload as { template: { components: unknown[] } }).template.components).toEqual(
      (received.payload as { template: { components: unknown[] } }).template.components.slice(0, 3),
    );

    // The spec's shape (the body's values in order) sends a named template too.
    const ordered = await t.api('POST', '/messages', ws.key, {
      to: '+14155552671',
      template: { ...good, body: ['Pablo', '25%'] },
    });
    expect(ordered.statusCode).toBe(201);
  });

  it('is refused by the network with 132000 when the parameters do not match it', async () => {
    const ws = await t.connectedWorkspace();
    await createTemplate(t.ctx, ws.id, PROMO);
    await approvedAndSynced(ws, 'summer_sale', 'en_US');
    const number = simState(t).numbers.get(ws.number.phoneNumberId)!;
    const res = await fetch(
      `${t.base}/_sim/${t.ctx.config.graphApiVersion}/${number.phoneNumberId}/messages`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${number.accessToken}` },
        body: JSON.stringify({
          messaging_product: 'whatsapp',
          to: '14155552671',
          type: 'template',
          template: {
            name: 'summer_sale',
            language: { code: 'en_US' },
            components: [{ type: 'body', parameters: [{ type: 'text', text: 'Pablo' }] }],
          },
        }),
      },
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: unknown }).error).toMatchObject({
      code: 132000,
      message: '(#132000) Number of parameters does not match the expected number of params',
      error_data: { details: expect.stringContaining('header') },
    });
  });
});

// The header was added on the network after Parley last synced.
const STALE = `UPDATE templates SET components = (SELECT jsonb_agg(c) FROM jsonb_array_elements(components) c
  WHERE c->>'type' <> 'HEADER') WHERE workspace_id = $1 AND name = 'summer_sale'`;
const SUMMER_SALE = {
  to: '+14155552671',
  template: {
    name: 'summer_sale',
    language: 'en_US',
    body: { first_name: 'Pablo', discount: '25%' },
    buttons: [{ index: 0, text: 's25' }],
  },
};

describe("Parley's copy of a template out of date", () => {
  it("answers 422 naming the template with the network's words, and syncs the templates again", async () => {
    const ws = await t.connectedWorkspace();
    await createTemplate(t.ctx, ws.id, PROMO);
    await approvedAndSynced(ws, 'summer_sale', 'en_US');
    await t.ctx.db.query(STALE, [ws.id]);
    const res = await t.api('POST', '/messages', ws.key, SUMMER_SALE);
    expect(res.statusCode).toBe(422);
    expect(res.json().error.details).toEqual([
      { field: 'template', message: expect.stringContaining('header: number of localizable_params') },
    ]);
    const header = await until(async () => {
      const listed = (await t.api('GET', '/templates', ws.key)).json().templates;
      return listed.find((x: { name: string }) => x.name === 'summer_sale').header;
    }, 5_000);
    expect(header).toEqual({ format: 'IMAGE', takes_value: true });

    // With a queue, the sync is the templates.sync job's, for that number alone.
    await t.ctx.db.query(STALE, [ws.id]);
    await jobCatalog['templates.sync'].handler(t.ctx, { numberId: ws.number.id }, { lastTry: false });
    const synced = await t.ctx.db.query(
      "SELECT components->0->>'type' AS first FROM templates WHERE workspace_id = $1 AND name = 'summer_sale'",
      [ws.id],
    );
    expect(synced.rows[0]).toEqual({ first: 'HEADER' });
  });
});

describe('a burst of sends refused for a stale template', () => {
  it('asks for one templates.sync job a minute for the number, whichever instance the refusals reach', async () => {
    const q = await createTestApp({ queue: true, role: 'api' });
    try {
      const at = await listen(q);
      simState(q).statusDelaysMs = [-1, -1, -1];
      const ws = await connectedWorkspace(q, at);
      await createTemplate(q.ctx, ws.id, PROMO);
      await approvedAndSynced(ws, 'summer_sale', 'en_US', q, at);
      await q.ctx.db.query(STALE, [ws.id]);
      const send = () => q.api('POST', '/messages', ws.key, SUMMER_SALE);
      const jobs = async () =>
        (
          await q.ctx.db.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'templates.sync' AND singleton_key = $1",
            [ws.number.id],
          )
        ).rows[0]!.n;
      expect((await send()).statusCode).toBe(422);
      await until(async () => (await jobs()) > 0, 5_000);
      // Asked again by later refusals, here or on any instance sharing the queue: the same job.
      for (const res of await Promise.all([send(), send(), send()])) expect(res.statusCode).toBe(422);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await jobs()).toBe(1);
    } finally {
      await q.close();
    }
  });
});

describe('an authentication template', () => {
  it("is created through the app in Meta's shape, and sent with the code as the body and the button parameter", async () => {
    const { workspaceId, client, apiKey } = await workspaceWithOwner(t);
    const number = await connectSimulator(t, t.base, workspaceId);
    const ws = { id: workspaceId, key: apiKey, number };
    const freeText = await client.call('POST', '/templates', {
      name: 'login_code',
      language: 'en_US',
      category: 'AUTHENTICATION',
      body: 'Your code is {{1}}',
    });
    // Meta's creation shape passes the app route as it is.
    expect((await client.call('POST', '/templates', PROMO)).statusCode).toBe(201);
    expect(freeText.statusCode).toBe(422);
    expect(freeText.json().error.details).toEqual([
      { field: 'body', message: expect.stringContaining('authentication templates have preset text') },
    ]);
    const created = await client.call('POST', '/templates', {
      name: 'login_code',
      language: 'en_US',
      category: 'AUTHENTICATION',
      add_security_recommendation: true,
      code_expiration_minutes: 10,
      otp_type: 'COPY_CODE',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().template).toMatchObject({ status: 'PENDING', variable_count: 1 });
    await approvedAndSynced(ws, 'login_code', 'en_US');
    const listed = (await t.api('GET', '/templates', ws.key)).json().templates;
    expect(listed.find((x: { name: string }) => x.name === 'login_code')).toMatchObject({
      body: '*{{1}}* is your verification code. For your security, do not share this code.',
      variable_count: 1,
      buttons: [{ index: 0, type: 'OTP', takes: 'text', required: false }],
    });
    const sent = await t.api('POST', '/messages', ws.key, {
      to: '+14155552671',
      template: { name: 'login_code', language: 'en_US', body: ['482913'] },
    });
    expect(sent.statusCode).toBe(201);
    const received = simState(t).messages.find((m) => m.wamid === sent.json().wamid)!;
    expect((received.payload as { template: unknown }).template).toEqual({
      name: 'login_code',
      language: { code: 'en_US' },
      components: [
        { type: 'body', parameters: [{ type: 'text', text: '482913' }] },
        { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '482913' }] },
      ],
    });
  });
});

it("keeps a rejected template's reason, from the review webhook and from sync, and lists what a send needs", async () => {
  const { workspaceId, client } = await workspaceWithOwner(t);
  const number = await connectSimulator(t, t.base, workspaceId);
  await createTemplate(t.ctx, workspaceId, { ...PROMO, name: 'too_pushy' });
  const rejected = await simControl(
    t.base,
    `/templates/too_pushy/en_US/reject?business_account_id=${number.businessAccountId}`,
  );
  expect(rejected.status).toBe(200);
  const reason = async () =>
    (await client.call('GET', '/templates'))
      .json()
      .templates.find((x: { name: string }) => x.name === 'too_pushy');
  expect(await reason()).toMatchObject({ status: 'REJECTED', rejected_reason: 'INCORRECT_CATEGORY' });
  await runCommand(t.ctx, 'templates.sync', { workspaceId });
  expect(await reason()).toMatchObject({
    status: 'REJECTED',
    rejected_reason: 'INCORRECT_CATEGORY',
    quality_score: 'UNKNOWN',
    parameter_format: 'NAMED',
    // What a send needs, as REST v1 lists it, for the web app's values form whatever the status.
    body_parameters: ['first_name', 'discount'],
    header: { format: 'IMAGE', takes_value: true },
    buttons: [
      { index: 0, type: 'URL', takes: 'text', required: true },
      { index: 1, type: 'QUICK_REPLY', takes: 'payload', required: false },
    ],
  });
});
