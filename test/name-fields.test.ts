import type { TSchema } from 'typebox';
import { afterAll, describe, expect, it } from 'vitest';
import { NAME_PATTERN } from '../src/api/schema.js';
import { Definition } from '../src/modules/automation/definition.js';
import { createForm } from '../src/modules/forms/create-form.js';
import { createWorkspace } from '../src/modules/workspaces/create-workspace.js';
import { createTestApp } from './support/app.js';
import { workspaceWithOwner } from './support/app-session.js';
import { expectRestError } from './support/endpoint-security.js';
import { routeName, withRouteTable } from './support/route-table.js';

// The routes come from the server itself: a name or label field added to any body meets this test.
const { value: t, routes } = await withRouteTable(() => createTestApp({ role: 'api' }));
afterAll(() => t.close());

/** Fields people name things with, by their key: `name`, `label`, `title`, `tag(s)`, `options`, `..._name`. */
const NAME_KEY = /^(name|label|title|tag|tags|options)$|_name$/;

// Message content goes to the network, which has its own rules; it is not a stored name.
const EXEMPT = new Set(['/api/v1 POST /messages', '/api/app POST /conversations/:id/messages']);
const MESSAGE_CONTENT = /\.message\.|\.template\.header\./;
// A saved view's query names its label by the label's id, not by a name.
const IDS = /saved-views.* body\.query\.label$/;

type Schema = TSchema & Record<string, unknown>;

/** Every string the schema takes, with its path and the key it sits under. */
function* strings(s: Schema, path: string, key: string): Generator<[path: string, schema: Schema]> {
  if (s.type === 'string' && NAME_KEY.test(key)) yield [path, s];
  for (const [k, v] of Object.entries((s.properties ?? {}) as Record<string, Schema>))
    yield* strings(v, `${path}.${k}`, k);
  if (s.items) yield* strings(s.items as Schema, `${path}[]`, key);
  for (const branch of [s.anyOf, s.oneOf, s.allOf].flat() as (Schema | undefined)[])
    if (branch) yield* strings(branch, path, key);
  if (typeof s.additionalProperties === 'object')
    yield* strings(s.additionalProperties as Schema, `${path}.*`, key);
}

const nameFields = [
  ...routes
    .filter((r) => r.body && !EXEMPT.has(`${r.prefix} ${routeName(r)}`))
    .flatMap((r) =>
      [...strings(r.body as Schema, 'body', '')].map(
        ([path, s]) => [`${r.prefix} ${routeName(r)} ${path}`, s] as const,
      ),
    ),
  ...[...strings(Definition as unknown as Schema, 'definition', '')].map(
    ([path, s]) => [`automation ${path}`, s] as const,
  ),
].filter(([name]) => !MESSAGE_CONTENT.test(name) && !IDS.test(name));

describe('names and labels', () => {
  it('are found in the route table: people, workspaces, contacts, tags, forms, templates, broadcasts, automations', () => {
    const names = nameFields.map(([name]) => name);
    for (const expected of [
      '/api/app PATCH /workspace body.name',
      '/api/app POST /setup body.workspace_name',
      '/api/app POST /invitations/accept body.name',
      '/api/v1 POST /contacts body.tags[]',
      '/api/app POST /forms body.fields[].label',
      '/api/app POST /templates body.name',
      '/api/v1 POST /broadcasts body.name',
      '/api/v1 POST /automations body.name',
      '/api/v1 PATCH /automations/:id body.name',
      'automation definition.name',
    ])
      expect(names).toContain(expected);
  });

  it.each(nameFields)('%s takes one line of printable text', (_name, schema) => {
    expect(schema.pattern).toBe(NAME_PATTERN);
  });

  it('refuse control characters with 422 naming the field, in plain words', async () => {
    const { client, apiKey } = await workspaceWithOwner(t);
    const words = 'Remove the line breaks, tabs and other control characters.';
    const renamed = await client.call('PATCH', '/workspace', { name: 'Acme\nClick here: evil.example' });
    expectRestError(renamed, 422, 'validation_error');
    expect(renamed.json().error.details).toEqual([{ field: 'name', message: words }]);
    // NEL (U+0085) is a C1 control, a line break to some readers.
    const contact = await t.api('POST', '/contacts', apiKey, { phone: '+14155550100', name: 'Ann\u0085Bo' });
    expect(contact.json().error.details).toEqual([{ field: 'name', message: words }]);
    const tagged = await t.api('POST', '/contacts', apiKey, { phone: '+14155550100', tags: ['ok', 'vip\t'] });
    expect(tagged.json().error.details).toEqual([{ field: 'tags.1', message: words }]);
    const separated = await t.api('POST', '/broadcasts', apiKey, { name: 'May\u2028sale' });
    expect(separated.json().error.details).toContainEqual({ field: 'name', message: words });
  });

  it('refuse them where names arrive without a schema too (the CLI creates workspaces and forms)', async () => {
    const words = 'Remove the line breaks, tabs and other control characters.';
    await expect(createWorkspace(t.ctx.db, { name: 'Acme\nInc' })).rejects.toMatchObject({
      code: 'validation_error',
      details: [{ field: 'name', message: words }],
    });
    const ws = await t.workspace();
    await expect(createForm(t.ctx.db, ws.id, { name: 'Sign\u0007up' })).rejects.toMatchObject({
      code: 'validation_error',
      details: [{ field: 'name', message: words }],
    });
  });

  it('take names in any script, emoji and punctuation', async () => {
    const { apiKey } = await workspaceWithOwner(t);
    const name = "Zoë O'Brien-Łukasz 山田 👩‍👩‍👧 (VIP)";
    const res = await t.api('POST', '/contacts', apiKey, { phone: '+14155550101', name, tags: ['café ☕'] });
    expect(res.statusCode).toBe(201);
  });
});
