import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/support/app.js';
import { connectNumber } from '../messaging/connected-numbers.js';
import { downloadMedia } from './download-media.js';
import { queueInboundMedia } from './inbound-media.js';

// A fake Graph API: each test says how it answers the media id, then the media URL.
type Handler = (req: IncomingMessage, res: ServerResponse) => void;
let answer: { info: Handler; file: Handler };
const graph = createServer((req, res) =>
  (req.url?.startsWith('/file') ? answer.file : answer.info)(req, res),
);
await new Promise<void>((resolve) => graph.listen(0, '127.0.0.1', resolve));
const graphUrl = `http://127.0.0.1:${(graph.address() as { port: number }).port}`;

const MAX = 10_000;
const t = await createTestApp({
  env: { DATA_DIR: mkdtempSync(join(tmpdir(), 'parley-media-')), MEDIA_MAX_BYTES: String(MAX) },
});
afterAll(async () => {
  await t.close();
  graph.closeAllConnections();
  await new Promise((resolve) => graph.close(resolve));
});

const ws = await t.workspace();
await connectNumber(t.ctx, ws.id, {
  phoneNumberId: '555000111',
  businessAccountId: '555000222',
  displayPhone: '+1 555 0100',
  accessToken: 'graph-token',
  appSecret: 'secret',
  verifyToken: 'verify',
  graphBaseUrl: graphUrl,
});

const json = (status: number, body: unknown) => (_req: IncomingMessage, res: ServerResponse) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
const info = (extra: Record<string, unknown> = {}) =>
  json(200, {
    messaging_product: 'whatsapp',
    url: `${graphUrl}/file?mid=1`,
    mime_type: 'image/jpeg',
    file_size: '4',
    id: '1',
    ...extra,
  });
const bytes = (body: Buffer) => (req: IncomingMessage, res: ServerResponse) => {
  // Meta serves the file only with the number's token.
  if (req.headers.authorization !== 'Bearer graph-token') return res.writeHead(401).end();
  res.writeHead(200, { 'content-type': 'image/jpeg' }).end(body);
};

