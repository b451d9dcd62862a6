import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulator } from './plugin.js';
import { SimState } from './state.js';
import { simAppId } from './uploads.js';

const OPERATOR = 'operator-token-0123456789';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const number = (id: string) => ({
  phoneNumberId: id,
  businessAccountId: `waba${id}`,
  displayPhone: '+1 555 0100',
  accessToken: `token-of-${id}`,
  appSecret: `secret-of-${id}`,
  webhookUrl: `http://127.0.0.1:9/api/webhooks/whatsapp/pn_${id}`,
});

describe("the simulator's Resumable Upload API (template header samples)", () => {
  let app: FastifyInstance;
  const state = new SimState();
  const oauth = (id = '111') => ({ authorization: `OAuth token-of-${id}` });

  beforeAll(async () => {
    app = Fastify();
    await app.register(simulator, {
      prefix: '/_sim',
      state,
      operatorToken: OPERATOR,
      receiverBase: 'http://127.0.0.1:9',
    });
    await app.ready();
    for (const id of ['111', '222']) {
      state.numbers.set(id, number(id));
      state.templates.set(`waba${id}`, []);
    }
  });
  afterAll(() => app.close());

  const appOf = async (id = '111') =>
    (await app.inject({ method: 'GET', url: '/_sim/v21.0/app', headers: oauth(id) })).json().id as string;
  const session = async (query: Record<string, string>, id = '111') =>
    app.inject({
      method: 'POST',
      url: `/_sim/v21.0/${await appOf(id)}/uploads?${new URLSearchParams(query)}`,
      headers: { authorization: `Bearer token-of-${id}` },
    });
  const png = (id = '111') =>
    session({ file_name: 'sample.png', file_length: String(PNG.length), file_type: 'image/png' }, id);
  const send = (uploadId: string, bytes: Buffer, offset: number, headers = oauth()) =>
    app.inject({
      method: 'POST',
      url: `/_sim/v21.0/${uploadId}`,
      headers: { ...headers, file_offset: String(offset), 'content-type': 'application/octet-stream' },
      payload: bytes,
    });
  const createTemplate = (wabaId: string, handle: string, id = '111') =>
    app.inject({
      method: 'POST',
      url: `/_sim/v21.0/${wabaId}/message_templates`,
      headers: { authorization: `Bearer token-of-${id}` },
      payload: {
        name: `promo_${Math.random().toString(36).slice(2, 8)}`,
        language: 'en_US',
        category: 'MARKETING',
        components: [
          { type: 'HEADER', format: 'IMAGE', example: { header_handle: [handle] } },
          { type: 'BODY', text: 'Sale!' },
        ],
      },
    });

  it('names the token’s app, opens a session, takes the bytes in two goes resumed at file_offset, answers a handle', async () => {
    expect(await appOf()).toBe(simAppId({ businessAccountId: 'waba111' }));
    const opened = await png();
    expect(opened.statusCode).toBe(200);
    const { id } = opened.json();
    expect(id).toMatch(/^upload:/);
    const first = await send(id, PNG.subarray(0, 20), 0);
    expect(first.json()).toEqual({ id, file_offset: 20 });
    const status = await app.inject({ method: 'GET', url: `/_sim/v21.0/${id}`, headers: oauth() });
    expect(status.json()).toEqual({ id, file_offset: 20 });
    const wrong = await send(id, PNG.subarray(0), 0);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.error_data.details).toMatch(
      /file_offset 0 is not where this upload stands \(20\)/,
    );
    const done = await send(id, PNG.subarray(20), 20);
    expect(done.statusCode).toBe(200);
    const { h } = done.json();
    expect(h).toMatch(/^4::aW1hZ2UvcG5n:/);
    expect((await createTemplate('waba111', h)).statusCode).toBe(200);
  });

  it('refuses another account’s token (401, code 190) on the app’s session and its bytes', async () => {
    const { id } = (await png()).json();
    const other = await send(id, PNG, 0, oauth('222'));
    expect(other.statusCode).toBe(401);
    expect(other.json().error.code).toBe(190);
    const none = await app.inject({ method: 'GET', url: `/_sim/v21.0/${id}` });
    expect(none.statusCode).toBe(401);
    const appOf111 = await appOf('111');
    const opened = await app.inject({
      method: 'POST',
      url: `/_sim/v21.0/${appOf111}/uploads?file_length=10&file_type=image/png`,
      headers: oauth('222'),
    });
    expect(opened.statusCode).toBe(401);
    expect(opened.json().error.code).toBe(190);
  });

  it('refuses a type Meta does not take for a sample, and bytes that are not the declared type', async () => {
    const text = await session({ file_name: 'a.txt', file_length: '10', file_type: 'text/plain' });
    expect(text.statusCode).toBe(400);
    expect(text.json().error.error_data.details).toMatch(/file_type must be one of image\/jpeg, image\/png/);
    const { id } = (await session({ file_length: String(PNG.length), file_type: 'image/jpeg' })).json();
    const notJpeg = await send(id, PNG, 0);
    expect(notJpeg.statusCode).toBe(400);
    expect(notJpeg.json().error.error_data.details).toBe('The file is not image/jpeg');
  });

  it("refuses a file over Meta's limit for its type, and more bytes than the session's file_length", async () => {
    const big = await session({ file_length: String(5_000_001), file_type: 'image/png' });
    expect(big.statusCode).toBe(400);
    expect(big.json().error.error_data.details).toMatch(/too big: at most 5000000 bytes for image\/png/);
    expect((await session({ file_length: String(5_000_000), file_type: 'image/png' })).statusCode).toBe(200);
    const { id } = (await session({ file_length: '10', file_type: 'image/png' })).json();
    const over = await send(id, PNG, 0);
    expect(over.statusCode).toBe(400);
    expect(over.json().error.error_data.details).toMatch(/More bytes than file_length \(10\)/);
  });

  it('takes no more bytes once complete, and refuses a handle it did not issue, or issued to another app', async () => {
    const { id } = (await png()).json();
    const { h } = (await send(id, PNG, 0)).json();
    const again = await send(id, PNG, PNG.length);
    expect(again.statusCode).toBe(400);
    expect(again.json().error.error_data.details).toMatch(/complete; start a new one/);
    const made = await createTemplate('waba111', '4::aW1hZ2UvcG5n:made-up');
    expect(made.statusCode).toBe(400);
    expect(made.json().error.error_data.details).toMatch(/not a handle this app uploaded/);
    const elsewhere = await createTemplate('waba222', h, '222');
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().error.error_data.details).toMatch(/not a handle this app uploaded/);
  });
});
