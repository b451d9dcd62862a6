import { createHmac } from 'node:crypto';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { workspaceWithNumber } from '../../../test/support/messaging.js';
import { DatabaseUnreachableError } from '../../db/outage.js';
import { hubSignature } from './cloud-api/signature.js';
import type { ConnectedNumber } from './connected-numbers.js';

// What the receiver does with a delivery from the network that is not all well formed: each item
// stands alone, a bad one is logged and skipped, and the delivery is acknowledged so that Meta's
// redelivery does not jam on it for ever.
const lines: Record<string, unknown>[] = [];
const t = testAppForTests({
  log: pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line)) }),
});

const connected = () => workspaceWithNumber(t, 'http://127.0.0.1:9');

const now = () => String(Math.floor(Date.now() / 1000));

function messagesChange(number: ConnectedNumber, value: Record<string, unknown>) {
  return {
    field: 'messages',
    value: {
      messaging_product: 'whatsapp',
      metadata: { display_phone_number: '15550100', phone_number_id: number.phoneNumberId },
      ...value,
    },
  };
}

function payload(number: ConnectedNumber, changes: unknown[]) {
  return { object: 'whatsapp_business_account', entry: [{ id: number.businessAccountId, changes }] };
}

function post(number: ConnectedNumber, body: unknown) {
  const raw = JSON.stringify(body);
  return t.app.inject({
    method: 'POST',
    url: `/api/webhooks/whatsapp/${number.id}`,
    payload: raw,
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(raw, 'app-secret') },
  });
}

async function inbound(workspaceId: string) {
  const { rows } = await t.ctx.db.query<{ wamid: string; phone: string; text: string | null }>(
    "SELECT wamid, phone, text FROM messages WHERE workspace_id = $1 AND direction = 'inbound' ORDER BY wamid",
    [workspaceId],
  );
  return rows;
}

const text = (id: string, from: string, body: string) => ({
  from,
  id,
  timestamp: now(),
  type: 'text',
  text: { body },
});

describe('a webhook delivery holding a malformed item', () => {
  it('stores the good message beside one without a timestamp, answers 200, and logs the bad one', async () => {
    const ws = await connected();
    const { timestamp: _, ...noTimestamp } = text('wamid.no-ts', '14155550101', 'secret words');
    const body = payload(ws.number, [
      messagesChange(ws.number, {
        contacts: [{ profile: { name: 'Ana' }, wa_id: '14155550101' }],
        messages: [noTimestamp, text('wamid.good', '14155550101', 'hello')],
      }),
    ]);
    for (let i = 0; i < 2; i++) expect((await post(ws.number, body)).statusCode).toBe(200);
    expect(await inbound(ws.id)).toEqual([{ wamid: 'wamid.good', phone: '14155550101', text: 'hello' }]);

    const skipped = lines.filter((l) => l.msg === 'webhook item skipped' && l.wamid === 'wamid.no-ts');
    expect(skipped).toHaveLength(2);
    expect(skipped[0]).toMatchObject({ level: 40, deliveryId: expect.stringMatching(/^[0-9a-f]{16}$/) });
    expect(String(skipped[0]!.problem)).toMatch(/timestamp/);
    // The same bytes redelivered carry the same delivery id; no message content is logged.
    expect(skipped[1]!.deliveryId).toBe(skipped[0]!.deliveryId);
    expect(JSON.stringify(lines)).not.toContain('secret words');
  });

  it.each([
    ['a timestamp that is not a number', { timestamp: 'yesterday' }],
    ['no id', { id: undefined }],
    ['an id that is not text', { id: 42 }],
    ['a sender that is not a number', { from: 'not a phone' }],
    ['a text body that is not text', { text: { body: { nested: true } } }],
    ['an id too long to index', { id: `wamid.${'x'.repeat(5000)}` }],
  ])('skips a message with %s and keeps the rest', async (_name, change) => {
    const ws = await connected();
    const bad = { ...text('wamid.bad', '14155550102', 'x'), ...change };
    const res = await post(
      ws.number,
      payload(ws.number, [
        messagesChange(ws.number, { messages: [bad, text('wamid.ok', '14155550102', 'fine')] }),
      ]),
    );
    expect(res.statusCode).toBe(200);
    expect(await inbound(ws.id)).toEqual([{ wamid: 'wamid.ok', phone: '14155550102', text: 'fine' }]);
  });

  it('stores text PostgreSQL cannot hold as it can: U+0000 and lone surrogates become U+FFFD', async () => {
    const ws = await connected();
    const m = text('wamid.nul', '14155550107', 'a\u0000b\ud800c');
    expect(
      (await post(ws.number, payload(ws.number, [messagesChange(ws.number, { messages: [m] })]))).statusCode,
    ).toBe(200);
    expect(await inbound(ws.id)).toEqual([
      { wamid: 'wamid.nul', phone: '14155550107', text: 'a\ufffdb\ufffdc' },
    ]);
  });

  it('keeps going past a malformed entry, change or status', async () => {
    const ws = await connected();
    const body = {
      object: 'whatsapp_business_account',
      entry: [
        null,
        { id: ws.number.businessAccountId, changes: 'not a list' },
        {
          id: ws.number.businessAccountId,
          changes: [
            null,
            { field: 'messages', value: 'not an object' },
            messagesChange(ws.number, {
              statuses: [
                null,
                { id: 42, status: 'sent' },
                { id: 'wamid.unknown', status: 'failed', errors: [{ code: 'not-a-number' }] },
              ],
              messages: 'not a list',
            }),
            messagesChange(ws.number, { messages: [text('wamid.after', '14155550103', 'still here')] }),
          ],
        },
      ],
    };
    expect((await post(ws.number, body)).statusCode).toBe(200);
    expect(await inbound(ws.id)).toEqual([
      { wamid: 'wamid.after', phone: '14155550103', text: 'still here' },
    ]);
  });
});

