import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OnMessageArgs, OnStatusArgs } from 'whatsapp-api-js/emitters';
import { BodyComponent, BodyParameter, Language, Template, Text } from 'whatsapp-api-js/messages';
import { WhatsAppAPI } from 'whatsapp-api-js/middleware/node-http';
import type {
  ServerErrorResponse,
  ServerMarkAsReadResponse,
  ServerMessageResponse,
  ServerSentMessageResponse,
} from 'whatsapp-api-js/types';
import { until } from '../../test/support/until.js';
import { CloudApiClient } from '../modules/messaging/cloud-api/client.js';
import type { TemplateListResponse } from '../modules/messaging/cloud-api/types.js';
import { simulator } from './plugin.js';
import { SimState } from './state.js';

// A third-party WhatsApp Cloud API library (whatsapp-api-js) talks to the simulator as it talks to
// Meta: every Graph call Parley makes, and a webhook receiver that checks signatures as Meta
// documents them (over the escaped JSON). What it accepts from the simulator, it accepts from Meta.

const OPERATOR = 'operator-token-0123456789';
const PHONE_ID = '106540352242922';
const WABA = '102290129340398';
const TOKEN = 'EAA-contract-token';
const SECRET = 'contract-app-secret';
const CUSTOMER = '16505551234';

const state = new SimState();
let sim: FastifyInstance;
let simUrl: string;
let receiver: Server;
let receivedStatus: number[];
// A second number's webhook URL on the same receiver.
let receiverHook: string;
const messages: OnMessageArgs[] = [];
const statuses: OnStatusArgs[] = [];
const rawBodies: string[] = [];

// The library's client: its Graph calls go to graph.facebook.com, which the fetch it is given
// sends to the simulator instead (the library has no base URL setting; this is its hook).
const wa = new WhatsAppAPI({
  token: TOKEN,
  appSecret: SECRET,
  v: 'v21.0',
  ponyfill: {
    fetch: (url: string | URL | Request, init?: RequestInit) =>
      fetch(String(url).replace('https://graph.facebook.com', `${simUrl}/_sim`), init),
  },
});
wa.on.message = (args) => {
  messages.push(args);
};
wa.on.status = (args) => {
  statuses.push(args);
};

const control = async (path: string, body: unknown) => {
  const res = await fetch(`${simUrl}/_sim${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${OPERATOR}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Record<string, unknown>;
};

const isError = (r: ServerMessageResponse | ServerMarkAsReadResponse): r is ServerErrorResponse =>
  'error' in r && r.error !== undefined;

beforeAll(async () => {
  receivedStatus = [];
  // The library's own node:http handler is the webhook receiver: it answers 401 when the
  // signature does not match.
  receiver = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    const copy = new Promise<void>((resolve) => {
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve());
    });
    res.statusCode = await wa.handle_post(req);
    await copy;
    rawBodies.push(Buffer.concat(chunks).toString('latin1'));
    receivedStatus.push(res.statusCode);
    res.end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  receiverHook = `${receiverUrl}/api/webhooks/whatsapp/pn_second`;
  sim = Fastify();
  await sim.register(simulator, {
    prefix: '/_sim',
    state,
    operatorToken: OPERATOR,
    receiverBase: receiverUrl,
  });
  await sim.listen({ port: 0, host: '127.0.0.1' });
  simUrl = `http://127.0.0.1:${(sim.server.address() as { port: number }).port}`;
  state.statusDelaysMs = [5, 10, 15];
  await control('/numbers', {
    phoneNumberId: PHONE_ID,
    businessAccountId: WABA,
    displayPhone: '+1 555-078-3881',
    accessToken: TOKEN,
    appSecret: SECRET,
    webhookUrl: `${receiverUrl}/api/webhooks/whatsapp/pn_contract`,
    templates: [
      { name: 'order_update', language: 'en', category: 'UTILITY', body: 'Order {{1}}', status: 'APPROVED' },
      ...Array.from({ length: 6 }, (_, i) => ({
        name: `promo_${i}`,
        language: 'de',
        category: 'MARKETING',
        body: 'Grüße!',
        status: 'APPROVED',
      })),
    ],
  });
});
afterAll(async () => {
  await sim.close();
  receiver.close();
});

