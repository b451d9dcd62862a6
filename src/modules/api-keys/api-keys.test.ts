import { expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { until } from '../../../test/support/until.js';
import { sha256Hex } from '../../lib/hash.js';
import { createApiKey } from './create-api-key.js';
import { KeyVerifier } from './key-verifier.js';
import { revokeApiKey } from './revoke-api-key.js';

const t = testAppForTests();

it('makes long random keys with a readable prefix and stores only their hash', async () => {
  const ws = await t.workspace();
  const a = await createApiKey(t.ctx.db, ws.id);
  const b = await createApiKey(t.ctx.db, ws.id);
  expect(a.key).toMatch(/^pk_live_[0-9A-Za-z]{32}$/);
  expect(a.key).not.toBe(b.key);
  const { rows } = await t.ctx.db.query('SELECT * FROM api_keys WHERE id = $1', [a.id]);
  expect(JSON.stringify(rows)).not.toContain(a.key);
  expect(rows[0]).toMatchObject({ key_hash: sha256Hex(a.key), display_prefix: a.key.slice(0, 12) });
});

it('accepts the key in either header and records when it was last used', async () => {
  const ws = await t.workspace();
  expect((await t.api('GET', '/templates', ws.key)).statusCode).toBe(200);
  const viaHeader = await t.app.inject({
    method: 'GET',
    url: '/api/v1/templates',
    headers: { 'x-api-key': ws.key },
  });
  expect(viaHeader.statusCode).toBe(200);
  const lastUsed = async () =>
    (
      await t.ctx.db.query<{ last_used_at: Date | null }>(
        'SELECT last_used_at FROM api_keys WHERE workspace_id = $1',
        [ws.id],
      )
    ).rows[0]!.last_used_at;
  await t.ctx.keys.sync();
  expect(await lastUsed()).toBeInstanceOf(Date);
});

it('stops a revoked key at once on the revoking instance, and within seconds on others by the poll alone', async () => {
  const ws = await t.workspace();
  const elsewhere = new KeyVerifier(t.ctx.db, t.ctx.log);
  await elsewhere.start({ everyMs: 100 });
  expect(await elsewhere.verify(ws.key)).not.toBeNull();
  expect((await t.api('GET', '/templates', ws.key)).statusCode).toBe(200);

  const id = (
    await t.ctx.db.query<{ id: string }>('SELECT id FROM api_keys WHERE workspace_id = $1', [ws.id])
  ).rows[0]!.id;
  const hash = await revokeApiKey(t.ctx.db, id);
  t.ctx.keys.forget(hash!);
  const refused = await t.api('GET', '/templates', ws.key);
  expect(refused.statusCode).toBe(401);
  expect(refused.json().error.code).toBe('unauthorized');

  // Another instance drops it at its next revocation watch.
  // The watcher runs every 100 ms here; 5 s leaves room for a loaded machine.
  await until(async () => (await elsewhere.verify(ws.key)) === null, 5_000);
  await elsewhere.stop();
});

it('revokes a key only within its own workspace when one is named', async () => {
  const a = await t.workspace();
  const b = await t.workspace();
  const key = await createApiKey(t.ctx.db, a.id);
  expect(await revokeApiKey(t.ctx.db, key.id, b.id)).toBeNull();
  expect(await revokeApiKey(t.ctx.db, key.id, a.id)).toBe(sha256Hex(key.key));
  expect(await revokeApiKey(t.ctx.db, key.id, a.id)).toBeNull();
});

it('follows a change of the workspace default country code within seconds by the poll alone', async () => {
  const ws = await t.workspace({ defaultCountryCode: '91' });
  const verifier = new KeyVerifier(t.ctx.db, t.ctx.log);
  await verifier.start({ everyMs: 100 });
  expect((await verifier.verify(ws.key))?.defaultCountryCode).toBe('91');
  await t.ctx.db.query("UPDATE workspaces SET default_country_code = '1', updated_at = now() WHERE id = $1", [
    ws.id,
  ]);
  await until(async () => (await verifier.verify(ws.key))?.defaultCountryCode === '1', 5_000);
  await verifier.stop();
});
