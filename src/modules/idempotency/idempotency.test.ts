import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { connectedWorkspace, listen, simControl, simState } from '../../../test/support/messaging.js';
import { sha256Hex } from '../../lib/hash.js';
import { claimKey, deleteExpiredKeys, recordAnswer, recordEffect, releaseKey } from './store.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const withKey = (k: string) => ({ 'idempotency-key': k });

describe('Idempotency-Key on POST /contacts', () => {
  it('replays the first response for the same key and body, without doing the work again', async () => {
    const { key } = await t.workspace();
    const body = { phone: '+14155552671', tags: ['a'] };
    const first = await t.api('POST', '/contacts', key, body, withKey('order-1'));
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const replay = await t.api('POST', '/contacts', key, body, withKey('order-1'));
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(first.json());
    // Without the key the same body is an update (200): the replay above did not run the upsert.
    const plain = await t.api('POST', '/contacts', key, body);
    expect(plain.statusCode).toBe(200);
  });

  it('refuses the same key with another body (422) and scopes keys per workspace', async () => {
    const a = await t.workspace();
    const b = await t.workspace();
    await t.api('POST', '/contacts', a.key, { phone: '+14155552671' }, withKey('k'));
    const other = await t.api('POST', '/contacts', a.key, { phone: '+14155552672' }, withKey('k'));
    expect(other.statusCode).toBe(422);
    expect(other.json().error.code).toBe('idempotency_key_reused');
    const elsewhere = await t.api('POST', '/contacts', b.key, { phone: '+14155552672' }, withKey('k'));
    expect(elsewhere.statusCode).toBe(201);
  });

  it('answers 409 while a request with the same key is still in flight', async () => {
    const ws = await t.workspace();
    const body = { phone: '+14155552671' };
    const hash = sha256Hex(`POST /api/v1/contacts\n${JSON.stringify(body)}`);
    expect(await claimKey(t.ctx.db, ws.id, 'busy', hash)).toEqual({ kind: 'claimed' });
    const res = await t.api('POST', '/contacts', ws.key, body, withKey('busy'));
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('idempotency_key_in_use');
    // A request that died mid-way (a crash) frees its key once the lock runs out.
    await t.ctx.db.query(
      "UPDATE idempotency_keys SET locked_until = now() - interval '1 second' WHERE key = 'busy'",
    );
    expect((await t.api('POST', '/contacts', ws.key, body, withKey('busy'))).statusCode).toBe(201);
  });

  it('replays client errors too, and validates the key itself', async () => {
    const { key } = await t.workspace({ defaultCountryCode: null });
    const first = await t.api('POST', '/contacts', key, { phone: '12345' }, withKey('bad-phone'));
    expect(first.statusCode).toBe(422);
    const again = await t.api('POST', '/contacts', key, { phone: '12345' }, withKey('bad-phone'));
    expect(again.statusCode).toBe(422);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const tooLong = await t.api(
      'POST',
      '/contacts',
      key,
      { phone: '+14155552671' },
      withKey('x'.repeat(256)),
    );
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json().error.details).toEqual([{ field: 'Idempotency-Key', message: expect.any(String) }]);
  });

  it('forgets keys after 24 hours: the cleanup removes them and the key can be used afresh', async () => {
    const { id, key } = await t.workspace();
    await t.api('POST', '/contacts', key, { phone: '+14155552671' }, withKey('old'));
    await t.ctx.db.query(
      "UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE workspace_id = $1",
      [id],
    );
    const reused = await t.api('POST', '/contacts', key, { phone: '+14155552672' }, withKey('old'));
    expect(reused.statusCode).toBe(201);
    await t.ctx.db.query(
      "UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE workspace_id = $1",
      [id],
    );
    expect(await deleteExpiredKeys(t.ctx.db)).toBeGreaterThanOrEqual(1);
    const left = await t.ctx.db.query(
      'SELECT count(*)::int AS n FROM idempotency_keys WHERE workspace_id = $1',
      [id],
    );
    expect(left.rows[0]).toEqual({ n: 0 });
  });
});

