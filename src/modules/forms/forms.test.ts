import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { createForm } from './create-form.js';
import { embedSnippets } from './embed-snippets.js';
import { HONEYPOT_FIELD } from './form-fields.js';

const t = testAppForTests();

const HOSTILE = '<script>alert(1)</script>"\'&';

describe('forms', () => {
  it('gets an unguessable token: 192 random bits, distinct per form', async () => {
    const ws = await t.workspace();
    const tokens = new Set<string>();
    for (let i = 0; i < 20; i++) tokens.add((await createForm(t.ctx.db, ws.id)).token);
    expect(tokens.size).toBe(20);
    for (const token of tokens) expect(token).toMatch(/^ft_[\w-]{32}$/);
  });

  it.each([
    [{ redirectUrl: 'javascript:alert(1)' }, /https/],
    [{ redirectUrl: 'not a url' }, /full web address/],
    [{ fields: [] }, /1 to 50/],
    [
      { fields: [{ name: 'company', label: 'Company', type: 'text' as const, required: true }] },
      /email or a phone/,
    ],
    [
      { fields: [{ name: 'token', label: 'T', type: 'text' as const, required: false }] },
      /kept for the form/,
    ],
    [
      { fields: [{ name: HONEYPOT_FIELD, label: 'T', type: 'text' as const, required: false }] },
      /lower-case letters|kept for the form/,
    ],
    [{ fields: [{ name: 'email', label: 'E', type: 'text' as const, required: false }] }, /type email/],
    [{ fields: [{ name: 'Bad Name', label: 'E', type: 'text' as const, required: false }] }, /lower-case/],
    [
      {
        fields: [
          { name: 'email', label: 'E', type: 'email' as const, required: false },
          { name: 'email', label: 'E', type: 'email' as const, required: false },
        ],
      },
      /Two fields are named "email": rename one\./,
    ],
    [
      {
        fields: [
          { name: 'email', label: 'E', type: 'email' as const, required: false },
          { name: 'pick', label: 'P', type: 'select' as const, required: false },
        ],
      },
      /options/,
    ],
    [{ name: '' }, /name/],
    [{ thankYouMessage: 'x'.repeat(1001) }, /1,000/],
  ])('refuses an invalid definition %#', async (input, message) => {
    const ws = await t.workspace();
    await expect(createForm(t.ctx.db, ws.id, input)).rejects.toMatchObject({ code: 'validation_error' });
    await expect(createForm(t.ctx.db, ws.id, input)).rejects.toThrow(message);
  });

  it('refuses an unknown workspace', async () => {
    await expect(createForm(t.ctx.db, 'ws_nope')).rejects.toThrow(/does not exist/);
  });
});

describe('GET /f/{token}: the hosted page', () => {
  it('renders a mobile-friendly form posting to /api/forms/submit, escaping everything', async () => {
    const ws = await t.workspace();
    const form = await createForm(t.ctx.db, ws.id, {
      name: HOSTILE,
      fields: [
        { name: 'name', label: HOSTILE, type: 'text', required: true },
        { name: 'email', label: 'E-mail', type: 'email', required: false },
        { name: 'size', label: 'Size', type: 'select', required: false, options: [HOSTILE, 'M'] },
        { name: 'note', label: 'Note', type: 'textarea', required: false },
        { name: 'ok', label: 'Agree', type: 'checkbox', required: false },
      ],
    });
    const res = await t.app.inject({ method: 'GET', url: `/f/${form.token}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.body).toContain('name="viewport"');
    expect(res.body).toContain('<form method="post" action="/api/forms/submit"');
    expect(res.body).toContain(`name="token" value="${form.token}"`);
    expect(res.body).toContain(`name="${HONEYPOT_FIELD}"`);
    expect(res.body).not.toContain('<script>');
    expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;');
    expect(res.body).toMatch(/<textarea id="pf_note" name="note" maxlength="10000"><\/textarea>/);
  });

  it('answers 404 for an inactive or unknown form', async () => {
    const ws = await t.workspace();
    const inactive = await createForm(t.ctx.db, ws.id, { active: false });
    for (const token of [inactive.token, 'nope', '%3Cscript%3E']) {
      const res = await t.app.inject({ method: 'GET', url: `/f/${token}` });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('<script>');
    }
  });
});

describe('GET /f/{token}/embed.js', () => {
  it('serves the script with the form inlined as safe JSON, posting to the origin it came from', async () => {
    const ws = await t.workspace();
    const form = await createForm(t.ctx.db, ws.id, { name: '</script><script>alert(1)</script>\u2028' });
    const res = await t.app.inject({ method: 'GET', url: `/f/${form.token}/embed.js` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.body).not.toContain('</script>');
    expect(res.body).not.toContain('\u2028');
    expect(res.body).toContain("new URL('/api/forms/submit', script.src)");
    expect(() => new Function(res.body)).not.toThrow();
    const inactive = await createForm(t.ctx.db, ws.id, { active: false });
    expect((await t.app.inject({ method: 'GET', url: `/f/${inactive.token}/embed.js` })).statusCode).toBe(
      404,
    );
  });
});

describe('publish codes', () => {
  it('gives the hosted URL, the script tag and a plain HTML form posting to the app URL', async () => {
    const ws = await t.workspace();
    const form = await createForm(t.ctx.db, ws.id);
    const codes = await embedSnippets(t.ctx.db, t.ctx.config.appUrl, ws.id, form.id);
    expect(codes).toEqual({
      hosted_url: `http://parley.test/f/${form.token}`,
      script: `<script src="http://parley.test/f/${form.token}/embed.js" async></script>`,
      html: expect.stringContaining('<form method="post" action="http://parley.test/api/forms/submit"'),
    });
    const other = await t.workspace();
    expect(await embedSnippets(t.ctx.db, t.ctx.config.appUrl, other.id, form.id)).toBeNull();
  });
});
