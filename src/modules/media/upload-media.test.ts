import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/support/app.js';
import { workspaceWithOwner } from '../../../test/support/app-session.js';
import { jpeg, multipart, pdf, webp } from '../../../test/support/media-files.js';
import { connectSimulator, listen, simControl, simState } from '../../../test/support/messaging.js';
import { PROMO } from '../../../test/support/rich-template.js';
import { createTemplate } from '../templates/create-template.js';
import { syncTemplates } from '../templates/sync-templates.js';

const dataDir = mkdtempSync(join(tmpdir(), 'parley-media-'));
const t = await createTestApp({ env: { DATA_DIR: dataDir } });
const base = await listen(t);
afterAll(() => t.close());

const a = await workspaceWithOwner(t);
const number = await connectSimulator(t, base, a.workspaceId);
const CUSTOMER = '919812345601';

const upload = (key: string, parts: Parameters<typeof multipart>[0]) => {
  const form = multipart(parts);
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/media',
    headers: { authorization: `Bearer ${key}`, ...form.headers },
    payload: form.payload,
  });
};
const storedFiles = () => {
  try {
    return readdirSync(join(dataDir, 'media', a.workspaceId)).length;
  } catch {
    return 0;
  }
};
const networkHolds = () => simState(t).media.size;

describe('POST /api/v1/media', () => {
  it('passes a JPEG to the number on the network and answers its media id, which a message then sends', async () => {
    const file = jpeg(3_000);
    const res = await upload(a.apiKey, [
      { name: 'type', value: 'image/jpeg' },
      { name: 'file', file, filename: 'photo.jpg', type: 'image/jpeg' },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    // Counted against the key's rate limit like every v1 call.
    expect(res.headers.ratelimit).toMatch(/^"key";r=\d+;t=\d+$/);
    const body = res.json();
    expect(body).toMatchObject({ result: true, kind: 'image', mime_type: 'image/jpeg', file_size: 3_000 });
    const held = simState(t).media.get(body.id)!;
    expect(held.phoneNumberId).toBe(number.phoneNumberId);
    expect(held.bytes.equals(file)).toBe(true);
    expect(body.sha256).toBe(held.sha256);

    await simControl(base, '/inbound', { from: CUSTOMER, text: 'hi', phone_number_id: number.phoneNumberId });
    const sent = await t.api('POST', '/messages', a.apiKey, {
      to: CUSTOMER,
      type: 'image',
      image: { id: body.id },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().status).toBe('accepted');
    // What was sent is shown from Parley's own copy.
    const shown = await a.client.call('GET', `/messages/${sent.json().id}/media`);
    expect(shown.statusCode).toBe(200);
    expect(shown.rawPayload.equals(file)).toBe(true);
    expect(shown.headers['content-type']).toBe('image/jpeg');
  });

  it("works as a template's image header, and the app shows the header from Parley's copy", async () => {
    await createTemplate(t.ctx, a.workspaceId, PROMO);
    await simControl(
      base,
      `/templates/summer_sale/en_US/approve?business_account_id=${number.businessAccountId}`,
    );
    await syncTemplates(t.ctx, number);
    const file = jpeg(2_500);
    const uploaded = await upload(a.apiKey, [
      { name: 'file', file, filename: 'sale.jpg', type: 'image/jpeg' },
    ]);
    const sent = await t.api('POST', '/messages', a.apiKey, {
      to: '919812345699',
      template: {
        name: 'summer_sale',
        language: 'en_US',
        header: { id: uploaded.json().id },
        body: { first_name: 'Asha', discount: '20%' },
        buttons: [{ index: 0, text: 's25' }],
      },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json().status).toBe('accepted');
    const shown = await a.client.call('GET', `/messages/${sent.json().id}/media`);
    expect(shown.statusCode).toBe(200);
    expect(shown.rawPayload.equals(file)).toBe(true);
  });

  it('takes the type from the bytes: a file declared as one type and holding another is refused with 415', async () => {
    const before = networkHolds();
    const res = await upload(a.apiKey, [
      { name: 'file', file: jpeg(), filename: 'x.png', type: 'image/png' },
    ]);
    expect(res.statusCode).toBe(415);
    expect(res.json().error).toMatchObject({ code: 'unsupported_media_type' });
    expect(res.json().error.message).toContain('image/jpeg');
    // A `type` field after the file is checked as well.
    const late = await upload(a.apiKey, [
      { name: 'file', file: jpeg(), filename: 'x.jpg' },
      { name: 'type', value: 'application/pdf' },
    ]);
    expect(late.statusCode).toBe(415);
    expect(networkHolds()).toBe(before);
  });

  it.each([
    ['HTML', Buffer.from('<html><script>alert(1)</script></html>'), 'text/html'],
    [
      'SVG',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      'image/svg+xml',
    ],
    ['HTML declared as plain text', Buffer.from('<html>\u0000</html>'), 'text/plain'],
    ['an unknown binary', Buffer.from([0, 1, 2, 3, 4, 5, 6, 7]), undefined],
  ])('refuses %s with 415, keeping nothing', async (_what, file, type) => {
    const before = storedFiles();
    const res = await upload(a.apiKey, [{ name: 'file', file, filename: 'f', ...(type ? { type } : {}) }]);
    expect(res.statusCode).toBe(415);
    expect(storedFiles()).toBe(before);
  });

  it("refuses a file past Meta's limit for its type with 413, as soon as it passes it, keeping nothing", async () => {
    const before = { files: storedFiles(), network: networkHolds() };
    const big = await upload(a.apiKey, [{ name: 'file', file: jpeg(5_000_001), filename: 'big.jpg' }]);
    expect(big.statusCode).toBe(413);
    expect(big.json().error.code).toBe('payload_too_large');
    expect(big.json().error.message).toContain('5 MB');
    const sticker = await upload(a.apiKey, [{ name: 'file', file: webp(100_001), filename: 's.webp' }]);
    expect(sticker.statusCode).toBe(413);
    expect(sticker.json().error.message).toContain('100 KB');
    expect({ files: storedFiles(), network: networkHolds() }).toEqual(before);
    // An animated sticker may be larger; exactly at a limit is allowed.
    const animated = await upload(a.apiKey, [
      { name: 'file', file: webp(100_001, true), filename: 's.webp' },
    ]);
    expect(animated.statusCode, animated.body).toBe(200);
    expect(animated.json().kind).toBe('sticker');
    const atLimit = await upload(a.apiKey, [{ name: 'file', file: jpeg(5_000_000), filename: 'ok.jpg' }]);
    expect(atLimit.statusCode).toBe(200);
  });

  it('keeps a hostile file name harmless: no path, no quotes, no header breaks', async () => {
    // As a browser writes such a name into the form (quotes and line breaks percent-encoded).
    const res = await upload(a.apiKey, [
      {
        name: 'file',
        file: pdf(),
        filename: '../..\\etc/<b>pa%22ss\twd%0D%0Ax.pdf',
        type: 'application/pdf',
      },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const { rows } = await t.ctx.db.query<{ file_name: string; storage_key: string }>(
      'SELECT file_name, storage_key FROM media WHERE workspace_id = $1 AND network_id = $2',
      [a.workspaceId, res.json().id],
    );
    expect(rows[0]!.file_name).toMatch(/^[\w. ()-]+$/);
    expect(rows[0]!.file_name).not.toContain('..');
    expect(rows[0]!.storage_key).toMatch(new RegExp(`^${a.workspaceId}/med_`));
    const sent = await t.api('POST', '/messages', a.apiKey, {
      to: CUSTOMER,
      type: 'document',
      document: { id: res.json().id },
    });
    const shown = await a.client.call('GET', `/messages/${sent.json().id}/media`);
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-disposition']).toMatch(
      /^attachment; filename="[\w. ()-]+"; filename\*=UTF-8''/,
    );
  });

  it('takes plain text declared as such as a document', async () => {
    const res = await upload(a.apiKey, [
      { name: 'type', value: 'text/plain' },
      { name: 'file', file: Buffer.from('Opening hours: 9 to 5\n'), filename: 'hours.txt' },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ kind: 'document', mime_type: 'text/plain' });
  });

  it('takes multipart on this route alone: the other v1 routes still answer it 415', async () => {
    const form = multipart([{ name: 'phone', value: '919812345601' }]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/contacts',
      headers: { authorization: `Bearer ${a.apiKey}`, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode).toBe(415);
  });

  it('answers 415 for a body that is not multipart, 422 without a file, 409 without a number', async () => {
    const json = await t.api('POST', '/media', a.apiKey, { file: 'x' });
    expect(json.statusCode).toBe(415);
    const none = await upload(a.apiKey, [{ name: 'type', value: 'image/jpeg' }]);
    expect(none.statusCode).toBe(422);
    expect(none.json().error.details[0].field).toBe('file');
    const other = await t.workspace();
    const unconnected = await upload(other.key, [{ name: 'file', file: jpeg(), filename: 'a.jpg' }]);
    expect(unconnected.statusCode).toBe(409);
    expect(unconnected.json().error.code).toBe('no_connected_number');
  });

  it("answers the network's refusal as a 422 on the file, and an unreachable network as 503", async () => {
    const held = simState(t).numbers.get(number.phoneNumberId)!;
    const token = held.accessToken;
    held.accessToken = 'revoked';
    const refused = await upload(a.apiKey, [{ name: 'file', file: jpeg(), filename: 'a.jpg' }]);
    held.accessToken = token;
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.message).toContain('code 190');
    await t.ctx.db.query('UPDATE connected_numbers SET graph_base_url = $2 WHERE workspace_id = $1', [
      a.workspaceId,
      'http://127.0.0.1:9',
    ]);
    const down = await upload(a.apiKey, [{ name: 'file', file: jpeg(), filename: 'a.jpg' }]);
    await t.ctx.db.query('UPDATE connected_numbers SET graph_base_url = $2 WHERE workspace_id = $1', [
      a.workspaceId,
      `${base}/_sim`,
    ]);
    expect(down.statusCode).toBe(503);
    expect(down.json().error.code).toBe('unavailable');
  });
});