describe('webhooks, as a receiver following Meta checks them', () => {
  it('an inbound text with non-ASCII characters passes the library’s signature check and reads back whole', async () => {
    const text = 'Grüße aus Köln – ¿qué tal? 😀';
    const answer = await control('/inbound', {
      from: CUSTOMER,
      text,
      phone_number_id: PHONE_ID,
      name: 'Zoë',
    });
    expect(answer.delivered_status).toBe(200);
    const got = messages.at(-1)!;
    expect(got.message).toMatchObject({ type: 'text', text: { body: text }, from: CUSTOMER });
    expect(got.name).toBe('Zoë');
    expect(got.phoneID).toBe(PHONE_ID);
    // What went over the wire is Meta's form: ASCII only, the rest escaped with lowercase hex.
    const raw = rawBodies.at(-1)!;
    expect(raw).toMatch(/^[\x20-\x7e]+$/);
    expect(raw).toContain('Gr\\u00fc\\u00dfe');
    expect(raw).toContain('\\ud83d\\ude00');
    expect(got.raw.entry[0]!.changes[0]!.value.metadata.display_phone_number).toBe('15550783881');
  });

  it('a send’s sent and delivered statuses carry Meta’s pricing and conversation; read carries neither', async () => {
    const res = await wa.sendMessage(
      PHONE_ID,
      CUSTOMER,
      new Template('promo_0', new Language('de')),
      undefined,
      'Bestellung Nr. 7 – Grüße',
    );
    expect(isError(res)).toBe(false);
    const sent = res as ServerSentMessageResponse;
    expect(sent).toEqual({
      messaging_product: 'whatsapp',
      contacts: [{ input: CUSTOMER, wa_id: CUSTOMER }],
      messages: [{ id: expect.stringMatching(/^wamid\./), message_status: 'accepted' }],
    });
    const wamid = sent.messages[0].id;
    const mine = () => statuses.filter((s) => s.id === wamid);
    await until(() => mine().length === 3);
    expect(receivedStatus.every((s) => s === 200)).toBe(true);
    const [s, d, r] = mine();
    expect(s!.status).toBe('sent');
    // The callback data came back through the escaped, signed body intact.
    expect(s!.biz_opaque_callback_data).toBe('Bestellung Nr. 7 – Grüße');
    const pricing = { billable: true, pricing_model: 'PMP', type: 'regular', category: 'marketing' };
    expect(s!.pricing).toEqual(pricing);
    expect(s!.conversation).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      expiration_timestamp: expect.stringMatching(/^\d+$/),
      origin: { type: 'marketing' },
    });
    expect(d!.status).toBe('delivered');
    expect(d!.pricing).toEqual(pricing);
    expect(d!.conversation).toEqual({ id: s!.conversation!.id, origin: { type: 'marketing' } });
    expect(r!.status).toBe('read');
    expect(r!.pricing).toBeUndefined();
    expect(r!.conversation).toBeUndefined();
  });

  it('free text outside the 24-hour window is accepted, then failed with 131047 in Meta’s error shape', async () => {
    const stranger = '16505559999';
    const res = (await wa.sendMessage(PHONE_ID, stranger, new Text('Hallo'))) as ServerMessageResponse;
    expect(isError(res)).toBe(false);
    const wamid = (res as ServerSentMessageResponse).messages[0].id;
    await until(() => statuses.some((s) => s.id === wamid));
    const mine = statuses.filter((s) => s.id === wamid);
    expect(mine.map((s) => s.status)).toEqual(['failed']);
    expect(mine[0]!.error).toEqual({
      code: 131047,
      title: 'Re-engagement message',
      message: 'Re-engagement message',
      error_data: {
        details:
          'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
      },
      href: '/documentation/business-messaging/whatsapp/support/error-codes',
    });
  });

  it('free text inside the window is free customer service', async () => {
    const res = (await wa.sendMessage(PHONE_ID, CUSTOMER, new Text('Gern!'))) as ServerSentMessageResponse;
    const wamid = res.messages[0].id;
    await until(() => statuses.some((s) => s.id === wamid && s.status === 'sent'));
    expect(statuses.find((s) => s.id === wamid)!.pricing).toEqual({
      billable: false,
      pricing_model: 'PMP',
      type: 'free_customer_service',
      category: 'service',
    });
  });
});

