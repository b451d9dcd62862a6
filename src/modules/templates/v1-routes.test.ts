import { describe, expect, it } from 'vitest';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { simControl, simState, simulatorAppForTests } from '../../../test/support/messaging.js';
import { encodeCursor } from '../../api/page-cursor.js';
import { saveTemplate } from './save-template.js';

const t = simulatorAppForTests({ statusDelaysMs: [-1, -1, -1] });

type Ws = Awaited<ReturnType<typeof t.connectedWorkspace>>;
const NEW = {
  name: 'order_shipped',
  language: 'en',
  category: 'UTILITY',
  body: 'Hi {{1}}, order {{2}} is on its way.',
  examples: ['Asha', 'A-1001'],
};

const names = async (ws: { key: string }, query = '') =>
  ((await t.api('GET', `/templates${query}`, ws.key)).json().templates as { name: string }[]).map(
    (x) => x.name,
  );
const onNetwork = (ws: Ws, name: string) =>
  simState(t)
    .templates.get(ws.number.businessAccountId)!
    .find((x) => x.name === name);
const review = (ws: Ws, name: string, verdict: 'approve' | 'reject') =>
  simControl(t.base, `/templates/${name}/en/${verdict}?business_account_id=${ws.number.businessAccountId}`);

describe('POST /templates, GET /templates/{id}, DELETE /templates/{id}', () => {
  it('refuses with 409, before asking WhatsApp, a name and language archived in the app', async () => {
    const ws = await t.connectedWorkspace();
    await t.ctx.db.query(
      `INSERT INTO templates (workspace_id, id, name, language, category, body, variable_count, status, archived_at)
       VALUES ($1, 'tpl_archived', $2, $3, 'UTILITY', 'Old', 0, 'APPROVED', now())`,
      [ws.id, NEW.name, NEW.language],
    );
    const res = await t.api('POST', '/templates', ws.key, NEW);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toMatch(
      /archived: restore it first \(POST \/templates\/\{id\}\/restore/,
    );
    expect(onNetwork(ws, NEW.name)).toBeUndefined();
  });

  it('submits a template for review, shows it PENDING, then APPROVED once Meta approves it', async () => {
    const ws = await t.connectedWorkspace();
    const res = await t.api('POST', '/templates', ws.key, NEW);
    expect(res.statusCode).toBe(201);
    const { template } = res.json();
    expect(template).toEqual({
      id: expect.stringMatching(/^tpl_/),
      name: 'order_shipped',
      language: 'en',
      category: 'UTILITY',
      body: NEW.body,
      variable_count: 2,
      parameter_format: 'POSITIONAL',
      body_parameters: [],
      header: null,
      buttons: [],
      status: 'PENDING',
      rejected_reason: null,
      status_reason: null,
      quality_score: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
    });
    // Submitted to Meta as the app submits it.
    expect(onNetwork(ws, 'order_shipped')).toMatchObject({ status: 'PENDING', body: NEW.body });
    // Recorded as the key's doing.
    const audit = await t.ctx.db.query(
      "SELECT actor_type, action FROM audit_log WHERE workspace_id = $1 AND entity_type = 'template' AND entity_id = $2",
      [ws.id, template.id],
    );
    expect(audit.rows).toEqual([{ actor_type: 'api_key', action: 'create' }]);

    expect(await names(ws)).not.toContain('order_shipped');
    expect(await names(ws, '?status=pending')).toContain('order_shipped');
    const pending = await t.api('GET', `/templates/${template.id}`, ws.key);
    expect(pending.statusCode).toBe(200);
    expect(pending.json()).toEqual({ result: true, template });

    expect((await review(ws, 'order_shipped', 'approve')).status).toBe(200);
    const approved = (await t.api('GET', `/templates/${template.id}`, ws.key)).json().template;
    expect(approved).toMatchObject({ status: 'APPROVED', rejected_reason: null });
    expect(await names(ws)).toContain('order_shipped');
    expect(await names(ws, '?status=approved')).toContain('order_shipped');
    expect(await names(ws, '?status=pending')).not.toContain('order_shipped');
  });

  it("shows a template Meta rejected as REJECTED with Meta's reason", async () => {
    const ws = await t.connectedWorkspace();
    const { template } = (await t.api('POST', '/templates', ws.key, { ...NEW, name: 'big_promo' })).json();
    await review(ws, 'big_promo', 'reject');
    const res = await t.api('GET', `/templates/${template.id}`, ws.key);
    expect(res.json().template).toMatchObject({ status: 'REJECTED', rejected_reason: 'INCORRECT_CATEGORY' });
    expect(await names(ws, '?status=rejected')).toEqual(['big_promo']);
    expect(await names(ws)).not.toContain('big_promo');
    const all = await names(ws, '?status=all');
    expect(all).toContain('big_promo');
    expect(all).toEqual(expect.arrayContaining(await names(ws)));
  });

  it('deletes a template here and on WhatsApp; a second delete is a 404', async () => {
    const ws = await t.connectedWorkspace();
    const { template } = (await t.api('POST', '/templates', ws.key, { ...NEW, name: 'to_go' })).json();
    await review(ws, 'to_go', 'approve');
    const res = await t.api('DELETE', `/templates/${template.id}`, ws.key);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(onNetwork(ws, 'to_go')).toBeUndefined();
    expectRestError(await t.api('GET', `/templates/${template.id}`, ws.key), 404, 'not_found');
    expect(await names(ws, '?status=all')).not.toContain('to_go');
    expectRestError(await t.api('DELETE', `/templates/${template.id}`, ws.key), 404, 'not_found');
    const audit = await t.ctx.db.query(
      "SELECT actor_type FROM audit_log WHERE workspace_id = $1 AND action = 'delete' AND entity_id = $2",
      [ws.id, template.id],
    );
    expect(audit.rows).toEqual([{ actor_type: 'api_key' }]);
  });

  it('archives a template WhatsApp will not delete, as the app does, and answers 204', async () => {
    const ws = await t.connectedWorkspace();
    const { template } = (await t.api('POST', '/templates', ws.key, { ...NEW, name: 'stuck' })).json();
    // Gone from the network already: its delete there fails, so Parley archives it.
    const account = simState(t).templates.get(ws.number.businessAccountId)!;
    simState(t).templates.set(
      ws.number.businessAccountId,
      account.filter((x) => x.name !== 'stuck'),
    );
    expect((await t.api('DELETE', `/templates/${template.id}`, ws.key)).statusCode).toBe(204);
    expectRestError(await t.api('GET', `/templates/${template.id}`, ws.key), 404, 'not_found');
    const { rows } = await t.ctx.db.query<{ archived: boolean }>(
      'SELECT archived_at IS NOT NULL AS archived FROM templates WHERE workspace_id = $1 AND id = $2',
      [ws.id, template.id],
    );
    expect(rows).toEqual([{ archived: true }]);
  });

  it('replays a create with the same Idempotency-Key, submitting it to Meta once', async () => {
    const ws = await t.connectedWorkspace();
    const headers = { 'idempotency-key': 'tpl-create-1' };
    const first = await t.api('POST', '/templates', ws.key, { ...NEW, name: 'once_only' }, headers);
    expect(first.statusCode).toBe(201);
    const again = await t.api('POST', '/templates', ws.key, { ...NEW, name: 'once_only' }, headers);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const submitted = simState(t)
      .templates.get(ws.number.businessAccountId)!
      .filter((x) => x.name === 'once_only');
    expect(submitted).toHaveLength(1);
    // Without the key, the same template again is WhatsApp's refusal, in its words.
    const twice = await t.api('POST', '/templates', ws.key, { ...NEW, name: 'once_only' });
    expectRestError(twice, 422, 'validation_error');
    expect(twice.json().error.message).toMatch(/already exists/);
  });

  it('answers 404 for an id of another workspace and for one that does not exist', async () => {
    const a = await t.connectedWorkspace();
    const b = await t.connectedWorkspace();
    const { template } = (await t.api('POST', '/templates', a.key, { ...NEW, name: 'a_only' })).json();
    expectRestError(await t.api('GET', `/templates/${template.id}`, b.key), 404, 'not_found');
    expectRestError(await t.api('DELETE', `/templates/${template.id}`, b.key), 404, 'not_found');
    expect(onNetwork(a, 'a_only')).toBeDefined();
    expect((await t.api('GET', `/templates/${template.id}`, a.key)).statusCode).toBe(200);
    expectRestError(await t.api('GET', '/templates/tpl_nope', a.key), 404, 'not_found');
  });

  it.each([
    ['a name with capitals', { ...NEW, name: 'Order Shipped' }, 'name'],
    ['an unknown category', { ...NEW, category: 'PROMO' }, 'category'],
    ['variables out of turn', { ...NEW, body: 'Hi {{2}}', examples: ['x'] }, 'body'],
    ['too few examples', { ...NEW, examples: ['Asha'] }, 'examples'],
    ['an unknown field', { ...NEW, colour: 'red' }, 'colour'],
    ['a missing language', { name: 'x', category: 'UTILITY', body: 'Hi' }, 'language'],
    ['an OTP option on a utility template', { ...NEW, otp_type: 'COPY_CODE' }, 'otp_type'],
  ])('refuses %s with 422 naming the field, submitting nothing', async (_name, body, field) => {
    const ws = await t.connectedWorkspace();
    const before = simState(t).templates.get(ws.number.businessAccountId)!.length;
    const res = await t.api('POST', '/templates', ws.key, body);
    expectRestError(res, 422, 'validation_error');
    expect(res.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
    expect(simState(t).templates.get(ws.number.businessAccountId)!.length).toBe(before);
  });

  it('refuses a template for a workspace with no connected number', async () => {
    const ws = await t.workspace();
    const res = await t.api('POST', '/templates', ws.key, NEW);
    expectRestError(res, 422, 'validation_error');
    expect(res.json().error.message).toMatch(/no connected number/);
  });
});

describe('GET /templates', () => {
  it('lists approved ones by default, each with its review state', async () => {
    const ws = await t.workspace();
    const base = { category: 'UTILITY', language: 'en', body: 'Hi {{1}}' };
    await saveTemplate(t.ctx.db, ws.id, { ...base, name: 'ok', status: 'APPROVED' });
    await saveTemplate(t.ctx.db, ws.id, { ...base, name: 'waiting', status: 'PENDING' });
    await saveTemplate(t.ctx.db, ws.id, {
      ...base,
      name: 'no',
      status: 'REJECTED',
      rejectedReason: 'INVALID_FORMAT',
    });
    await saveTemplate(t.ctx.db, ws.id, { ...base, name: 'stopped', status: 'PAUSED' });
    const res = await t.api('GET', '/templates', ws.key);
    expect(res.json()).toEqual({
      result: true,
      templates: [expect.objectContaining({ name: 'ok', status: 'APPROVED', variable_count: 1 })],
      next_cursor: null,
    });
    expect(await names(ws, '?status=rejected')).toEqual(['no']);
    expect((await t.api('GET', '/templates?status=rejected', ws.key)).json().templates[0]).toMatchObject({
      rejected_reason: 'INVALID_FORMAT',
    });
    expect((await names(ws, '?status=all')).sort()).toEqual(['no', 'ok', 'stopped', 'waiting']);
  });

  it('answers every approved template in one answer when no page is asked for, as the spec promises', async () => {
    const ws = await t.workspace();
    for (let i = 0; i < 55; i++)
      await saveTemplate(t.ctx.db, ws.id, {
        name: `many_${i}`,
        language: 'en',
        category: 'UTILITY',
        body: 'Hi',
        status: 'APPROVED',
      });
    const all = (await t.api('GET', '/templates', ws.key)).json();
    expect(all.templates).toHaveLength(55);
    expect(all.next_cursor).toBeNull();
    const first = (await t.api('GET', '/templates?limit=50', ws.key)).json();
    expect(first.templates).toHaveLength(50);
    const rest = (
      await t.api('GET', `/templates?cursor=${encodeURIComponent(first.next_cursor)}`, ws.key)
    ).json();
    expect(rest).toMatchObject({ next_cursor: null });
    expect(rest.templates).toHaveLength(5);
  });

  it('pages by cursor, newest first, visiting every template once while new ones arrive', async () => {
    const ws = await t.workspace();
    const add = (name: string) =>
      saveTemplate(t.ctx.db, ws.id, {
        name,
        language: 'en',
        category: 'UTILITY',
        body: 'Hi',
        status: 'APPROVED',
      });
    for (let i = 0; i < 7; i++) await add(`first_${i}`);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await t.api(
        'GET',
        `/templates?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        ws.key,
      );
      expect(res.statusCode).toBe(200);
      const page = res.json();
      seen.push(...page.templates.map((x: { name: string }) => x.name));
      cursor = page.next_cursor;
      // Newer templates arrive between the pages: they sort before the cursor, so none repeats or hides another.
      await add(`later_${pages}`);
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    // Each once (templates made in the same millisecond sort by id, so only the set is known).
    expect(seen).toHaveLength(7);
    expect([...seen].sort()).toEqual(Array.from({ length: 7 }, (_, i) => `first_${i}`));
  });

  it.each([
    ['status=approve', 'status'],
    ['status=', 'status'],
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['limit=ten', 'limit'],
    ['cursor=garbled', 'cursor'],
    [`cursor=${encodeCursor({ micros: '1', id: 'x'.repeat(65) })}`, 'cursor'],
    [`cursor=${'a'.repeat(513)}`, 'cursor'],
  ])('refuses ?%s with 422 naming the field', async (query, field) => {
    const ws = await t.workspace();
    const res = await t.api('GET', `/templates?${query}`, ws.key);
    expectRestError(res, 422, 'validation_error');
    expect(
      res.json().error.details.map((d: { field: string }) => d.field.replace('querystring.', '')),
    ).toContain(field);
  });
});