describe('a failed status', () => {
  it('keeps the error code when it is a number or a numeric string, and names any other in the reason', async () => {
    const ws = await connected();
    const contact = await t.api('POST', '/contacts', ws.key, { phone: '+14155550110' });
    for (const id of ['msg_a', 'msg_b', 'msg_c']) {
      await t.ctx.db.query(
        `INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, template_name, template_language,
           template_values, status, status_rank, wamid)
         VALUES ($1, $2, 'outbound', $3, '14155550110', 'template', 'hello', 'en_US', '[]', 'accepted', 1, $4)`,
        [ws.id, id, contact.json().id, `wamid.${id}`],
      );
    }
    const failed = (id: string, code: unknown) => ({
      id: `wamid.${id}`,
      status: 'failed',
      timestamp: now(),
      recipient_id: '14155550110',
      errors: [{ code, title: 'Undeliverable', error_data: { details: 'Message Undeliverable.' } }],
    });
    const res = await post(
      ws.number,
      payload(ws.number, [
        messagesChange(ws.number, {
          statuses: [failed('msg_a', 131026), failed('msg_b', '131026'), failed('msg_c', 'E_WEIRD')],
        }),
      ]),
    );
    expect(res.statusCode).toBe(200);
    const { rows } = await t.ctx.db.query(
      'SELECT id, status, error_code, error_reason FROM messages WHERE workspace_id = $1 ORDER BY id',
      [ws.id],
    );
    expect(rows).toEqual([
      { id: 'msg_a', status: 'failed', error_code: 131026, error_reason: 'Message Undeliverable.' },
      { id: 'msg_b', status: 'failed', error_code: 131026, error_reason: 'Message Undeliverable.' },
      {
        id: 'msg_c',
        status: 'failed',
        error_code: 0,
        error_reason: 'Message Undeliverable. (network code E_WEIRD)',
      },
    ]);
  });
});

describe('a sender given only as a business-scoped user id', () => {
  it('is stored under the phone number the contacts array gives for that user id', async () => {
    const ws = await connected();
    const { from: _, ...m } = text('wamid.bsuid-phone', '', 'by user id');
    const res = await post(
      ws.number,
      payload(ws.number, [
        messagesChange(ws.number, {
          contacts: [{ profile: { name: 'Bo' }, wa_id: '14155550104', user_id: 'US.13491208655302741918' }],
          messages: [{ ...m, from_user_id: 'US.13491208655302741918' }],
        }),
      ]),
    );
    expect(res.statusCode).toBe(200);
    expect(await inbound(ws.id)).toEqual([
      { wamid: 'wamid.bsuid-phone', phone: '14155550104', text: 'by user id' },
    ]);
  });

  it('with no phone number anywhere, is skipped with a log line, never a 500 or database text', async () => {
    const ws = await connected();
    const { from: _, ...m } = text('wamid.bsuid-only', '', 'no phone');
    const res = await post(
      ws.number,
      payload(ws.number, [
        messagesChange(ws.number, {
          contacts: [{ profile: { name: 'Cy', username: '@cy' }, user_id: 'US.1349120865530274191' }],
          messages: [
            { ...m, from_user_id: 'US.1349120865530274191' },
            text('wamid.next', '14155550105', 'hi'),
          ],
        }),
      ]),
    );
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toMatch(/null value|violates|column|relation/i);
    expect(await inbound(ws.id)).toEqual([{ wamid: 'wamid.next', phone: '14155550105', text: 'hi' }]);
    const skipped = lines.find((l) => l.msg === 'webhook item skipped' && l.wamid === 'wamid.bsuid-only');
    expect(String(skipped?.problem)).toMatch(/business-scoped user id/);
  });
});