describe('the Graph calls Parley makes, through the library', () => {
  it('sends a template with body values', async () => {
    const res = await wa.sendMessage(
      PHONE_ID,
      CUSTOMER,
      new Template('order_update', new Language('en'), new BodyComponent(new BodyParameter('A-17'))),
    );
    expect(isError(res)).toBe(false);
    expect((res as ServerSentMessageResponse).messages[0].id).toMatch(/^wamid\./);
  });

  it('answers errors in the Graph API’s form: "(#code) title", details, fbtrace_id', async () => {
    const res = await wa.sendMessage(PHONE_ID, CUSTOMER, new Template('nope', new Language('en')));
    expect(isError(res)).toBe(true);
    expect((res as ServerErrorResponse).error).toEqual({
      message: '(#132001) Template name does not exist in the translation',
      type: 'OAuthException',
      code: 132001,
      error_data: { messaging_product: 'whatsapp', details: 'template name (nope) does not exist in en' },
      fbtrace_id: expect.any(String),
    });
  });

  it('marks a received message read: 200 {success: true}', async () => {
    await control('/inbound', { from: CUSTOMER, text: 'hi', phone_number_id: PHONE_ID });
    const inbound = messages.at(-1)!.message.id;
    const res: ServerMarkAsReadResponse = await wa.markAsRead(PHONE_ID, inbound);
    expect(res).toEqual({ success: true });
    const unknown = await wa.markAsRead(PHONE_ID, 'wamid.not-received');
    expect(isError(unknown)).toBe(true);
  });

  it('a read mark covers the message and every earlier one from that customer, as Meta says; the state shows it', async () => {
    const from = '919800011122';
    const wamids: string[] = [];
    for (const text of ['one', 'two', 'three']) {
      wamids.push((await control('/inbound', { from, text, phone_number_id: PHONE_ID })).wamid as string);
    }
    // Parley's own client sends Meta's body: {messaging_product, status: "read", message_id}.
    const parley = new CloudApiClient({
      baseUrl: `${simUrl}/_sim`,
      version: 'v21.0',
      accessToken: TOKEN,
      timeoutMs: 5000,
    });
    await parley.markRead(PHONE_ID, wamids[1]!);
    const res = await fetch(`${simUrl}/_sim/inbound?from=${from}`, {
      headers: { authorization: `Bearer ${OPERATOR}` },
    });
    const { messages: received } = (await res.json()) as {
      messages: { wamid: string; readAt: number | null; readMarks: number }[];
    };
    expect(received.map((m) => [m.wamid, m.readAt !== null, m.readMarks])).toEqual([
      [wamids[2], false, 0],
      [wamids[1], true, 1],
      [wamids[0], true, 0],
    ]);
  });

  it('lists templates a page at a time, by Meta’s cursors, to the last page', async () => {
    const pages: TemplateListResponse[] = [];
    let url: string | undefined =
      `https://graph.facebook.com/v21.0/${WABA}/message_templates?limit=3&fields=id,name`;
    while (url) {
      const page = (await (await wa.$$apiFetch$$(url)).json()) as TemplateListResponse;
      pages.push(page);
      url = page.paging?.next?.replace(`${simUrl}/_sim`, 'https://graph.facebook.com');
    }
    expect(pages.map((p) => p.data.length)).toEqual([3, 3, 1]);
    const ids = pages.flatMap((p) => p.data.map((t) => t.id));
    expect(new Set(ids).size).toBe(7);
    for (const id of ids) expect(id).toMatch(/^\d+$/);
    expect(pages[0]!.paging).toEqual({
      cursors: { before: expect.any(String), after: expect.any(String) },
      next: expect.stringContaining('after='),
    });
    expect(pages[2]!.paging!.next).toBeUndefined();
    // The next link keeps the request's other parameters, as the Graph API's does.
    expect(pages[0]!.paging!.next).toContain('fields=id%2Cname');
    // A page before a cursor, and the default page size of 25.
    const before = (await (
      await wa.$$apiFetch$$(
        `https://graph.facebook.com/v21.0/${WABA}/message_templates?limit=2&before=${pages[1]!.paging!.cursors!.before}`,
      )
    ).json()) as TemplateListResponse;
    expect(before.data.map((t) => t.id)).toEqual(ids.slice(1, 3));
    const all = (await (
      await wa.$$apiFetch$$(`https://graph.facebook.com/v21.0/${WABA}/message_templates`)
    ).json()) as TemplateListResponse;
    expect(all.data).toHaveLength(7);
    expect(all.paging?.next).toBeUndefined();
  });

  it('creates a template: a numeric id, PENDING', async () => {
    const res = await wa.$$apiFetch$$(`https://graph.facebook.com/v21.0/${WABA}/message_templates`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'welcome_back',
        language: 'en',
        category: 'UTILITY',
        components: [{ type: 'BODY', text: 'Welcome back {{1}}', example: { body_text: [['Asha']] } }],
      }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      id: expect.stringMatching(/^\d+$/),
      status: 'PENDING',
      category: 'UTILITY',
    });
  });
});

