import { describe, expect, it } from 'vitest';
import {
  type connectedWorkspace,
  simControl,
  simState,
  simulatorAppForTests,
} from '../../../test/support/messaging.js';
import { until } from '../../../test/support/until.js';
import { runCommand } from '../../cli/commands.js';
import { getBroadcast } from '../broadcasts/get-broadcast.js';
import { numberOfWorkspace } from './connected-numbers.js';
import { receiveWebhook } from './receive-webhook.js';

// What Meta says of a number (verified name, quality rating, messaging limit tier) read on connect
// and kept current from its webhooks: phone_number_quality_update, account_update, phone_number_name_update.

const t = simulatorAppForTests({ queue: true, statusDelaysMs: [20, 40, -1] });

type Ws = Awaited<ReturnType<typeof connectedWorkspace>>;
const stored = async (ws: { id: string }) => (await numberOfWorkspace(t.ctx, t.ctx.db, ws.id))!;

/** A change of the business account's webhook, applied as the receiver does once it is verified. */
const applyChange = (ws: Ws, field: string, value: Record<string, unknown>) =>
  receiveWebhook(t.ctx, ws.number, [{ id: ws.number.businessAccountId, changes: [{ field, value }] }], {
    id: 'test',
    log: t.app.log,
  });

describe('parley number connect', () => {
  it("keeps Meta's verified name, quality rating and messaging limit tier of the number", async () => {
    const ws = await t.workspace();
    const phoneNumberId = String(700_000 + Math.floor(Math.random() * 99_999));
    // The number as Meta holds it.
    simState(t).numbers.set(phoneNumberId, {
      phoneNumberId,
      businessAccountId: `waba${phoneNumberId}`,
      displayPhone: '+1 555 0123',
      accessToken: 'cli-token',
      appSecret: 'cli-secret',
      webhookUrl: `${t.base}/api/webhooks/whatsapp`,
      verifiedName: 'Acme Support',
      qualityRating: 'YELLOW',
      messagingLimitTier: 'TIER_10K',
    });
    const out = await runCommand(t.ctx, 'number.connect', {
      workspaceId: ws.id,
      phoneNumberId,
      businessAccountId: `waba${phoneNumberId}`,
      displayPhone: '+1 555 0123',
      accessToken: 'cli-token',
      appSecret: 'cli-secret',
      verifyToken: 'verify',
      graphBaseUrl: `${t.base}/_sim`,
    });
    expect(out).toMatchObject({
      verified_name: 'Acme Support',
      quality_rating: 'YELLOW',
      messaging_limit_tier: 'TIER_10K',
    });
    expect(await stored(ws)).toMatchObject({
      verifiedName: 'Acme Support',
      qualityRating: 'YELLOW',
      messagingLimitTier: 'TIER_10K',
    });
  });
});