describe("a delivery not signed with the number's app secret", () => {
  // What only the X-Hub-Signature-256 check refuses: the same body, signed right, is stored.
  const signatures: [string, (raw: string) => string | undefined][] = [
    ['no signature', () => undefined],
    ['a signature under another secret', (raw) => hubSignature(raw, 'not-the-app-secret')],
    ['a signature over another body', (raw) => hubSignature(raw.replace('hello', 'hellO'), 'app-secret')],
    [
      'the digest without its sha256= prefix',
      (raw) => hubSignature(raw, 'app-secret').slice('sha256='.length),
    ],
    [
      'an X-Hub-Signature (SHA-1) value',
      (raw) => `sha1=${createHmac('sha1', 'app-secret').update(raw).digest('hex')}`,
    ],
    ['an empty digest', () => 'sha256='],
    ['the right signature with more after it', (raw) => `${hubSignature(raw, 'app-secret')},sha256=00`],
  ];
  const routes: [string, (number: ConnectedNumber) => string][] = [
    ["the number's own URL", (number) => `/api/webhooks/whatsapp/${number.id}`],
    ["the app's URL", () => '/api/webhooks/whatsapp'],
  ];
  const signedPost = (url: string, raw: string, signature: string | undefined) =>
    t.app.inject({
      method: 'POST',
      url,
      payload: raw,
      headers: {
        'content-type': 'application/json',
        ...(signature === undefined ? {} : { 'x-hub-signature-256': signature }),
      },
    });
  const delivery = (number: ConnectedNumber, wamid: string) =>
    JSON.stringify(
      payload(number, [
        messagesChange(number, {
          contacts: [{ profile: { name: 'Ana' }, wa_id: '14155550150' }],
          messages: [text(wamid, '14155550150', 'hello')],
        }),
      ]),
    );

  describe.each(routes)('at %s', (_route, urlOf) => {
    it.each(signatures)('is refused with %s, and nothing is stored', async (_name, sign) => {
      const ws = await connected();
      const raw = delivery(ws.number, 'wamid.unsigned');
      const res = await signedPost(urlOf(ws.number), raw, sign(raw));
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'bad signature' });
      expect(await inbound(ws.id)).toEqual([]);
      const { rows } = await t.ctx.db.query('SELECT 1 FROM contacts WHERE workspace_id = $1', [ws.id]);
      expect(rows).toEqual([]);
    });

    it('is stored when the same body is signed right', async () => {
      const ws = await connected();
      const raw = delivery(ws.number, 'wamid.signed');
      const res = await signedPost(urlOf(ws.number), raw, hubSignature(raw, 'app-secret'));
      expect(res.statusCode).toBe(200);
      expect(await inbound(ws.id)).toEqual([{ wamid: 'wamid.signed', phone: '14155550150', text: 'hello' }]);
    });
  });
});

describe('the order of a conversation', () => {
  it("puts a reply after the question sent earlier in the same whole second of Meta's timestamp", async () => {
    const ws = await connected();
    const first = {
      ...text('wamid.first', '14155550107', 'hi'),
      timestamp: String(Math.floor(Date.now() / 1000) - 60),
    };
    await post(ws.number, payload(ws.number, [messagesChange(ws.number, { messages: [first] })]));
    // The question goes out now, to the millisecond; the reply comes stamped with the same second, floored.
    const asked = new Date();
    await t.ctx.db.query(
      `INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, text, status, status_rank, created_at)
       SELECT $1, 'msg_question', 'outbound', contact_id, phone, 'text', 'Which one?', 'sent', 1, $2
       FROM messages WHERE workspace_id = $1 AND wamid = 'wamid.first'`,
      [ws.id, asked],
    );
    const reply = {
      ...text('wamid.reply', '14155550107', 'The red one'),
      timestamp: String(Math.floor(asked.getTime() / 1000)),
    };
    await post(ws.number, payload(ws.number, [messagesChange(ws.number, { messages: [reply] })]));
    const { rows } = await t.ctx.db.query<{ text: string }>(
      'SELECT text FROM messages WHERE workspace_id = $1 ORDER BY created_at',
      [ws.id],
    );
    expect(rows.map((r) => r.text)).toEqual(['hi', 'Which one?', 'The red one']);
  });
});

describe('when Parley itself cannot store', () => {
  it('lets the database failure through, so the delivery is not acknowledged and Meta retries', async () => {
    const ws = await connected();
    const query = t.ctx.db.transaction;
    // What the database layer throws when it cannot reach the server (src/db/outage.ts).
    const driver = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    t.ctx.db.transaction = () => Promise.reject(new DatabaseUnreachableError({ cause: driver }));
    try {
      const res = await post(
        ws.number,
        payload(ws.number, [
          messagesChange(ws.number, { messages: [text('wamid.down', '14155550106', 'x')] }),
        ]),
      );
      expect(res.statusCode).toBe(503);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.body).not.toContain('ECONNREFUSED');
    } finally {
      t.ctx.db.transaction = query;
    }
    expect(await inbound(ws.id)).toEqual([]);
  });
});
