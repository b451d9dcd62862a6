import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/support/app.js';
import { workspaceWithOwner } from '../../../test/support/app-session.js';
import { openLiveStream } from '../../../test/support/live.js';
import { jpeg } from '../../../test/support/media-files.js';
import { connectSimulator, listen, simControl } from '../../../test/support/messaging.js';
import { downloadMedia } from './download-media.js';

const t = await createTestApp({ env: { DATA_DIR: mkdtempSync(join(tmpdir(), 'parley-media-')) } });
const base = await listen(t);
afterAll(() => t.close());

const a = await workspaceWithOwner(t);
const b = await workspaceWithOwner(t);
const numberA = await connectSimulator(t, base, a.workspaceId);
await connectSimulator(t, base, b.workspaceId);

/** A customer sends the number a file; answers Parley's stored message and its pending media. */
async function receive(message: Record<string, unknown>, file: Buffer, mime: string) {
  const sent = await simControl<{ wamid: string }>(base, '/inbound', {
    from: '919812345602',
    phone_number_id: numberA.phoneNumberId,
    message,
    media: { mime_type: mime, data_base64: file.toString('base64') },
  });
  expect(sent.status).toBe(200);
  const { rows } = await t.ctx.db.query<{ id: string; media_id: string; state: string }>(
    `SELECT m.id, md.id AS media_id, md.state FROM messages m JOIN media md
       ON md.workspace_id = m.workspace_id AND md.message_id = m.id
     WHERE m.workspace_id = $1 AND m.wamid = $2`,
    [a.workspaceId, sent.body.wamid],
  );
  return rows[0]!;
}

describe('inbound media', () => {
  it('is recorded pending, downloaded by the job through the Graph media endpoint, and served to the workspace', async () => {
    const file = jpeg(4_000);
    const message = await receive({ type: 'image', image: { caption: 'the crack' } }, file, 'image/jpeg');
    expect(message.state).toBe('pending');
    const early = await a.client.call('GET', `/messages/${message.id}/media`);
    expect(early.statusCode).toBe(404);
    expect(early.json().error.code).toBe('media_not_stored');
    expect(early.json().error.message).toContain('still being downloaded');

    await downloadMedia(t.ctx, { workspaceId: a.workspaceId, mediaId: message.media_id }, false);
    const res = await a.client.call('GET', `/messages/${message.id}/media`);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(file)).toBe(true);
    expect(res.headers).toMatchObject({
      'content-type': 'image/jpeg',
      'x-content-type-options': 'nosniff',
      'content-disposition': 'inline',
    });
    expect(res.headers['content-security-policy']).toContain('sandbox');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it("is another workspace's 404, as a message that does not exist", async () => {
    const message = await receive({ type: 'image', image: {} }, jpeg(), 'image/jpeg');
    await downloadMedia(t.ctx, { workspaceId: a.workspaceId, mediaId: message.media_id }, false);
    expect((await a.client.call('GET', `/messages/${message.id}/media`)).statusCode).toBe(200);
    const res = await b.client.call('GET', `/messages/${message.id}/media`);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
    expect(res.body).not.toContain(message.media_id);
    // B's job naming A's media does nothing to it.
    await downloadMedia(t.ctx, { workspaceId: b.workspaceId, mediaId: message.media_id }, false);
    expect((await b.client.call('GET', `/messages/${message.id}/media`)).statusCode).toBe(404);
  });

  it('serves a document as a download under its file name, and HTML never inline', async () => {
    const html = Buffer.from('<html><script>alert(document.cookie)</script></html>');
    const message = await receive(
      { type: 'document', document: { filename: 'invoice".html' } },
      html,
      'text/html',
    );
    await downloadMedia(t.ctx, { workspaceId: a.workspaceId, mediaId: message.media_id }, false);
    const res = await a.client.call('GET', `/messages/${message.id}/media`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="invoice_.html"; filename*=UTF-8''invoice_.html`,
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain('sandbox');
  });

  it('answers 404 for a message without media, and for media sent by link', async () => {
    const text = await simControl<{ wamid: string }>(base, '/inbound', {
      from: '919812345602',
      phone_number_id: numberA.phoneNumberId,
      text: 'hello',
    });
    const { rows } = await t.ctx.db.query<{ id: string }>('SELECT id FROM messages WHERE wamid = $1', [
      text.body.wamid,
    ]);
    const none = await a.client.call('GET', `/messages/${rows[0]!.id}/media`);
    expect(none.statusCode).toBe(404);
    expect(none.json().error.code).toBe('not_found');
    const linked = await t.api('POST', '/messages', a.apiKey, {
      to: '919812345602',
      type: 'image',
      image: { link: 'https://example.com/a.jpg' },
    });
    expect(linked.statusCode, linked.body).toBe(201);
    const res = await a.client.call('GET', `/messages/${linked.json().id}/media`);
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toMatchObject({ code: 'media_not_stored' });
    expect(res.json().error.message).toContain('link');
  });
  it('says in the conversation where its download stands, and tells a browser following the workspace when it ends', async () => {
    const stream = await openLiveStream(base, a.client.cookie);
    const file = jpeg(3_000);
    const message = await receive({ type: 'image', image: {} }, file, 'image/jpeg');
    const { rows } = await t.ctx.db.query<{ contact_id: string }>(
      'SELECT contact_id FROM messages WHERE workspace_id = $1 AND id = $2',
      [a.workspaceId, message.id],
    );
    const shown = async () =>
      (await a.client.call('GET', `/conversations/${rows[0]!.contact_id}`))
        .json()
        .messages.find((m: { id: string }) => m.id === message.id);
    expect(await shown()).toMatchObject({ media_status: 'pending', media_size: null });

    await downloadMedia(t.ctx, { workspaceId: a.workspaceId, mediaId: message.media_id }, false);
    const event = await stream.next((e) => e.event === 'status' && e.data.message_id === message.id, 10_000);
    expect(event.data.contact_id).toBe(rows[0]!.contact_id);
    expect(await shown()).toMatchObject({ media_status: 'stored', media_size: file.length });
    stream.close();
  });
});
