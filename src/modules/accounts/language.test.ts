import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import {
  type AppClient,
  createTestUser,
  newSession,
  workspaceWithOwner,
} from '../../../test/support/app-session.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { addMember } from './users.js';

// Each person's language for the web app (issue 34): their own, read back in the session.

const t = testAppForTests();

const languageOf = async (client: AppClient) => (await client.call('GET', '/session')).json().user.language;

describe('PUT /api/app/me/language', () => {
  it('sets the language, reads it back in the session, and goes back to the browser’s with null', async () => {
    const { client } = await workspaceWithOwner(t, 'owner', { session: 'direct' });
    expect(await languageOf(client)).toBeNull();
    for (const language of ['ar', 'pt-BR', 'en']) {
      const res = await client.call('PUT', '/me/language', { language });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ result: true, language });
      expect(await languageOf(client)).toBe(language);
    }
    expect((await client.call('PUT', '/me/language', { language: null })).json().language).toBeNull();
    expect(await languageOf(client)).toBeNull();
  });

  it('carries the workspace’s time zone in the session, for dates in the app', async () => {
    const { client, workspaceId } = await workspaceWithOwner(t, 'owner', { session: 'direct' });
    await t.ctx.db.query("UPDATE workspaces SET time_zone = 'Asia/Kolkata' WHERE id = $1", [workspaceId]);
    expect((await client.call('GET', '/session')).json().workspace.time_zone).toBe('Asia/Kolkata');
  });

  it.each([
    ['an unknown code', { language: 'fr' }],
    ['a code in the wrong case', { language: 'pt-br' }],
    ['a number', { language: 7 }],
    ['a list', { language: ['ar'] }],
    ['an oversized string', { language: 'a'.repeat(100_000) }],
    ['no language', {}],
    ['another field', { language: 'ar', theme: 'dark' }],
  ])('refuses %s with the project’s validation error and keeps the choice', async (_case, body) => {
    const { client } = await workspaceWithOwner(t, 'owner', { session: 'direct' });
    await client.call('PUT', '/me/language', { language: 'hi' });
    const res = await client.call('PUT', '/me/language', body);
    expectRestError(res, 422, 'validation_error');
    expect(res.json().error.details[0].field).toMatch(/^language|^theme|^body/);
    expect(await languageOf(client)).toBe('hi');
  });

  it('changes only the person’s own choice, not a teammate’s in the same workspace', async () => {
    const { client: owner, workspaceId } = await workspaceWithOwner(t, 'owner', { session: 'direct' });
    const email = `mate-${Math.random().toString(36).slice(2, 8)}@example.com`;
    await addMember(t.ctx.db, workspaceId, await createTestUser(t.ctx.db, email), 'member');
    const mate = await newSession(t, email);
    await mate.call('PUT', '/me/language', { language: 'es' });
    await owner.call('PUT', '/me/language', { language: 'ar' });
    expect(await languageOf(owner)).toBe('ar');
    expect(await languageOf(mate)).toBe('es');
  });

  it('follows the person into each workspace they belong to', async () => {
    const { client } = await workspaceWithOwner(t, 'owner', { session: 'direct' });
    await client.call('PUT', '/me/language', { language: 'id' });
    const made = await client.call('POST', '/workspaces', { name: 'Second' });
    expect(made.statusCode, made.body).toBe(201);
    const session = (await client.call('GET', '/session')).json();
    expect(session.workspace.id).toBe(made.json().id);
    expect(session.user.language).toBe('id');
  });
});