let n = 0;
async function pending(): Promise<string> {
  const messageId = `msg_dl${++n}`;
  await t.ctx.db.query(
    `INSERT INTO contacts (workspace_id, id, phone) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
    [ws.id, 'ct_dl', '15550001'],
  );
  await t.ctx.db.query(
    `INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, content, status, status_rank)
     VALUES ($1, $2, 'inbound', 'ct_dl', '15550001', 'image', $3::jsonb, 'read', 4)`,
    [ws.id, messageId, JSON.stringify({ id: `${n}`, mime_type: 'image/jpeg' })],
  );
  return (await queueInboundMedia(t.ctx.db, null, {
    workspaceId: ws.id,
    id: messageId,
    type: 'image',
    content: { id: `${n}`, mime_type: 'image/jpeg' },
  }))!;
}
const media = async (id: string) =>
  (
    await t.ctx.db.query<{ state: string; reason: string | null; attempts: number; size: number | null }>(
      'SELECT state, reason, attempts, size FROM media WHERE workspace_id = $1 AND id = $2',
      [ws.id, id],
    )
  ).rows[0]!;
const stored = async (id: string) => (await t.ctx.media.get(`${ws.id}/${id}`)) !== null;

describe('the media.download job', () => {
  it('keeps the file the media URL serves with the token, with its size and hash', async () => {
    answer = { info: info(), file: bytes(Buffer.from('abcd')) };
    const id = await pending();
    await downloadMedia(t.ctx, { workspaceId: ws.id, mediaId: id }, false);
    expect(await media(id)).toMatchObject({ state: 'stored', reason: null, attempts: 1 });
    expect(Number((await media(id)).size)).toBe(4);
    // Done once: a redelivered job does nothing more.
    await downloadMedia(t.ctx, { workspaceId: ws.id, mediaId: id }, false);
    expect((await media(id)).attempts).toBe(1);
  });

  it('throws on a transient failure for the queue to retry, and records the reason on the last try', async () => {
    answer = {
      info: json(503, { error: { message: 'Service temporarily unavailable', code: 2 } }),
      file: bytes(Buffer.from('x')),
    };
    const id = await pending();
    await expect(downloadMedia(t.ctx, { workspaceId: ws.id, mediaId: id }, false)).rejects.toThrow();
    expect(await media(id)).toMatchObject({ state: 'pending', attempts: 1 });
    await downloadMedia(t.ctx, { workspaceId: ws.id, mediaId: id }, true);
    const last = await media(id);
    expect(last).toMatchObject({ state: 'refused', attempts: 2 });
    expect(last.reason).toContain('gave up');
    // Refused is final: no further try reaches the network.
    answer = { info: info(), file: bytes(Buffer.from('abcd')) };
    await downloadMedia(t.ctx, { workspaceId: ws.id, mediaId: id }, false);
    expect((await media(id)).state).toBe('refused');
  });

  it('records a refusal at once, never retried: an unknown media id', async () => {
    answer = {
      info: json(400, { error: { message: '(#100) Invalid parameter', code: 100 } }),
      file: bytes(Buffer.from('x')),
    };
    const id = await pending();
    await downloadMedia(t.ctx, { workspaceId: ws.id, mediaId: id }, false);
    expect(await media(id)).toMatchObject({
      state: 'refused',
      reason: expect.stringContaining('Invalid parameter'),
    });
  });

  it('refuses an answer of HTML instead of JSON', async () => {
    answer = {
      info: (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>'),
      file: bytes(Buffer.from('x')),
    };
    const id = await pending();
    await downloadMedia(t.ctx, { workspaceId: ws.id, mediaId: id }, false);
    expect(await media(id)).toMatchObject({
      state: 'refused',
      reason: expect.stringContaining('without JSON'),
    });
  });

  it('refuses a file past MEDIA_MAX_BYTES, announced or not, keeping none of it', async () => {
    answer = { info: info({ file_size: String(MAX + 1) }), file: bytes(Buffer.alloc(MAX + 1)) };
    const announced = await pending();
    await downloadMedia(t.ctx, { workspaceId: ws.id, mediaId: announced }, false);
    expect(await media(announced)).toMatchObject({
      state: 'refused',
      reason: expect.stringContaining('MEDIA_MAX_BYTES'),
    });
    // Announced small, served huge (and without end): the read stops at the cap.
    answer = {
      info: info(),
      file: (_req, res) => {
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        const chunk = Buffer.alloc(4096);
        const pump = () => {
          while (!res.destroyed && res.write(chunk)) {}
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
      },
    };
    const huge = await pending();
    await downloadMedia(t.ctx, { workspaceId: ws.id, mediaId: huge }, false);
    expect(await media(huge)).toMatchObject({
      state: 'refused',
      reason: expect.stringContaining('MEDIA_MAX_BYTES'),
    });
    expect(await stored(huge)).toBe(false);
  });

  it('gives up on a download that stalls past its time, keeping nothing, and retries it', async () => {
    answer = {
      info: info(),
      file: (_req, res) => {
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        res.write('ab'); // and nothing more
      },
    };
    const id = await pending();
    await expect(downloadMedia(t.ctx, { workspaceId: ws.id, mediaId: id }, false, 300)).rejects.toThrow();
    expect(await media(id)).toMatchObject({ state: 'pending' });
    expect(await stored(id)).toBe(false);
  });

  it('sends the token to no plain-HTTP host other than the Graph base URL', async () => {
    let leaked = false;
    const other = createServer((req, res) => {
      leaked = req.headers.authorization !== undefined;
      res.end('x');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    answer = {
      info: info({ url: `http://localhost:${(other.address() as { port: number }).port}/f` }),
      file: bytes(Buffer.from('x')),
    };
    const id = await pending();
    await downloadMedia(t.ctx, { workspaceId: ws.id, mediaId: id }, false);
    other.close();
    expect(leaked).toBe(false);
    expect(await media(id)).toMatchObject({ state: 'refused', reason: expect.stringContaining('HTTPS') });
  });

  it('retries a file whose hash is not the one announced', async () => {
    answer = { info: info({ sha256: 'a'.repeat(64) }), file: bytes(Buffer.from('abcd')) };
    const id = await pending();
    await expect(downloadMedia(t.ctx, { workspaceId: ws.id, mediaId: id }, false)).rejects.toThrow(/SHA-256/);
    expect(await media(id)).toMatchObject({ state: 'pending' });
    expect(await stored(id)).toBe(false);
  });
});
