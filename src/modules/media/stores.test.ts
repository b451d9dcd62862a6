import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import S3rver from 's3rver';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/support/app.js';
import { jpeg } from '../../../test/support/media-files.js';
import { connectSimulator, listen, simControl } from '../../../test/support/messaging.js';
import { until } from '../../../test/support/until.js';
import { filesystemStore } from './filesystem-store.js';
import { meter, TooLarge } from './metered.js';
import { postgresStore } from './postgres-store.js';
import { s3Store } from './s3-store.js';
import type { MediaStore } from './store.js';

const dataDir = mkdtempSync(join(tmpdir(), 'parley-media-'));
const t = await createTestApp({ queue: true, env: { DATA_DIR: dataDir } });
const base = await listen(t);
afterAll(() => t.close());

async function* chunks(...parts: string[]) {
  for (const p of parts) yield Buffer.from(p);
}

// A real S3-protocol server (s3rver), so the S3 store's requests, signatures and multipart uploads
// are checked by something that speaks S3, not by our own reading of it.
const s3 = new S3rver({
  port: 0,
  address: '127.0.0.1',
  silent: true,
  directory: mkdtempSync(join(tmpdir(), 'parley-s3-')),
  configureBuckets: [{ name: 'parley-media', configs: [] }],
});
const { port: s3Port } = await s3.run();
afterAll(() => s3.close());
const s3Options = {
  endpoint: `http://127.0.0.1:${s3Port}`,
  bucket: 'parley-media',
  region: 'us-east-1',
  accessKeyId: 'S3RVER',
  secretAccessKey: 'S3RVER',
  // Small parts, so that a file of a little over 1 MiB goes up as a multipart upload.
  partBytes: 256 * 1024,
};

const stores: [string, MediaStore][] = [
  ['filesystem', filesystemStore(join(dataDir, 'store-test'))],
  ['postgres', postgresStore(t.ctx.db)],
  ['s3', s3Store(s3Options)],
];

describe.each(stores)('the %s media store', (_name, store) => {
  it('puts, gets and deletes a stream by key, replacing what was there', async () => {
    expect(await store.get('ws_1/med_a')).toBeNull();
    await store.put('ws_1/med_a', chunks('first'));
    await store.put('ws_1/med_a', chunks('hello ', 'x'.repeat(1024 * 1024 + 5), ' end'));
    const got = await text((await store.get('ws_1/med_a'))!);
    expect(got.startsWith('hello x')).toBe(true);
    expect(got.endsWith('x end')).toBe(true);
    expect(got.length).toBe(6 + 1024 * 1024 + 5 + 4);
    await store.put('ws_1/med_empty', chunks());
    expect(await text((await store.get('ws_1/med_empty'))!)).toBe('');
    await store.delete('ws_1/med_a');
    await store.delete('ws_1/med_a');
    expect(await store.get('ws_1/med_a')).toBeNull();
  });

  it('keeps nothing of a write the stream breaks off (a size cap), and the old file stays whole', async () => {
    await store.put('ws_1/med_b', chunks('old'));
    const capped = meter(chunks('12345', '67890'), 7);
    await expect(store.put('ws_1/med_b', capped.stream)).rejects.toBeInstanceOf(TooLarge);
    expect(await text((await store.get('ws_1/med_b'))!)).toBe('old');
    await expect(store.put('ws_1/med_new', meter(chunks('12345678'), 7).stream)).rejects.toBeInstanceOf(
      TooLarge,
    );
    expect(await store.get('ws_1/med_new')).toBeNull();
  });

  it('takes only its own keys, never a path', async () => {
    for (const key of ['../etc/passwd', '/abs', 'ws_1/../x', 'ws_1/a.b', '']) {
      await expect(store.put(key, chunks('x'))).rejects.toThrow(/not a media store key/);
      await expect(store.get(key)).rejects.toThrow(/not a media store key/);
    }
  });
});

it('leaves no partial files behind on the filesystem', () => {
  expect(readdirSync(join(dataDir, 'store-test', 'ws_1')).filter((f) => f.includes('partial'))).toEqual([]);
});

it('downloads an inbound file through the queue once the message is stored', async () => {
  const ws = await t.workspace();
  const number = await connectSimulator(t, base, ws.id);
  const file = jpeg(1_234);
  const sent = await simControl<{ wamid: string }>(base, '/inbound', {
    from: '919812345603',
    phone_number_id: number.phoneNumberId,
    message: { type: 'sticker', sticker: {} },
    media: { mime_type: 'image/jpeg', data_base64: file.toString('base64') },
  });
  const row = await until(async () => {
    const { rows } = await t.ctx.db.query<{ state: string; storage_key: string; size: string }>(
      `SELECT md.state, md.storage_key, md.size FROM media md JOIN messages m
         ON m.workspace_id = md.workspace_id AND m.id = md.message_id
       WHERE m.workspace_id = $1 AND m.wamid = $2 AND md.state = 'stored'`,
      [ws.id, sent.body.wamid],
    );
    return rows[0];
  });
  expect(Number(row.size)).toBe(1_234);
  expect((await t.ctx.media.get(row.storage_key)) !== null).toBe(true);
});

it('refuses, in the S3 store, a bucket that does not take the credentials', async () => {
  const wrong = s3Store({ ...s3Options, accessKeyId: 'NOBODY', secretAccessKey: 'not-the-secret' });
  await expect(wrong.put('ws_1/med_c', chunks('x'))).rejects.toThrow(/media bucket answered 403/);
  await expect(wrong.get('ws_1/med_c')).rejects.toThrow(/403/);
});
