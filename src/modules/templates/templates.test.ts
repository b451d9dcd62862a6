import { expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { workspaceWithOwner } from '../../../test/support/app-session.js';
import { saveTemplate } from './save-template.js';

const t = testAppForTests();

it('lists only approved templates, each with its variable count', async () => {
  const ws = await t.workspace();
  const base = { category: 'UTILITY', language: 'en' };
  await saveTemplate(t.ctx.db, ws.id, {
    ...base,
    name: 'order',
    body: 'Order {{1}} is {{2}}',
    status: 'APPROVED',
  });
  await saveTemplate(t.ctx.db, ws.id, { ...base, name: 'draft', body: 'Hi {{1}}', status: 'PENDING' });
  await saveTemplate(t.ctx.db, ws.id, { ...base, name: 'nope', body: 'No', status: 'REJECTED' });
  const res = await t.api('GET', '/templates', ws.key);
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({
    result: true,
    templates: [
      {
        id: expect.stringMatching(/^tpl_/),
        name: 'order',
        language: 'en',
        category: 'UTILITY',
        body: 'Order {{1}} is {{2}}',
        variable_count: 2,
        parameter_format: 'POSITIONAL',
        body_parameters: [],
        header: null,
        buttons: [],
        status: 'APPROVED',
        rejected_reason: null,
        status_reason: null,
        quality_score: null,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
        updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      },
    ],
    next_cursor: null,
  });
});

it('follows a template whose status or body changes', async () => {
  const ws = await t.workspace();
  const tpl = {
    category: 'MARKETING',
    language: 'pt_BR',
    name: 'promo',
    body: 'Oi',
    status: 'PENDING' as const,
  };
  await saveTemplate(t.ctx.db, ws.id, tpl);
  expect((await t.api('GET', '/templates', ws.key)).json().templates).toEqual([]);
  await saveTemplate(t.ctx.db, ws.id, { ...tpl, body: 'Oi {{1}}', status: 'APPROVED' });
  expect((await t.api('GET', '/templates', ws.key)).json().templates).toMatchObject([
    { name: 'promo', language: 'pt_BR', variable_count: 1 },
  ]);
});

it("answers the web app's list with what Meta sent, even fields and statuses the schema does not name", async () => {
  const { workspaceId, client } = await workspaceWithOwner(t);
  const offer = { text: 'Ends soon', has_expiration: true };
  await saveTemplate(t.ctx.db, workspaceId, {
    category: 'MARKETING',
    language: 'en',
    name: 'flash',
    body: 'Sale {{1}}',
    status: 'APPROVED',
    components: [
      { type: 'BODY', text: 'Sale {{1}}', example: { body_text: [['today']] } },
      { type: 'LIMITED_TIME_OFFER', limited_time_offer: offer } as never,
    ],
  });
  // A status Meta may add later (appeals), written as the sync would keep it.
  await t.ctx.db.query("UPDATE templates SET status = 'IN_APPEAL' WHERE workspace_id = $1", [workspaceId]);
  const res = await client.call('GET', '/templates');
  expect(res.statusCode).toBe(200);
  expect(res.json().templates).toMatchObject([
    {
      name: 'flash',
      status: 'IN_APPEAL',
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      components: [
        { type: 'BODY', text: 'Sale {{1}}', example: { body_text: [['today']] } },
        { type: 'LIMITED_TIME_OFFER', limited_time_offer: offer },
      ],
    },
  ]);
});
