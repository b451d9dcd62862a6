import { describe, expect, it } from 'vitest';
import { secondInstance, type TestApp } from '../../../test/support/app.js';
import { TEST_DB } from '../../../test/support/database.js';
import { simulatorAppForTests } from '../../../test/support/messaging.js';
import { until } from '../../../test/support/until.js';
import { disconnectNumber } from './connected-numbers.js';
import { SENDING_NOTICES } from './sending-cache.js';

// Sends read the connected number and the template from memory; these tests change them behind the
// sending instance's back and watch its next sends.
const t = simulatorAppForTests({ statusDelaysMs: [-1, -1, -1] });

const send = (app: TestApp, key: string) =>
  app.api('POST', '/messages', key, {
    to: '98765 43210',
    template: { name: 'welcome', language: 'en', body: ['Asha', 'Parley'] },
  });
const codeOf = async (app: TestApp, key: string) => {
  const res = await send(app, key);
  return res.statusCode === 201 ? 'sent' : res.json().error.code;
};

describe('the number and templates a send reads', () => {
  it('are held in memory: a change made without its notice is not seen until the notice comes', async () => {
    const ws = await t.connectedWorkspace();
    expect(await codeOf(t, ws.key)).toBe('sent');
    await t.ctx.db.exec('ALTER TABLE templates DISABLE TRIGGER templates_announce');
    try {
      await t.ctx.db.query("UPDATE templates SET status = 'REJECTED' WHERE workspace_id = $1", [ws.id]);
    } finally {
      await t.ctx.db.exec('ALTER TABLE templates ENABLE TRIGGER templates_announce');
    }
    expect(await codeOf(t, ws.key)).toBe('sent');
    // Anyone may announce a change by hand, as the trigger does.
    await t.ctx.db.query('SELECT pg_notify($1, $2)', [SENDING_NOTICES, ws.id]);
    await until(async () => (await codeOf(t, ws.key)) === 'template_not_found', 2_000);
  });

  it('see a template withdrawn and a number disconnected in the database at once', async () => {
    const ws = await t.connectedWorkspace();
    const other = await t.connectedWorkspace();
    expect(await codeOf(t, ws.key)).toBe('sent');
    expect(await codeOf(t, other.key)).toBe('sent');
    await t.ctx.db.query("UPDATE templates SET status = 'PAUSED' WHERE workspace_id = $1", [ws.id]);
    await until(async () => (await codeOf(t, ws.key)) === 'template_not_found', 2_000);
    await disconnectNumber(t.ctx.db, other.id);
    await until(async () => (await codeOf(t, other.key)) === 'no_connected_number', 2_000);
  });

  describe.runIf(TEST_DB === 'postgres')('on another instance', () => {
    it('a number disconnected through one instance stops sends on another within a second', async () => {
      const second = await secondInstance(t);
      try {
        const ws = await t.connectedWorkspace();
        expect(await codeOf(second, ws.key)).toBe('sent');
        expect(await codeOf(second, ws.key)).toBe('sent');
        await disconnectNumber(t.ctx.db, ws.id);
        const at = Date.now();
        await until(async () => (await codeOf(second, ws.key)) === 'no_connected_number', 1_000);
        expect(Date.now() - at).toBeLessThan(1_000);
      } finally {
        await second.close();
      }
    });
  });
});
