import { describe, expect, it } from 'vitest';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import {
  SIM_TEMPLATES,
  simState,
  simulatorAppForTests,
  workspaceWithNumber,
} from '../../../test/support/messaging.js';

const t = simulatorAppForTests({ statusDelaysMs: [-1, -1, -1] });

type Ws = Awaited<ReturnType<typeof t.connectedWorkspace>>;

const all = async (ws: { key: string }) =>
  (await t.api('GET', '/templates?status=all', ws.key)).json().templates as {
    id: string;
    name: string;
    status: string;
  }[];
const idOf = async (ws: Ws, name: string) => (await all(ws)).find((x) => x.name === name)!.id;
const audit = async (workspaceId: string, id: string) =>
  (
    await t.ctx.db.query<{ action: string; actor_type: string }>(
      'SELECT action, actor_type FROM audit_log WHERE workspace_id = $1 AND entity_id = $2 ORDER BY id',
      [workspaceId, id],
    )
  ).rows;

describe('POST /api/v1/templates/sync', () => {
  it("copies the account's templates: a new one appears, one WhatsApp no longer lists becomes DELETED", async () => {
    const ws = await t.connectedWorkspace();
    const account = simState(t).templates.get(ws.number.businessAccountId)!;
    simState(t).templates.set(ws.number.businessAccountId, [
      ...account.filter((x) => x.name !== 'hello'),
      {
        name: 'made_in_manager',
        language: 'en',
        category: 'UTILITY',
        body: 'Made elsewhere',
        status: 'APPROVED',
        id: '4000000000001',
      },
    ]);
    const res = await t.api('POST', '/templates/sync', ws.key);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ result: true, synced: SIM_TEMPLATES.length });
    const templates = await all(ws);
    expect(templates.find((x) => x.name === 'made_in_manager')).toMatchObject({ status: 'APPROVED' });
    expect(templates.find((x) => x.name === 'hello')).toMatchObject({ status: 'DELETED' });
  });

  it('answers 409 no_connected_number without a number, 503 when WhatsApp does not answer', async () => {
    const ws = await t.workspace();
    expectRestError(await t.api('POST', '/templates/sync', ws.key), 409, 'no_connected_number');
    const unreachable = await workspaceWithNumber(t, 'http://127.0.0.1:9');
    expectRestError(await t.api('POST', '/templates/sync', unreachable.key), 503, 'unavailable');
  });
});

describe('POST /api/v1/templates/{id}/archive and /restore', () => {
  it('archives a template here only: 200 with archived_at, gone from lists and sends, still on WhatsApp', async () => {
    const ws = await t.connectedWorkspace();
    const id = await idOf(ws, 'hello');
    const res = await t.api('POST', `/templates/${id}/archive`, ws.key);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      result: true,
      template: { id, name: 'hello', language: 'en_US', status: 'APPROVED', archived_at: expect.any(String) },
    });
    expectRestError(await t.api('GET', `/templates/${id}`, ws.key), 404, 'not_found');
    expect((await all(ws)).map((x) => x.name)).not.toContain('hello');
    const send = await t.api('POST', '/messages', ws.key, {
      to: '+14155557962',
      template: { name: 'hello', language: 'en_US' },
    });
    expectRestError(send, 404, 'template_not_found');
    expect(
      simState(t)
        .templates.get(ws.number.businessAccountId)!
        .map((x) => x.name),
    ).toContain('hello');

    // Archiving again keeps the first time.
    const again = await t.api('POST', `/templates/${id}/archive`, ws.key);
    expect(again.json().template.archived_at).toBe(res.json().template.archived_at);
  });

  it('restores it: 200 with archived_at null, listed and sendable again; both audited as the key', async () => {
    const ws = await t.connectedWorkspace();
    const id = await idOf(ws, 'hello');
    expect((await t.api('POST', `/templates/${id}/archive`, ws.key)).statusCode).toBe(200);
    const res = await t.api('POST', `/templates/${id}/restore`, ws.key);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ result: true, template: { id, name: 'hello', archived_at: null } });
    expect((await t.api('GET', `/templates/${id}`, ws.key)).statusCode).toBe(200);
    const send = await t.api('POST', '/messages', ws.key, {
      to: '+14155557963',
      template: { name: 'hello', language: 'en_US' },
    });
    expect(send.statusCode, send.body).toBe(201);
    expect(await audit(ws.id, id)).toEqual([
      { action: 'archive', actor_type: 'api_key' },
      { action: 'restore', actor_type: 'api_key' },
    ]);
    // Restoring one that is not archived changes nothing.
    expect((await t.api('POST', `/templates/${id}/restore`, ws.key)).json().template.archived_at).toBeNull();
  });

  it("answers 404 for another workspace's template and one that does not exist; A's stays as it was", async () => {
    const a = await t.connectedWorkspace();
    const b = await t.connectedWorkspace();
    const id = await idOf(a, 'hello');
    expectRestError(await t.api('POST', `/templates/${id}/archive`, b.key), 404, 'not_found');
    expect((await t.api('GET', `/templates/${id}`, a.key)).statusCode).toBe(200);
    expect((await t.api('POST', `/templates/${id}/archive`, a.key)).statusCode).toBe(200);
    expectRestError(await t.api('POST', `/templates/${id}/restore`, b.key), 404, 'not_found');
    expectRestError(await t.api('GET', `/templates/${id}`, a.key), 404, 'not_found');
    expectRestError(await t.api('POST', '/templates/tpl_nope/restore', a.key), 404, 'not_found');
    expect(await audit(a.id, id)).toEqual([{ action: 'archive', actor_type: 'api_key' }]);
  });
});