describe('the answer commits with the effect', () => {
  const expireLock = (key: string) =>
    t.ctx.db.query(
      "UPDATE idempotency_keys SET locked_until = now() - interval '1 second' WHERE key = $1 AND locked_until IS NOT NULL",
      [key],
    );

  it('replays an answer written in the effect transaction though the request never answered', async () => {
    const ws = await t.workspace();
    expect(await claimKey(t.ctx.db, ws.id, 'c1', 'h')).toEqual({ kind: 'claimed' });
    await t.ctx.db.transaction((tx) => recordAnswer(tx, { workspaceId: ws.id, key: 'c1' }, 201, { id: 'x' }));
    // The process died here: no answer was sent, nothing else was written.
    expect(await claimKey(t.ctx.db, ws.id, 'c1', 'h')).toEqual({
      kind: 'replay',
      status: 201,
      body: '{"id":"x"}',
    });
    await releaseKey(t.ctx.db, ws.id, 'c1');
    expect(await claimKey(t.ctx.db, ws.id, 'c1', 'h')).toMatchObject({ kind: 'replay' });
  });

  it('frees the key when the effect rolled back, and answers from a committed effect once unlocked', async () => {
    const ws = await t.workspace();
    const held = { workspaceId: ws.id, key: 'e1' };
    await claimKey(t.ctx.db, ws.id, 'e1', 'h');
    await t.ctx.db
      .transaction(async (tx) => {
        await recordEffect(tx, held, 'msg_rolled_back');
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await expireLock('e1');
    expect(await claimKey(t.ctx.db, ws.id, 'e1', 'h')).toEqual({ kind: 'claimed' });
    await t.ctx.db.transaction((tx) => recordEffect(tx, held, 'msg_1'));
    expect(await claimKey(t.ctx.db, ws.id, 'e1', 'h')).toEqual({ kind: 'in_flight' });
    await expireLock('e1');
    expect(await claimKey(t.ctx.db, ws.id, 'e1', 'h')).toEqual({ kind: 'effect', effectId: 'msg_1' });
    expect(await claimKey(t.ctx.db, ws.id, 'e1', 'other')).toEqual({ kind: 'mismatch' });
    // A 5xx after the effect committed keeps the key and unlocks it at once.
    await t.ctx.db.query(
      "UPDATE idempotency_keys SET locked_until = now() + interval '1 minute' WHERE key = 'e1'",
    );
    await releaseKey(t.ctx.db, ws.id, 'e1');
    expect(await claimKey(t.ctx.db, ws.id, 'e1', 'h')).toEqual({ kind: 'effect', effectId: 'msg_1' });
  });

  it('answers a send retried after a crash with the message as it stands, and sends nothing again', async () => {
    const base = await listen(t);
    const ws = await connectedWorkspace(t, base);
    simState(t).statusDelaysMs = [-1, -1, -1];
    const send = (to: string, k: string) =>
      t.api(
        'POST',
        '/messages',
        ws.key,
        { to, template: { name: 'welcome', language: 'en', body: ['A', 'B'] } },
        withKey(k),
      );
    // As if the process died after the network answered and before the answer was stored or sent.
    const crashed = async (k: string) => {
      await t.ctx.db.query(
        "UPDATE idempotency_keys SET response_status = NULL, response_body = NULL, locked_until = now() - interval '1 second' WHERE key = $1",
        [k],
      );
    };
    const first = await send('+14155550301', 's1');
    expect(first.json()).toMatchObject({ result: true, status: 'accepted' });
    await crashed('s1');
    const retry = await send('+14155550301', 's1');
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    const { rows } = await t.ctx.db.query('SELECT id FROM messages WHERE workspace_id = $1', [ws.id]);
    expect(rows).toEqual([{ id: first.json().id }]);
    expect(simState(t).messages.filter((m) => m.to === '14155550301')).toHaveLength(1);

    // A text the network refused (its window closed though ours looked open) answers its refusal again.
    await t.api('POST', '/contacts', ws.key, { phone: '+14155550302' });
    await t.ctx.db.query('UPDATE contacts SET last_inbound_at = now() WHERE workspace_id = $1', [ws.id]);
    const text = { to: '+14155550302', type: 'text', text: 'Hi' };
    // The synchronous refusal (Meta mostly accepts such a text and fails it by a status webhook).
    await simControl(base, '/control', { failNext: 1, failNextCode: 131047 });
    const refused = await t.api('POST', '/messages', ws.key, text, withKey('s2'));
    expect(refused.statusCode).toBe(409);
    await crashed('s2');
    const again = await t.api('POST', '/messages', ws.key, text, withKey('s2'));
    expect(again.statusCode).toBe(409);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().error.code).toBe('outside_window');
    // Answered from the stored message: the failed message's id goes with it again.
    expect(again.json().error.message_id).toBe(refused.json().error.message_id);
    expect(again.json().error.message_id).toMatch(/^msg_/);
  });
});
