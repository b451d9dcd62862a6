import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { metaJson } from '../../simulator/webhooks.js';
import { hubSignature } from './cloud-api/signature.js';
import { connectNumber, numberOfWorkspace } from './connected-numbers.js';

// Every message type Meta's messages webhook reference documents is kept with its content, a text
// for lists where there is one, and the message it replies to (test/fixtures/meta-webhooks/inbound-*).

const fixture = (name: string) =>
  JSON.parse(
    readFileSync(
      new URL(`../../../test/fixtures/meta-webhooks/inbound-${name}.json`, import.meta.url),
      'utf8',
    ),
  );
const REPLIED_TO = 'wamid.HBgLMTQxMjU1NTA4MjkVAgASGBQzQUNCNjk5RDUwNUZGMUZEM0VBRAA=';
const secret = 'inbound-content-app-secret';

const t = testAppForTests();
let ws: { id: string; key: string };
let numberId: string;
beforeAll(async () => {
  ws = await t.workspace({ defaultCountryCode: '1' });
  await connectNumber(t.ctx, ws.id, {
    phoneNumberId: '106540352242922',
    businessAccountId: '102290129340398',
    displayPhone: '15550783881',
    accessToken: 'unused',
    appSecret: secret,
    verifyToken: 'verify-me',
    graphBaseUrl: 'http://127.0.0.1:9/_sim',
  });
  numberId = (await numberOfWorkspace(t.ctx, t.ctx.db, ws.id))!.id;
  await t.ctx.db.query(
    `INSERT INTO webhook_endpoints (workspace_id, id, url, secret_enc, events)
     VALUES ($1, 'we_received', 'https://example.com/hook', 'unused', '{message.received}')`,
    [ws.id],
  );
  // The message the replies name: one Parley sent.
  const contact = (await t.api('POST', '/contacts', ws.key, { phone: '+16505551234' })).json();
  await t.ctx.db.query(
    `INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, template_name, template_language,
       status, status_rank, wamid)
     VALUES ($1, 'msg_repliedto', 'outbound', $2, '16505551234', 'template', 'promo', 'en', 'read', 4, $3)`,
    [ws.id, contact.id, REPLIED_TO],
  );
});