describe('media, through the library', () => {
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
    Buffer.from('IHDR'),
    Buffer.alloc(200, 1),
  ]);

  it('uploads, retrieves the URL, downloads it with the token, and deletes, in Meta’s shapes', async () => {
    const form = new FormData();
    form.append('file', new Blob([png], { type: 'image/png' }), 'logo.png');
    const uploaded = (await wa.uploadMedia(PHONE_ID, form)) as { id: string };
    expect(uploaded).toEqual({ id: expect.stringMatching(/^\d+$/) });

    const info = (await wa.retrieveMedia(uploaded.id, PHONE_ID)) as Record<string, unknown>;
    expect(info).toEqual({
      messaging_product: 'whatsapp',
      url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/_sim\//),
      mime_type: 'image/png',
      sha256: createHash('sha256').update(png).digest('hex'),
      file_size: png.length,
      id: uploaded.id,
    });
    const file = await wa.fetchMedia(String(info.url));
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(png)).toBe(true);
    // The URL alone is not enough: Meta serves it only with an access token.
    expect((await fetch(String(info.url))).status).toBe(401);

    expect(await wa.deleteMedia(uploaded.id, PHONE_ID)).toEqual({ success: true });
    const gone = (await wa.retrieveMedia(uploaded.id)) as { error?: { code: number } };
    expect(gone.error?.code).toBe(100);
  });

  it('refuses a file that is not what it says, and one too large for its type, with Meta’s codes', async () => {
    const lying = new FormData();
    lying.append('file', new Blob([Buffer.from('<html></html>')], { type: 'image/jpeg' }), 'x.jpg');
    expect(((await wa.uploadMedia(PHONE_ID, lying)) as { error?: { code: number } }).error?.code).toBe(
      131053,
    );
    const big = new FormData();
    big.append(
      'file',
      new Blob([Buffer.concat([png, Buffer.alloc(5_000_000)])], { type: 'image/png' }),
      'b.png',
    );
    const refused = (await wa.uploadMedia(PHONE_ID, big, false)) as ServerErrorResponse;
    expect(refused.error).toMatchObject({
      code: 131053,
      message: '(#131053) Media upload error',
      error_data: { details: expect.stringContaining('Media file size too big') },
    });
  });

  it('delivers an inbound image whose media id the library can read and download', async () => {
    await control('/inbound', {
      from: CUSTOMER,
      phone_number_id: PHONE_ID,
      message: { type: 'image', image: { caption: 'receipt' } },
      media: { mime_type: 'image/png', data_base64: png.toString('base64') },
    });
    const got = messages.at(-1)!.message as {
      type: string;
      image: { id: string; mime_type: string; caption: string };
    };
    expect(got.type).toBe('image');
    expect(got.image).toMatchObject({ caption: 'receipt', mime_type: 'image/png' });
    const info = (await wa.retrieveMedia(got.image.id)) as { url: string };
    const file = await wa.fetchMedia(info.url);
    expect(Buffer.from(await file.arrayBuffer()).equals(png)).toBe(true);
  });
});

