import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/support/app.js';
import { workspaceWithOwner } from '../../../test/support/app-session.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { jpeg, multipart } from '../../../test/support/media-files.js';
import { connectSimulator, listen, simState } from '../../../test/support/messaging.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const t = await createTestApp();
const base = await listen(t);
afterAll(() => t.close());

const a = await workspaceWithOwner(t);
const number = await connectSimulator(t, base, a.workspaceId);

const upload = (key: string, file: Buffer, filename = 'sample.png') => {
  const form = multipart([{ name: 'file', file, filename }]);
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/templates/header-sample',
    headers: { authorization: `Bearer ${key}`, ...form.headers },
    payload: form.payload,
  });
};
const mediaTemplate = (name: string, handle: string) => ({
  name,
  language: 'en_US',
  category: 'MARKETING',
  components: [
    { type: 'HEADER', format: 'IMAGE', example: { header_handle: [handle] } },
    { type: 'BODY', text: 'Our summer sale starts today' },
  ],
});

describe('POST /templates/header-sample (REST v1 and the web app)', () => {
  it("sends the sample through Meta's Resumable Upload API; a template with its handle goes to review", async () => {
    const res = await upload(a.apiKey, PNG);
    expect(res.statusCode, res.body).toBe(200);
    const { handle } = res.json();
    expect(res.json()).toEqual({ result: true, handle, mime_type: 'image/png', file_size: PNG.length });
    expect(simState(t).handles.has(handle)).toBe(true);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/templates',
      headers: { authorization: `Bearer ${a.apiKey}` },
      payload: mediaTemplate('summer_banner', handle),
    });
    expect(created.statusCode, created.body).toBe(201);
    const held = simState(t)
      .templates.get(number.businessAccountId)!
      .find((x) => x.name === 'summer_banner')!;
    expect(held.components?.[0]).toMatchObject({ format: 'IMAGE', example: { header_handle: [handle] } });
  });

  it('resumes an upload whose connection broke, from the offset the network says it has', async () => {
    simState(t).breakNextUploadAfter = 30;
    const res = await upload(a.apiKey, jpeg(4_000), 'photo.jpg');
    expect(res.statusCode, res.body).toBe(200);
    expect(simState(t).breakNextUploadAfter).toBeNull();
    const session = [...simState(t).uploads.values()].find((u) => u.handle === res.json().handle)!;
    expect(session).toMatchObject({ fileType: 'image/jpeg', fileLength: 4_000, received: 4_000 });
  });

  it('takes it from the web app', async () => {
    const form = multipart([{ name: 'file', file: PNG, filename: 'sample.png' }]);
    const res = await a.client.call('POST', '/templates/header-sample', form.payload, form.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().handle).toMatch(/^4::/);
  });

  it('refuses what is no image, video or PDF (415), a sample over its limit (413), no file (422), no number (409)', async () => {
    const text = await upload(a.apiKey, Buffer.from('just words, no picture'), 'note.txt');
    expectRestError(text, 415, 'unsupported_media_type');
    expect(text.json().error.message).toBe(
      'A header sample is a JPEG or PNG image, an MP4 video or a PDF document',
    );
    const big = await upload(a.apiKey, jpeg(5_000_001), 'big.jpg');
    expectRestError(big, 413, 'payload_too_large');
    expect(big.json().error.message).toBe('A image/jpeg sample is at most 5 MB');
    const form = multipart([{ name: 'note', value: 'x' }]);
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/v1/templates/header-sample',
      headers: { authorization: `Bearer ${a.apiKey}`, ...form.headers },
      payload: form.payload,
    });
    expectRestError(none, 422, 'validation_error');
    const bare = await workspaceWithOwner(t);
    expectRestError(await upload(bare.apiKey, PNG), 409, 'no_connected_number');
  });

  it('answers 422 when a template carries a handle the network never issued', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/templates',
      headers: { authorization: `Bearer ${a.apiKey}` },
      payload: mediaTemplate('made_up_sample', '4::aW1hZ2UvcG5n:never-uploaded'),
    });
    expectRestError(res, 422, 'validation_error');
    expect(res.json().error.message).toMatch(/not a handle this app uploaded/);
  });
});