async function receive(name: string) {
  const payload = fixture(name);
  const body = metaJson(payload);
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/webhooks/whatsapp/${numberId}`,
    payload: body,
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(body, secret) },
  });
  expect(res.statusCode).toBe(200);
  const sent = payload.entry[0].changes[0].value.messages[0];
  const { rows } = await t.ctx.db.query<Record<string, unknown>>(
    `SELECT m.id, m.type, m.text, m.content, m.context_wamid, m.reply_to, m.context, m.referral,
       d.payload->'data' AS event
     FROM messages m LEFT JOIN webhook_deliveries d ON d.workspace_id = m.workspace_id AND d.event_key = m.id
     WHERE m.workspace_id = $1 AND m.wamid = $2`,
    [ws.id, sent.id],
  );
  return { sent, stored: rows[0]! };
}

describe('each inbound type Meta documents, kept with its content', () => {
  it.each([
    ['reaction', '👍', 'reaction'],
    ['image', 'Purchase receipt', 'image'],
    ['video', 'Review of our product', 'video'],
    ['audio', null, 'audio'],
    ['document', 'Lucky Shrub Invoice', 'document'],
    ['sticker', null, 'sticker'],
    ['location', 'Philz Coffee', 'location'],
    ['interactive-button-reply', 'Cancel', 'interactive'],
    ['interactive-list-reply', 'Priority Mail Express', 'interactive'],
    ['button-quick-reply', 'Stop promotions', 'button'],
  ])('%s: its object as sent, and %s for lists', async (name, text, field) => {
    const { sent, stored } = await receive(name);
    expect(stored).toMatchObject({ type: sent.type, text, content: sent[field] });
    expect(stored.event).toMatchObject({ type: sent.type, text, content: sent[field] });
  });

  it('shared contacts: the list as sent, the first name for lists', async () => {
    const { sent, stored } = await receive('contacts');
    expect(stored).toMatchObject({ text: 'Barbara J. Johnson', content: { contacts: sent.contacts } });
  });

  it('a removed reaction and an unsupported message: no text, the reason kept', async () => {
    expect((await receive('reaction-removed')).stored).toMatchObject({
      text: null,
      context_wamid: REPLIED_TO,
    });
    const { sent, stored } = await receive('unsupported');
    expect(stored).toMatchObject({ type: 'unsupported', text: null, content: { errors: sent.errors } });
  });

  it('a reply names the message it answers, by wamid and by Parley id, in the event too', async () => {
    const { stored } = await receive('button-quick-reply');
    expect(stored).toMatchObject({ context_wamid: REPLIED_TO, reply_to: 'msg_repliedto' });
    expect(stored.event).toMatchObject({
      content: { payload: 'STOP' },
      context: { wamid: REPLIED_TO, message_id: 'msg_repliedto' },
    });
    const reaction = await receive('reaction');
    expect(reaction.stored).toMatchObject({ context_wamid: REPLIED_TO, reply_to: 'msg_repliedto' });
  });
});

describe('what Meta sends beside the content', () => {
  it('a Click to WhatsApp ad: the referral is kept, announced and answered by GET /messages/:id', async () => {
    const { sent, stored } = await receive('text-referral');
    expect(stored).toMatchObject({ text: 'Can I get more info about this?', referral: sent.referral });
    expect(stored.event).toMatchObject({ referral: sent.referral, context: null });
    const view = (await t.api('GET', `/messages/${stored.id}`, ws.key)).json();
    expect(view).toMatchObject({
      direction: 'inbound',
      type: 'text',
      text: 'Can I get more info about this?',
      content: { body: 'Can I get more info about this?' },
      context: null,
      referral: { ctwa_clid: sent.referral.ctwa_clid, headline: 'Chat with us', source_type: 'ad' },
    });
  });

  it('a forwarded message says so, with no message replied to', async () => {
    const { stored } = await receive('text-forwarded');
    expect(stored).toMatchObject({ context: { forwarded: true }, context_wamid: null, referral: null });
    expect(stored.event).toMatchObject({ context: { forwarded: true, wamid: null, message_id: null } });
    const view = (await t.api('GET', `/messages/${stored.id}`, ws.key)).json();
    expect(view.context).toEqual({
      wamid: null,
      message_id: null,
      forwarded: true,
      frequently_forwarded: false,
      referred_product: null,
    });
  });

  it('a question about a catalog item names the product', async () => {
    const { sent, stored } = await receive('text-product-enquiry');
    const product = sent.context.referred_product;
    expect(stored).toMatchObject({ context: sent.context, context_wamid: sent.context.id });
    expect(stored.event).toMatchObject({ context: { referred_product: product, wamid: sent.context.id } });
    const view = (await t.api('GET', `/messages/${stored.id}`, ws.key)).json();
    expect(view.context).toMatchObject({
      wamid: sent.context.id,
      forwarded: false,
      referred_product: product,
    });
  });

  it('GET /messages/:id answers a shared location with its content, a reply with what it replies to', async () => {
    const { sent, stored } = await receive('location');
    const view = (await t.api('GET', `/messages/${stored.id}`, ws.key)).json();
    expect(view).toMatchObject({ type: 'location', text: 'Philz Coffee', content: sent.location });
    const reply = await receive('interactive-button-reply');
    const answered = (await t.api('GET', `/messages/${reply.stored.id}`, ws.key)).json();
    expect(answered.context).toMatchObject({ wamid: REPLIED_TO, message_id: 'msg_repliedto' });
    const other = await t.workspace();
    expect((await t.api('GET', `/messages/${stored.id}`, other.key)).statusCode).toBe(404);
  });
});