it('Parley’s own client reads a template list of many pages whole', async () => {
  const many = Array.from({ length: 230 }, (_, i) => ({
    id: String(5_000_000_000_000 + i),
    name: `bulk_${i}`,
    language: 'en',
    category: 'UTILITY',
    body: 'Hi',
    status: 'APPROVED' as const,
  }));
  state.templates.set('waba-bulk', many);
  state.numbers.set('bulk', {
    ...state.numbers.get(PHONE_ID)!,
    phoneNumberId: 'bulk',
    businessAccountId: 'waba-bulk',
  });
  const client = new CloudApiClient({
    baseUrl: `${simUrl}/_sim`,
    version: 'v21.0',
    accessToken: TOKEN,
    timeoutMs: 5000,
  });
  const listed = await client.listTemplates('waba-bulk');
  expect(listed.map((t) => t.name)).toEqual(many.map((t) => t.name));
});

describe('templates paused or disabled by Meta, through the library', () => {
  it("a paused template answers 132015 and a disabled one 132016, in the words of Meta's error codes page", async () => {
    const held = state.templates.get(WABA)!;
    for (const status of ['PAUSED', 'DISABLED'] as const)
      held.push({
        id: `9${status.length}`,
        name: `low_${status.toLowerCase()}`,
        language: 'en',
        category: 'MARKETING',
        body: 'Hi',
        status,
      });
    const send = async (name: string) =>
      (
        (await wa.sendMessage(
          PHONE_ID,
          CUSTOMER,
          new Template(name, new Language('en')),
        )) as ServerErrorResponse
      ).error;
    expect(await send('low_paused')).toMatchObject({
      code: 132015,
      message: '(#132015) Template is Paused',
      error_data: {
        details: 'Template is paused due to low quality so it cannot be sent in a template message.',
      },
    });
    expect(await send('low_disabled')).toMatchObject({
      code: 132016,
      message: '(#132016) Template is Disabled',
      error_data: {
        details:
          'Template has been paused too many times due to low quality and is now permanently disabled.',
      },
    });
  });
});

describe('POST /_sim/numbers for a number it already has (Parley connecting it)', () => {
  it("keeps the account's templates, given by hand or reviewed, and adds only those it lacks", async () => {
    const number = {
      phoneNumberId: '106540352242999',
      businessAccountId: '102290129340999',
      displayPhone: '+1 555-078-3999',
      accessToken: 'EAA-second-token',
      appSecret: SECRET,
    };
    const byHand = {
      name: 'by_hand',
      language: 'en',
      category: 'UTILITY',
      body: 'Kept {{1}}',
      status: 'APPROVED',
    };
    const register = (templates: unknown[]) =>
      control('/numbers', { ...number, webhookUrl: receiverHook, templates });
    expect(await register([byHand])).toEqual({ ok: true });
    // Parley registers the number with the templates it holds: none of this account's, one of its own.
    const parleys = {
      name: 'from_parley',
      language: 'en',
      category: 'UTILITY',
      body: 'Mine',
      status: 'APPROVED',
    };
    expect(await register([{ ...byHand, body: 'Stale copy' }, parleys])).toEqual({ ok: true });
    const parley = new CloudApiClient({
      baseUrl: `${simUrl}/_sim`,
      version: 'v21.0',
      accessToken: number.accessToken,
      timeoutMs: 5000,
    });
    const listed = await parley.listTemplates(number.businessAccountId);
    expect(listed.map((x) => [x.name, x.components])).toEqual([
      ['by_hand', [{ type: 'BODY', text: 'Kept {{1}}' }]],
      ['from_parley', [{ type: 'BODY', text: 'Mine' }]],
    ]);
  });
});