describe("Meta's webhooks about the number", () => {
  it('a quality update keeps the new messaging limit tier, and a flag the rating Meta then gives', async () => {
    const ws = await t.connectedWorkspace();
    const raised = await simControl(t.base, `/numbers/${ws.number.phoneNumberId}/quality_update`, {
      current_limit: 'TIER_2K',
    });
    expect(raised.body).toEqual({ delivered_status: 200 });
    expect((await stored(ws)).messagingLimitTier).toBe('TIER_2K');

    await simControl(t.base, `/numbers/${ws.number.phoneNumberId}/quality_update`, { quality_rating: 'RED' });
    await until(async () => (await stored(ws)).qualityRating === 'RED');
  });

  it("reads the limit from max_daily_conversations_per_business, and leaves another number's update alone", async () => {
    const ws = await t.connectedWorkspace();
    const display = ws.number.displayPhone.replace(/\D/g, '');
    await applyChange(ws, 'phone_number_quality_update', {
      display_phone_number: display,
      event: 'UPGRADE',
      max_daily_conversations_per_business: 10000,
    });
    expect((await stored(ws)).messagingLimitTier).toBe('TIER_10K');
    await applyChange(ws, 'phone_number_quality_update', {
      display_phone_number: '19995550100',
      event: 'UPGRADE',
      current_limit: 'TIER_100K',
    });
    expect((await stored(ws)).messagingLimitTier).toBe('TIER_10K');
    // Another business account's change, naming the same display number.
    await receiveWebhook(
      t.ctx,
      ws.number,
      [
        {
          id: `${ws.number.businessAccountId}0`,
          changes: [
            {
              field: 'phone_number_quality_update',
              value: { display_phone_number: display, event: 'UPGRADE', current_limit: 'TIER_100K' },
            },
          ],
        },
      ],
      { id: 'test', log: t.app.log },
    );
    expect((await stored(ws)).messagingLimitTier).toBe('TIER_10K');
  });

  it('an approved display name is kept', async () => {
    const ws = await t.connectedWorkspace();
    const res = await simControl(t.base, `/numbers/${ws.number.phoneNumberId}/name_update`, {
      verified_name: 'Acme Renamed',
    });
    expect(res.body).toEqual({ delivered_status: 200 });
    expect((await stored(ws)).verifiedName).toBe('Acme Renamed');
  });

  it('an account Meta disables pauses the number, and one it reinstates resumes it', async () => {
    const ws = await t.connectedWorkspace();
    await simControl(t.base, `/numbers/${ws.number.phoneNumberId}/account_update`, {
      event: 'ACCOUNT_VIOLATION',
      violation_type: 'SCAM',
    });
    expect((await stored(ws)).paused).toBeNull();
    await simControl(t.base, `/numbers/${ws.number.phoneNumberId}/account_update`, {
      event: 'DISABLED_UPDATE',
      ban_state: 'DISABLE',
    });
    expect((await stored(ws)).paused).toMatchObject({
      code: 131031,
      reason: expect.stringMatching(/disabled/),
    });
    const refused = await t.api('POST', '/messages', ws.key, {
      to: '+14155558001',
      template: { name: 'hello', language: 'en_US' },
    });
    expect(refused.json().error?.code).toBe('number_paused');
    await simControl(t.base, `/numbers/${ws.number.phoneNumberId}/account_update`, {
      event: 'DISABLED_UPDATE',
      ban_state: 'REINSTATE',
    });
    expect((await stored(ws)).paused).toBeNull();
  });
});

describe('a tier raised by Meta', () => {
  it('reaches a broadcast waiting for the limit at once', async () => {
    const ws = await t.connectedWorkspace();
    await simControl(t.base, `/numbers/${ws.number.phoneNumberId}/tier`, {
      messaging_limit_tier: 'TIER_250',
    });
    // 248 other customers got a template in the last hours: two places are left.
    await t.ctx.db.query(
      `WITH c AS (
         INSERT INTO contacts (workspace_id, id, phone)
         SELECT $1, 'ct_before' || g, '1998000' || lpad(g::text, 4, '0') FROM generate_series(1, 248) g RETURNING id, phone)
       INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, status, status_rank, created_at)
       SELECT $1, 'msg_' || c.id, 'outbound', c.id, c.phone, 'template', 'delivered', 3, now() - interval '2 hours' FROM c`,
      [ws.id],
    );
    for (let i = 0; i < 4; i++) {
      const res = await t.api('POST', '/contacts', ws.key, {
        phone: `+1415558${2000 + i}`,
        tags: ['tiered'],
      });
      expect(res.statusCode).toBe(201);
    }
    const created = await t.api('POST', '/broadcasts', ws.key, {
      name: 'Tiered',
      template: { name: 'welcome', language: 'en' },
      values: { body: ['you', 'Parley'].map((fallback) => ({ from: 'contact', field: 'name', fallback })) },
      audience: { tags_all: ['tiered'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().broadcast.id as string;
    await until(async () => (await getBroadcast(t.ctx.db, ws.id, id)).status === 'waiting_for_limit', 20_000);

    await simControl(t.base, `/numbers/${ws.number.phoneNumberId}/quality_update`, {
      current_limit: 'TIER_1K',
    });
    const done = await until(async () => {
      const b = await getBroadcast(t.ctx.db, ws.id, id);
      return b.status === 'completed' && b;
    }, 20_000);
    expect(done.counts).toMatchObject({ audience: 4, queued: 0, failed: 0 });
  }, 45_000);
});
