import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';

// REST v1's GET /messages/{id}/media: the file a message carries, as the app's conversation view serves it.

const t = testAppForTests();

let n = 0;
/** A message of `type` whose media is kept in `state`, with these bytes when stored. */
async function messageWith(
  ws: { id: string },
  media: { type: string; mime: string; state?: string; name?: string; reason?: string } | null,
  body = Buffer.from('the bytes'),
) {
  const id = `msg_m${++n}`;
  await t.ctx.db.query(
    `INSERT INTO contacts (workspace_id, id, phone) VALUES ($1, 'ct_m', '15550007') ON CONFLICT DO NOTHING`,
    [ws.id],
  );
  await t.ctx.db.query(
    `INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, content, text, status, status_rank)
     VALUES ($1, $2, 'inbound', 'ct_m', '15550007', $3, $4::jsonb, 'hi', 'read', 4)`,
    [ws.id, id, media?.type ?? 'text', media ? JSON.stringify({ id: `net${n}` }) : null],
  );
  if (!media) return id;
  const key = `${ws.id}/med_${n}`;
  const state = media.state ?? 'stored';
  await t.ctx.db.query(
    `INSERT INTO media (workspace_id, id, direction, network_id, message_id, kind, mime_type, file_name, storage_key, state, reason)
     VALUES ($1, $2, 'inbound', $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      ws.id,
      `med_${n}`,
      `net${n}`,
      id,
      media.type,
      media.mime,
      media.name ?? null,
      state === 'stored' ? key : null,
      state,
      media.reason ?? null,
    ],
  );
  if (state === 'stored') await t.ctx.media.put(key, Readable.from([body]));
  return id;
}

describe('GET /messages/{id}/media', () => {
  it('answers an image inline with its own type, nosniff and a sandbox', async () => {
    const ws = await t.workspace();
    const id = await messageWith(ws, { type: 'image', mime: 'image/png' }, Buffer.from('png bytes'));
    const res = await t.api('GET', `/messages/${id}/media`, ws.key);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toBe('png bytes');
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-disposition']).toBe('inline');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
  });

  it('answers a document as a download with its file name, never inline', async () => {
    const ws = await t.workspace();
    const id = await messageWith(ws, { type: 'document', mime: 'text/html', name: 'offer.html' });
    const res = await t.api('GET', `/messages/${id}/media`, ws.key);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="offer\.html"/);
  });

  it("answers 404 for another workspace's message, one with no media, and media Parley does not hold", async () => {
    const a = await t.workspace();
    const b = await t.workspace();
    const image = await messageWith(a, { type: 'image', mime: 'image/jpeg' });
    expectRestError(await t.api('GET', `/messages/${image}/media`, b.key), 404, 'not_found');
    expectRestError(await t.api('GET', '/messages/msg_none/media', a.key), 404, 'not_found');
    const text = await messageWith(a, null);
    expectRestError(await t.api('GET', `/messages/${text}/media`, a.key), 404, 'not_found');
    const pending = await messageWith(a, { type: 'image', mime: 'image/jpeg', state: 'pending' });
    expectRestError(await t.api('GET', `/messages/${pending}/media`, a.key), 404, 'media_not_stored');
    const refused = await messageWith(a, {
      type: 'video',
      mime: 'video/mp4',
      state: 'refused',
      reason: 'too large',
    });
    const res = await t.api('GET', `/messages/${refused}/media`, a.key);
    expectRestError(res, 404, 'media_not_stored');
    expect(res.json().error.message).toMatch(/too large/);
  });
});
