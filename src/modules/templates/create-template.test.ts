import { describe, expect, it } from 'vitest';
import { simControl, simState, simulatorAppForTests } from '../../../test/support/messaging.js';
import { runCommand } from '../../cli/commands.js';
import { createTemplate } from './create-template.js';

const t = simulatorAppForTests({ statusDelaysMs: [-1, -1, -1] });

const listed = async (key: string) =>
  ((await t.api('GET', '/templates', key)).json().templates as { name: string }[]).map((x) => x.name);

describe('creating a template through the network', () => {
  it('submits it as Meta documents, keeps it PENDING, and lists it once approved, with no sync', async () => {
    const ws = await t.connectedWorkspace();
    const created = (await runCommand(t.ctx, 'templates.create', {
      workspaceId: ws.id,
      name: 'order_shipped',
      language: 'en',
      category: 'utility',
      body: 'Hi {{1}}, order {{2}} is on its way.',
      examples: ['Asha', 'A-1001'],
    })) as Record<string, unknown>;
    expect(created).toMatchObject({
      id: expect.stringMatching(/^tpl_/),
      external_id: expect.any(String),
      status: 'PENDING',
      category: 'UTILITY',
      variable_count: 2,
    });
    const onNetwork = simState(t).templates.get(ws.number.businessAccountId)!;
    expect(onNetwork.find((x) => x.name === 'order_shipped')).toMatchObject({
      id: created.external_id,
      status: 'PENDING',
      body: 'Hi {{1}}, order {{2}} is on its way.',
    });
    expect(await listed(ws.key)).not.toContain('order_shipped');
    const early = await t.api('POST', '/messages', ws.key, {
      to: '+14155552671',
      template: { name: 'order_shipped', language: 'en', body: ['Asha', 'A-1001'] },
    });
    expect(early.statusCode).toBe(404);

    // Meta's review: the simulator tells the number by webhook, and the template is sendable at once.
    const approved = await simControl<{
      status: string;
      business_accounts: { delivered_status: number[] }[];
    }>(t.base, `/templates/order_shipped/en/approve?business_account_id=${ws.number.businessAccountId}`);
    expect(approved.body).toMatchObject({
      status: 'APPROVED',
      business_accounts: [{ delivered_status: [200] }],
    });
    expect(await listed(ws.key)).toContain('order_shipped');
    const sent = await t.api('POST', '/messages', ws.key, {
      to: '+14155552671',
      template: { name: 'order_shipped', language: 'en', body: ['Asha', 'A-1001'] },
    });
    expect(sent.statusCode).toBe(201);
    expect(sent.json().status).toBe('accepted');
  });

  it('brings an approval in by sync when the webhook was missed', async () => {
    const ws = await t.connectedWorkspace();
    await createTemplate(t.ctx, ws.id, {
      name: 'appointment',
      language: 'pt_BR',
      category: 'UTILITY',
      body: 'Até amanhã às {{1}}',
    });
    simState(t)
      .templates.get(ws.number.businessAccountId)!
      .find((x) => x.name === 'appointment')!.status = 'APPROVED';
    expect(await listed(ws.key)).not.toContain('appointment');
    await runCommand(t.ctx, 'templates.sync', { workspaceId: ws.id });
    const templates = (await t.api('GET', '/templates', ws.key)).json().templates;
    expect(templates).toContainEqual(
      expect.objectContaining({ name: 'appointment', language: 'pt_BR', variable_count: 1 }),
    );
  });

  it('syncs an account with more templates than one page holds, every page of them', async () => {
    const ws = await t.connectedWorkspace();
    // Parley asks for 100 a page; the network answers by cursors, page after page.
    const many = Array.from({ length: 230 }, (_, i) => ({
      id: String(7_000_000_000_000 + i),
      name: `notice_${i}`,
      language: 'en',
      category: 'UTILITY',
      body: `Notice ${i}: {{1}}`,
      status: 'APPROVED' as const,
    }));
    simState(t).templates.set(ws.number.businessAccountId, many);
    expect(await runCommand(t.ctx, 'templates.sync', { workspaceId: ws.id })).toMatchObject({ synced: 230 });
    const { rows } = await t.ctx.db.query<{ name: string; external_id: string }>(
      "SELECT name, external_id FROM templates WHERE workspace_id = $1 AND name LIKE 'notice_%' ORDER BY external_id",
      [ws.id],
    );
    expect(rows).toEqual(many.map((x) => ({ name: x.name, external_id: x.id })));
  });

  it('refuses what Meta would refuse, saying what to fix', async () => {
    const ws = await t.connectedWorkspace();
    const attempt = (input: Partial<Parameters<typeof createTemplate>[2]>) =>
      createTemplate(t.ctx, ws.id, {
        name: 'fine_name',
        language: 'en',
        category: 'MARKETING',
        body: 'Hello {{1}}',
        ...input,
      });
    await expect(attempt({ name: 'Not Allowed' })).rejects.toThrow(/name: use lowercase/);
    await expect(attempt({ category: 'PROMO' })).rejects.toThrow(/category/);
    await expect(attempt({ body: 'Hi {{2}}' })).rejects.toThrow(/numbered/);
    await expect(attempt({ examples: [] })).rejects.toThrow(/examples/);
    await attempt({});
    // The same name and language twice: the network's own refusal comes back as the reason.
    const twice = attempt({});
    await expect(twice).rejects.toMatchObject({ code: 'validation_error', status: 422 });
    await expect(twice).rejects.toThrow(/already exists/);
    const bare = await t.workspace();
    await expect(
      createTemplate(t.ctx, bare.id, { name: 'x', language: 'en', category: 'UTILITY', body: 'x' }),
    ).rejects.toThrow(/no connected number/);
  });
});

describe('parley number connect --messages-per-second', () => {
  it('sets the number’s throughput, keeps it on reconnect, and refuses one outside 1 to 1,000', async () => {
    const ws = await t.workspace();
    const connect = (messagesPerSecond?: number) =>
      runCommand(t.ctx, 'number.connect', {
        workspaceId: ws.id,
        phoneNumberId: '555000111',
        businessAccountId: 'waba555000111',
        displayPhone: '+1 555 0111',
        accessToken: 'token',
        appSecret: 'secret',
        verifyToken: 'verify',
        graphBaseUrl: `${t.base}/_sim`,
        ...(messagesPerSecond === undefined ? {} : { messagesPerSecond }),
      }) as Promise<Record<string, unknown>>;
    expect(await connect()).toMatchObject({ messages_per_second: 80 });
    expect(await connect(250)).toMatchObject({ messages_per_second: 250 });
    expect(await connect()).toMatchObject({ messages_per_second: 250 });
    await expect(connect(0)).rejects.toThrow(/1 to 1,000/);
    await expect(connect(1001)).rejects.toThrow(/1 to 1,000/);
  });
});
