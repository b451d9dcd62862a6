import { expect, it } from 'vitest';
import { testAppForTests } from '../../test/support/app.js';
import { WEBHOOK_EVENTS } from '../modules/webhooks/endpoints.js';

const t = testAppForTests();

it('serves an OpenAPI 3 document of REST v1, generated from the route schemas', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  const doc = res.json();
  expect(doc.openapi).toMatch(/^3\./);
  expect(doc.servers).toEqual([{ url: 'http://parley.test/api/v1' }]);
  expect(Object.keys(doc.paths).sort()).toEqual([
    '/audit-log',
    '/automations',
    '/automations/{id}',
    '/automations/{id}/restore',
    '/automations/{id}/rotate-secret',
    '/broadcasts',
    '/broadcasts/audience',
    '/broadcasts/preview',
    '/broadcasts/{id}',
    '/broadcasts/{id}/cancel',
    '/broadcasts/{id}/pause',
    '/broadcasts/{id}/recipients',
    '/broadcasts/{id}/resume',
    '/broadcasts/{id}/timeline',
    '/business-hours',
    '/contacts',
    '/contacts/export',
    '/contacts/import',
    '/contacts/imports/{id}',
    '/contacts/tags',
    '/contacts/{id}',
    '/contacts/{id}/timeline',
    '/conversations',
    '/conversations/bulk',
    '/conversations/{id}',
    '/conversations/{id}/assign',
    '/conversations/{id}/bot/resume',
    '/conversations/{id}/bot/stop',
    '/conversations/{id}/labels',
    '/conversations/{id}/labels/{label_id}',
    '/conversations/{id}/messages',
    '/conversations/{id}/notes',
    '/conversations/{id}/pending',
    '/conversations/{id}/reopen',
    '/conversations/{id}/resolve',
    '/conversations/{id}/snooze',
    '/conversations/{id}/unsnooze',
    '/dashboard',
    '/events',
    '/forms',
    '/forms/{id}',
    '/forms/{id}/restore',
    '/labels',
    '/labels/{id}',
    '/leads',
    '/leads/export',
    '/leads/{id}',
    '/leads/{id}/notes',
    '/leads/{id}/restore',
    '/media',
    '/messages',
    '/messages/{id}',
    '/messages/{id}/media',
    '/number',
    '/number/check',
    '/quick-replies',
    '/quick-replies/{id}',
    '/routing',
    '/runs',
    '/runs/{id}',
    '/satisfaction',
    '/satisfaction/settings',
    '/teams',
    '/teams/{id}',
    '/templates',
    '/templates/header-sample',
    '/templates/sync',
    '/templates/{id}',
    '/templates/{id}/archive',
    '/templates/{id}/restore',
    '/usage',
    '/webhooks',
    '/webhooks/{id}',
    '/webhooks/{id}/deliveries',
    '/webhooks/{id}/test',
    '/workspace',
    '/workspace/retention',
  ]);
  const upsert = doc.paths['/contacts'].post;
  expect(Object.keys(upsert.responses)).toEqual(
    expect.arrayContaining(['200', '201', '401', '402', '422', '429']),
  );
  expect(upsert.requestBody.content['application/json'].schema.required).toEqual(['phone']);
  expect(doc.paths['/contacts'].get.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
    'cursor',
    'limit',
    'offset',
    'phone',
  ]);
  const template =
    doc.paths['/messages'].post.requestBody.content['application/json'].schema.properties.template;
  expect(Object.keys(template.properties).sort()).toEqual(['body', 'buttons', 'header', 'language', 'name']);
  const listed =
    doc.paths['/templates'].get.responses['200'].content['application/json'].schema.properties.templates;
  expect(Object.keys(listed.items.properties)).toEqual(
    expect.arrayContaining(['variable_count', 'parameter_format', 'body_parameters', 'header', 'buttons']),
  );
  const automation = doc.paths['/automations'].post;
  expect(automation.requestBody.content['application/json'].schema.required).toEqual([
    'name',
    'trigger',
    'steps',
  ]);
  expect(Object.keys(automation.responses)).toEqual(
    expect.arrayContaining(['201', '401', '409', '422', '429']),
  );
  expect(Object.keys(doc.paths['/automations/{id}']).sort()).toEqual(['delete', 'get', 'patch']);
  expect(Object.keys(doc.paths['/automations/{id}'].delete.responses)).toEqual(
    expect.arrayContaining(['204', '404']),
  );
  expect(Object.keys(doc.paths['/conversations/{id}/assign'].post.responses)).toEqual(
    expect.arrayContaining(['200', '401', '404', '422', '429']),
  );
  expect(Object.keys(doc.webhooks)).toEqual([...WEBHOOK_EVENTS]);
  const resolved = doc.webhooks['conversation.resolved'].post.requestBody.content['application/json'].schema;
  expect(Object.keys(resolved.properties.data.properties)).toEqual(
    expect.arrayContaining(['id', 'contact', 'status', 'assignee', 'changed_by']),
  );
  expect(JSON.stringify(doc)).not.toMatch(/healthz|metrics|openapi\.json/);
});

it('serves a readable docs page', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/docs/' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/text\/html/);
  expect(res.body).toContain('Swagger UI');
});
