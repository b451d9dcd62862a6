import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { workspaceWithOwner } from '../../../test/support/app-session.js';
import { FIELD_LIMITS } from '../../lib/field-limits.js';

const t = testAppForTests();

describe('Settings › General opt-out words and replies', () => {
  it('keeps the words as they are matched and the replies, and shows them back', async () => {
    const { client } = await workspaceWithOwner(t);
    const res = await client.call('PATCH', '/workspace', {
      opt_out_keywords: [' baja! ', 'No  more', 'BAJA'],
      opt_in_keywords: ['alta'],
      opt_out_confirmation: '  Done, no more offers.  ',
    });
    expect(res.statusCode).toBe(200);
    expect((await client.call('GET', '/workspace')).json().workspace).toMatchObject({
      opt_out_keywords: ['BAJA', 'NO MORE'],
      opt_in_keywords: ['ALTA'],
      opt_out_confirmation: 'Done, no more offers.',
      opt_in_confirmation: null,
    });
    await client.call('PATCH', '/workspace', { opt_out_confirmation: '' });
    expect((await client.call('GET', '/workspace')).json().workspace.opt_out_confirmation).toBeNull();
  });

  it.each([
    [{ opt_out_keywords: ['!!!'] }, 'opt_out_keywords', /at least one letter or digit/],
    [{ opt_in_keywords: ['x'.repeat(51)] }, 'opt_in_keywords', /at most 50 characters/],
    [
      { opt_out_confirmation: 'x'.repeat(FIELD_LIMITS.consentReply + 1) },
      'opt_out_confirmation',
      new RegExp(`at most ${FIELD_LIMITS.consentReply.toLocaleString('en')} characters`),
    ],
    [
      { opt_out_keywords: ['stop it'], opt_in_keywords: ['Stop it!'] },
      'opt_in_keywords',
      /cannot both opt out and opt in/,
    ],
  ])('refuses %j in words naming the field', async (body, field, message) => {
    const { client } = await workspaceWithOwner(t);
    const res = await client.call('PATCH', '/workspace', body);
    expect(res.statusCode).toBe(422);
    expect(res.json().error.details).toEqual([{ field, message: expect.stringMatching(message) }]);
  });

  it('is for owners and admins only', async () => {
    const { client } = await workspaceWithOwner(t, 'member');
    expect((await client.call('PATCH', '/workspace', { opt_out_keywords: ['baja'] })).statusCode).toBe(403);
  });
});
