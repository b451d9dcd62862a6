import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createTestApp, testAppForTests } from '../../../test/support/app.js';
import { expectIntakeError, freshAddress, leadsOf, submit } from '../../../test/support/intake.js';
import { countStatements } from '../../../test/support/statements.js';
import { buildServer } from '../../http/server.js';
import { createForm } from '../forms/create-form.js';
import { DEFAULT_FIELDS, HONEYPOT_FIELD } from '../forms/form-fields.js';
import { createEndpoint } from '../webhooks/endpoints.js';
import { setPlan } from '../workspaces/plans.js';
import { createLead } from './create-lead.js';
import { reserveLead } from './lead-reservation.js';

const t = testAppForTests({ env: { WEBHOOKS_ALLOW_PRIVATE: 'true' } });

async function workspaceWithForm(options: Parameters<typeof createForm>[2] = {}, plan = 'growth') {
  const ws = await t.workspace({ defaultCountryCode: '91', plan });
  const form = await createForm(t.ctx.db, ws.id, options);
  return { ws, form };
}

const count = async (table: string, workspaceId: string) =>
  (
    await t.ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE workspace_id = $1`, [
      workspaceId,
    ])
  ).rows[0]!.n;

describe('POST /api/forms/submit', () => {
  it('stores the lead with every field, links a new contact by normalised phone, answers 201', async () => {
    const { ws, form } = await workspaceWithForm();
    const res = await submit(t, {
      token: form.token,
      name: ' Asha Rao ',
      email: 'asha@example.com',
      phone: '98765 43210',
      company: 'Acme',
      budget: 5000,
      interests: ['a', 'b'],
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ success: true, lead_id: expect.stringMatching(/^ld_/) });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const [lead] = await leadsOf(t, ws.id);
    expect(lead).toMatchObject({
      id: res.json().lead_id,
      name: 'Asha Rao',
      email: 'asha@example.com',
      phone: '919876543210',
      source: 'form',
      source_id: form.id,
      status: 'new',
      fields: { company: 'Acme', budget: 5000, interests: ['a', 'b'] },
    });
    const { rows } = await t.ctx.db.query(
      'SELECT id, phone, name, email FROM contacts WHERE workspace_id = $1',
      [ws.id],
    );
    expect(rows).toEqual([
      { id: lead!.contact_id, phone: '919876543210', name: 'Asha Rao', email: 'asha@example.com' },
    ]);
  });

  it('links the existing contact with that phone, filling only its blanks', async () => {
    const { ws, form } = await workspaceWithForm();
    const created = await t.api('POST', '/contacts', ws.key, { phone: '+919876543210', name: 'Known' });
    const res = await submit(t, {
      token: form.token,
      name: 'Other',
      email: 'k@example.com',
      phone: '+91 98765 43210',
    });
    expect(res.statusCode).toBe(201);
    const [lead] = await leadsOf(t, ws.id);
    expect(lead!.contact_id).toBe(created.json().id);
    const { rows } = await t.ctx.db.query('SELECT name, email FROM contacts WHERE workspace_id = $1', [
      ws.id,
    ]);
    expect(rows).toEqual([{ name: 'Known', email: 'k@example.com' }]);
  });

  it('takes a lead with an e-mail only, without a contact', async () => {
    const { ws, form } = await workspaceWithForm();
    expect((await submit(t, { token: form.token, email: 'only@example.com', phone: '  ' })).statusCode).toBe(
      201,
    );
    const [lead] = await leadsOf(t, ws.id);
    expect(lead).toMatchObject({ email: 'only@example.com', phone: null, contact_id: null, name: null });
    expect(await count('contacts', ws.id)).toBe(0);
  });

  it('records lead.created for the workspace webhooks', async () => {
    const { ws, form } = await workspaceWithForm();
    await createEndpoint(t.ctx, ws.id, 'http://127.0.0.1:9/hook', ['lead.created']);
    const res = await submit(t, { token: form.token, email: 'hook@example.com', plan: 'pro' });
    const { rows } = await t.ctx.db.query<{ payload: { type: string; data: Record<string, unknown> } }>(
      "SELECT payload FROM webhook_deliveries WHERE workspace_id = $1 AND event_type = 'lead.created'",
      [ws.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.payload).toMatchObject({
      type: 'lead.created',
      data: { id: res.json().lead_id, email: 'hook@example.com', source: 'form', fields: { plan: 'pro' } },
    });
  });

  it.each([
    ['no token', { email: 'a@example.com' }],
    ['an empty token', { token: '  ', email: 'a@example.com' }],
    ['a numeric token', { token: 5, email: 'a@example.com' }],
    ['an empty object', {}],
  ])('answers 400 for %s', async (_name, body) => {
    expectIntakeError(await submit(t, body), 400, /token/);
  });

  it('answers 404 for an unknown token, a token of the wrong shape and an inactive form, storing nothing', async () => {
    const { ws } = await workspaceWithForm();
    const inactive = await createForm(t.ctx.db, ws.id, { active: false });
    for (const token of [inactive.token, `ft_${'A'.repeat(32)}`, 'nope', "' OR 1=1 --", 'x'.repeat(5000)]) {
      expectIntakeError(await submit(t, { token, email: 'a@example.com' }), 404, /active form/);
    }
    expect(await count('leads', ws.id)).toBe(0);
  });

  it('answers 422 without an e-mail and a phone (blank ones count as missing), storing nothing', async () => {
    const { ws, form } = await workspaceWithForm();
    expectIntakeError(
      await submit(t, { token: form.token, name: 'Nobody' }),
      422,
      /e-mail address or a phone/,
    );
    expectIntakeError(
      await submit(t, { token: form.token, email: '', phone: ' ' }),
      422,
      /e-mail address or a phone/,
    );
    expect(await count('leads', ws.id)).toBe(0);
    expect(await count('lead_usage', ws.id)).toBe(0);
  });

  it('answers 422 for an invalid e-mail or phone and a missing required field', async () => {
    const { ws, form } = await workspaceWithForm({
      fields: [
        { name: 'email', label: 'E-mail', type: 'email', required: true },
        { name: 'company', label: 'Company', type: 'text', required: true },
        { name: 'phone', label: 'Phone', type: 'tel', required: false },
      ],
    });
    expectIntakeError(
      await submit(t, { token: form.token, email: 'not-an-email', company: 'A' }),
      422,
      /e-mail/,
    );
    expectIntakeError(
      await submit(t, { token: form.token, email: 'a@example.com', company: ' ' }),
      422,
      /"Company" is required/,
    );
    expectIntakeError(
      await submit(t, { token: form.token, company: 'A', phone: '+91 98765' }),
      422,
      /"E-mail" is required/,
    );
    expectIntakeError(
      await submit(t, { token: form.token, email: 'a@example.com', company: 'A', phone: '12ab' }),
      422,
      /^Use digits only/,
    );
    expect(await count('leads', ws.id)).toBe(0);
  });

  it('checks the value of a field whose name holds a line break like any other (it escaped the schema: 500)', async () => {
    const { ws, form } = await workspaceWithForm({});
    for (const name of ['\n', 'a\nb', 'note\r\n']) {
      expectIntakeError(
        await submit(t, { token: form.token, email: 'a@example.com', [name]: [{}] }),
        422,
        /: Use text here\.$/,
      );
    }
    expect(await count('leads', ws.id)).toBe(0);
  });

  it('quietly drops a bot that fills the honeypot: success, nothing stored, nothing counted', async () => {
    const { ws, form } = await workspaceWithForm();
    const res = await submit(t, {
      token: form.token,
      email: 'bot@example.com',
      [HONEYPOT_FIELD]: 'http://spam',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ success: true, lead_id: expect.stringMatching(/^ld_/) });
    expect(await count('leads', ws.id)).toBe(0);
    expect(await count('lead_usage', ws.id)).toBe(0);
  });

  it('answers CORS preflights so embeds on other sites can post', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/forms/submit',
      headers: {
        origin: 'https://customer.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'POST, OPTIONS',
      'access-control-allow-headers': 'content-type',
    });
  });
});

describe('POST /api/forms/submit with hostile or malformed input: the envelope, never a 500', () => {
  const raw = (payload: string | Buffer, contentType?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/forms/submit',
      remoteAddress: freshAddress(),
      payload,
      headers: contentType ? { 'content-type': contentType } : {},
    });

  it.each([
    ['broken JSON', '{"token": ', 'application/json', 400],
    ['an empty JSON body', '', 'application/json', 400],
    ['a JSON array', '[1,2]', 'application/json', 422],
    ['JSON null', 'null', 'application/json', 422],
    ['a JSON string', '"token"', 'application/json', 422],
    ['a nested object', '{"token":"x","a":{"b":1}}', 'application/json', 422],
    ['a NUL character', '{"token":"x","a":"\\u0000"}', 'application/json', 422],
    ['a number out of range', '{"token":"x","a":1e400}', 'application/json', 422],
    ['__proto__', '{"token":"x","__proto__":{"admin":true}}', 'application/json', 400],
    ['text/plain', 'token=x', 'text/plain', 415],
    ['XML', '<a/>', 'application/xml', 415],
    ['no content type', 'token=x', undefined, 415],
    [
      '101 fields',
      JSON.stringify(Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`f${i}`, 'x']))),
      'application/json',
      422,
    ],
    [
      'a 65-character field name',
      JSON.stringify({ token: 'x', ['k'.repeat(65)]: 'v' }),
      'application/json',
      422,
    ],
    [
      'a 10,001-character value',
      JSON.stringify({ token: 'x', note: 'v'.repeat(10_001) }),
      'application/json',
      422,
    ],
    ['a 100 kB JSON body', JSON.stringify({ token: 'x', a: 'v'.repeat(100_000) }), 'application/json', 413],
    [
      'a 100 kB urlencoded body',
      `token=x&a=${'v'.repeat(100_000)}`,
      'application/x-www-form-urlencoded',
      413,
    ],
    ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), 'application/json', 400],
  ])('%s', async (_name, payload, contentType, status) => {
    const res = await raw(payload, contentType);
    expectIntakeError(res, status as number);
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it('stores a lone UTF-16 surrogate as U+FFFD and refuses U+0000 in a urlencoded value', async () => {
    const { ws, form } = await workspaceWithForm();
    const res = await raw(
      `{"token":"${form.token}","email":"s@example.com","note":"a\\ud800b"}`,
      'application/json',
    );
    expect(res.statusCode, res.body).toBe(201);
    const [lead] = await leadsOf(t, ws.id);
    expect(lead!.fields).toEqual({ note: 'a\ufffdb' });
    expectIntakeError(
      await raw(`token=${form.token}&email=n%40example.com&a=%00`, 'application/x-www-form-urlencoded'),
      422,
    );
  });

  it('answers unknown paths and methods under /api/forms with the envelope', async () => {
    expectIntakeError(await t.app.inject({ method: 'GET', url: '/api/forms/submit' }), 404);
    expectIntakeError(await t.app.inject({ method: 'POST', url: '/api/forms/other', payload: {} }), 404);
  });
});

describe('the plain HTML form (application/x-www-form-urlencoded)', () => {
  const browser = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
  };

  it('stores the lead and answers a browser with the thank-you page, escaped', async () => {
    const { ws, form } = await workspaceWithForm({ thankYouMessage: 'Thanks <b>&</b> "bye"' });
    const body = new URLSearchParams({
      token: form.token,
      name: 'Ravi',
      email: 'ravi@example.com',
      phone: '',
      [HONEYPOT_FIELD]: '',
    });
    body.append('topics', 'x');
    body.append('topics', 'y');
    const res = await submit(t, body.toString(), { headers: browser });
    expect(res.statusCode).toBe(201);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('Thanks &lt;b&gt;&amp;&lt;/b&gt; &quot;bye&quot;');
    const [lead] = await leadsOf(t, ws.id);
    expect(lead).toMatchObject({
      name: 'Ravi',
      email: 'ravi@example.com',
      phone: null,
      fields: { topics: ['x', 'y'] },
    });
  });

  it("redirects a browser to the form's redirect URL with 303", async () => {
    const { ws, form } = await workspaceWithForm({ redirectUrl: 'https://customer.example/thanks?x=1' });
    const res = await submit(
      t,
      new URLSearchParams({ token: form.token, email: 'r@example.com' }).toString(),
      {
        headers: browser,
      },
    );
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('https://customer.example/thanks?x=1');
    expect(await count('leads', ws.id)).toBe(1);
  });

  it('shows a browser the same form again with what was typed and each error beside its field', async () => {
    const { ws, form } = await workspaceWithForm({
      fields: [
        ...DEFAULT_FIELDS,
        { name: 'note', label: 'Note', type: 'textarea', required: false },
        { name: 'size', label: 'Size', type: 'select', required: false, options: ['1-10', '11-50'] },
      ],
    });
    const typed = {
      token: form.token,
      name: 'Ravi "R" <b>',
      phone: '12ab',
      note: 'Call <after> 5',
      size: '11-50',
    };
    const res = await submit(t, new URLSearchParams(typed).toString(), { headers: browser });
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toMatch(/default-src 'none'/);
    const html = res.body;
    expect(html).toContain('<form method="post" action="/api/forms/submit"');
    expect(html).toContain('value="Ravi &quot;R&quot; &lt;b&gt;"');
    expect(html).toContain('value="12ab"');
    expect(html).toContain('>Call &lt;after&gt; 5</textarea>');
    expect(html).toContain('<option selected>11-50</option>');
    expect(html).toMatch(
      /<input id="pf_phone" [^>]*aria-invalid="true" aria-describedby="pf_phone_error">\s*<p class="error" id="pf_phone_error">Use digits only[^<]*\.<\/p>/,
    );
    expect(html).not.toMatch(/back button|phone:/);
    expect(await count('leads', ws.id)).toBe(0);

    // Fixed and sent again, it goes through.
    const fixed = await submit(t, new URLSearchParams({ ...typed, phone: '+14155552671' }).toString(), {
      headers: browser,
    });
    expect(fixed.statusCode).toBe(201);
  });

  it('puts the error of a value the form has no field for above the form, and keeps the fields', async () => {
    const { form } = await workspaceWithForm();
    const body = `token=${form.token}&name=Asha&extra=${'x'.repeat(10_001)}`;
    const page = await submit(t, body, { headers: browser });
    expect(page.statusCode).toBe(422);
    expect(page.body).toMatch(
      /<div class="error" role="alert"><p>Please correct[^<]*<\/p><p>Use at most 10,000 characters\.<\/p><\/div>\s*<form/,
    );
    expect(page.body).toContain('value="Asha"');
  });

  it('shows a browser a readable error page, and gives non-browser callers the JSON envelope', async () => {
    const { form } = await workspaceWithForm();
    const page = await submit(t, `token=${form.token}&name=%3Cscript%3E`, { headers: browser });
    expect(page.statusCode).toBe(422);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('e-mail address or a phone number');
    expect(page.body).not.toContain('<script>');
    const missing = await submit(t, 'name=x', { headers: browser });
    expect(missing.statusCode).toBe(400);
    expect(missing.headers['content-type']).toMatch(/^text\/html/);

    const json = await submit(t, `token=${form.token}&email=u%40example.com`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(json.statusCode).toBe(201);
    expect(json.json()).toEqual({ success: true, lead_id: expect.any(String) });
    expectIntakeError(
      await submit(t, 'name=x', { headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
      400,
    );
  });
});

describe('5 submissions per minute per client address', () => {
  it('refuses the sixth from one address with 429 and Retry-After, ignoring X-Forwarded-For without TRUST_PROXY', async () => {
    const { ws, form } = await workspaceWithForm();
    const started = Date.now();
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      const res = await submit(
        t,
        { token: form.token, email: `a${i}@example.com` },
        {
          remoteAddress: '192.0.2.10',
          headers: { 'x-forwarded-for': `198.51.100.${i}` },
        },
      );
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201]);
    const refused = await submit(
      t,
      { token: form.token, email: 'six@example.com' },
      {
        remoteAddress: '192.0.2.10',
        headers: { 'x-forwarded-for': '198.51.100.99' },
      },
    );
    expectIntakeError(refused, 429, /at most 5 a minute/);
    const elapsed = Math.ceil((Date.now() - started) / 1000);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(60 - elapsed);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused.headers['access-control-allow-origin']).toBe('*');
    // Invalid submissions count too (no guessing tokens at full speed), and another address has its own budget.
    expectIntakeError(await submit(t, { token: 'guess' }, { remoteAddress: '192.0.2.10' }), 429);
    expect(
      (await submit(t, { token: form.token, email: 'b@example.com' }, { remoteAddress: '192.0.2.11' }))
        .statusCode,
    ).toBe(201);
    expect(await count('leads', ws.id)).toBe(6);
  });

  it('counts one client once however its address is written, and an IPv6 /64 as one client', async () => {
    const { form } = await workspaceWithForm();
    const from = (remoteAddress: string, i: number) =>
      submit(t, { token: form.token, email: `w${i}@example.com` }, { remoteAddress });
    const spellings = ['198.51.100.20', '::ffff:198.51.100.20', '::FFFF:198.51.100.20'];
    for (let i = 0; i < 5; i++) expect((await from(spellings[i % 3]!, i)).statusCode).toBe(201);
    expectIntakeError(await from('::ffff:c633:6414', 5), 429);
    for (let i = 0; i < 5; i++) expect((await from(`2001:db8:5:6::${i + 1}`, 10 + i)).statusCode).toBe(201);
    expectIntakeError(await from('2001:DB8:5:6:FFFF::9', 15), 429);
    expect((await from('2001:db8:5:7::1', 16)).statusCode).toBe(201);
  });

  it('with TRUST_PROXY=1 counts the address the one proxy saw, whatever the client wrote before it', async () => {
    const proxied = await createTestApp({ env: { TRUST_PROXY: '1' } });
    try {
      const ws = await proxied.workspace();
      const form = await createForm(proxied.ctx.db, ws.id);
      const post = (spoofed: string, i: number) =>
        submit(
          proxied,
          { token: form.token, email: `h${i}@example.com` },
          {
            remoteAddress: '127.0.0.1',
            headers: { 'x-forwarded-for': `${spoofed}, 203.0.113.50` },
          },
        );
      for (let i = 0; i < 5; i++) expect((await post(`198.51.100.${i}`, i)).statusCode).toBe(201);
      expectIntakeError(await post('198.51.100.99', 5), 429);
    } finally {
      await proxied.close();
    }
  });

  it('warns at start when TRUST_PROXY=true believes every hop', async () => {
    const lines: string[] = [];
    const proxied = await createTestApp({
      env: { TRUST_PROXY: 'true' },
      log: pino({ level: 'warn' }, { write: (line: string) => lines.push(line) }),
    });
    await proxied.close();
    expect(lines.map((line) => JSON.parse(line))).toContainEqual(
      expect.objectContaining({ level: 40, msg: expect.stringMatching(/^TRUST_PROXY=true believes every/) }),
    );
  });

  it('with TRUST_PROXY counts the X-Forwarded-For client address', async () => {
    const proxied = await createTestApp({ env: { TRUST_PROXY: 'true' } });
    try {
      const ws = await proxied.workspace();
      const form = await createForm(proxied.ctx.db, ws.id);
      const post = (client: string, i: number) =>
        submit(
          proxied,
          { token: form.token, email: `p${i}@example.com` },
          {
            remoteAddress: '127.0.0.1',
            headers: { 'x-forwarded-for': `${client}, 127.0.0.1` },
          },
        );
      for (let i = 0; i < 5; i++) expect((await post('203.0.113.7', i)).statusCode).toBe(201);
      expectIntakeError(await post('203.0.113.7', 5), 429);
      // Same proxy, other clients: each has its own five.
      for (let i = 0; i < 5; i++) expect((await post('203.0.113.8', 10 + i)).statusCode).toBe(201);
      expect((await post('203.0.113.9', 20)).statusCode).toBe(201);
    } finally {
      await proxied.close();
    }
  });
});

describe.runIf(process.env.REDIS_URL)('5 submissions per minute per address, shared through Redis', () => {
  it('holds across two server instances', async () => {
    const env = { REDIS_URL: process.env.REDIS_URL! };
    const a = await createTestApp({ env });
    const b = await buildServer(a.ctx);
    try {
      const ws = await a.workspace();
      const form = await createForm(a.ctx.db, ws.id);
      // An address no earlier run used: the counters live in Redis for a minute.
      const address = `10.250.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
      const post = (app: typeof b, i: number) =>
        app.inject({
          method: 'POST',
          url: '/api/forms/submit',
          remoteAddress: address,
          payload: { token: form.token, email: `r${i}@example.com` },
        });
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await post(i % 2 ? b : a.app, i)).statusCode);
      expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    } finally {
      await b.close();
      await a.close();
    }
  });
});

describe("the plan's monthly lead limit", () => {
  it('takes leads up to the limit, then answers 402 and stores nothing; honeypot and refused posts do not count', async () => {
    await setPlan(t.ctx.db, 'leads3', { contacts: 100, monthlyLeads: 3, messagesPerMonth: 1 });
    const { ws, form } = await workspaceWithForm({}, 'leads3');
    for (let i = 0; i < 3; i++) {
      expect((await submit(t, { token: form.token, phone: `+9198765432${10 + i}` })).statusCode).toBe(201);
    }
    const over = await submit(t, { token: form.token, email: 'four@example.com', phone: '+919876543299' });
    expectIntakeError(over, 402, /monthly lead limit/);
    expect(await count('leads', ws.id)).toBe(3);
    expect(await count('contacts', ws.id)).toBe(3);
    // A plan with 0 leads takes none.
    await setPlan(t.ctx.db, 'leads0', { contacts: 100, monthlyLeads: 0, messagesPerMonth: 1 });
    const zero = await workspaceWithForm({}, 'leads0');
    expectIntakeError(await submit(t, { token: zero.form.token, email: 'z@example.com' }), 402);
    expect(await count('leads', zero.ws.id)).toBe(0);
  });

  it('holds exactly under concurrent submissions', async () => {
    await setPlan(t.ctx.db, 'leads7', { contacts: 1000, monthlyLeads: 7, messagesPerMonth: 1 });
    const { ws, form } = await workspaceWithForm({}, 'leads7');
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        submit(t, { token: form.token, phone: `+9198765${String(10000 + i)}` }),
      ),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(7);
    expect(statuses.filter((s) => s === 402)).toHaveLength(33);
    expect(await count('leads', ws.id)).toBe(7);
    expect(await count('contacts', ws.id)).toBe(7);
  });

  it('counts leads arriving together in fewer statements, exactly to the limit', async () => {
    await setPlan(t.ctx.db, 'leads5', { contacts: 100, monthlyLeads: 5, messagesPerMonth: 1 });
    const { ws } = await workspaceWithForm({}, 'leads5');
    // Four go alone and take four places; the other eight wait as one batch that the month cannot
    // take whole, so they are tried one by one until the first is refused.
    const { result: outcomes, statements } = await countStatements(t.ctx.db, 'INSERT INTO lead_usage', () =>
      Promise.allSettled(Array.from({ length: 12 }, () => reserveLead(t.ctx, ws.id))),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(5);
    for (const o of outcomes.filter((o) => o.status === 'rejected'))
      expect((o as PromiseRejectedResult).reason).toMatchObject({ code: 'plan_limit_reached' });
    expect(statements).toBeLessThan(12);
    const usage = await t.ctx.db.query('SELECT created FROM lead_usage WHERE workspace_id = $1', [ws.id]);
    expect(usage.rows).toEqual([{ created: 5 }]);
  });

  it('takes of a batch that fits the month in part exactly the places left', async () => {
    await setPlan(t.ctx.db, 'leads5', { contacts: 100, monthlyLeads: 5, messagesPerMonth: 1 });
    const { ws } = await workspaceWithForm({}, 'leads5');
    const other = await workspaceWithForm();
    for (let i = 0; i < 3; i++) await reserveLead(t.ctx, ws.id);
    // Another workspace's four leads go alone and hold every running batch, so this workspace's four
    // wait and go together: the batch is within the whole limit but not within the two places left.
    const outcomes = await Promise.allSettled([
      ...Array.from({ length: 4 }, () => reserveLead(t.ctx, other.ws.id)),
      ...Array.from({ length: 4 }, () => reserveLead(t.ctx, ws.id)),
    ]);
    const ours = outcomes.slice(4);
    expect(ours.filter((o) => o.status === 'fulfilled')).toHaveLength(2);
    for (const o of ours.filter((o) => o.status === 'rejected'))
      expect((o as PromiseRejectedResult).reason).toMatchObject({ code: 'plan_limit_reached' });
    const usage = await t.ctx.db.query('SELECT created FROM lead_usage WHERE workspace_id = $1', [ws.id]);
    expect(usage.rows).toEqual([{ created: 5 }]);
  });

  it("gives a lead's place in the month back when the lead cannot be stored", async () => {
    const { ws, form } = await workspaceWithForm();
    await t.ctx.db.query(`CREATE FUNCTION refuse_test_lead() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'refused by the test'; END $$`);
    await t.ctx.db.query(`CREATE TRIGGER refuse_test_lead BEFORE INSERT ON leads FOR EACH ROW
      WHEN (NEW.name = 'Refused By The Test') EXECUTE FUNCTION refuse_test_lead()`);
    try {
      const lead = {
        workspaceId: ws.id,
        source: 'form' as const,
        sourceId: form.id,
        email: null,
        phone: null,
      };
      await expect(
        createLead(t.ctx, { ...lead, name: 'Refused By The Test', fields: {} }, { payload: {} }),
      ).rejects.toThrow(/refused by the test/);
      await createLead(t.ctx, { ...lead, name: 'Stored', fields: {} }, { payload: {} });
    } finally {
      await t.ctx.db.query('DROP TRIGGER refuse_test_lead ON leads');
      await t.ctx.db.query('DROP FUNCTION refuse_test_lead()');
    }
    const usage = await t.ctx.db.query('SELECT created FROM lead_usage WHERE workspace_id = $1', [ws.id]);
    expect(usage.rows).toEqual([{ created: 1 }]);
  });

  it('at the contact limit still stores the lead, without a contact', async () => {
    await setPlan(t.ctx.db, 'contacts1', { contacts: 1, monthlyLeads: 100, messagesPerMonth: 1 });
    const { ws, form } = await workspaceWithForm({}, 'contacts1');
    expect((await submit(t, { token: form.token, phone: '+919876543210' })).statusCode).toBe(201);
    const second = await submit(t, { token: form.token, phone: '+919876543211', email: 'b@example.com' });
    expect(second.statusCode).toBe(201);
    const leads = await leadsOf(t, ws.id);
    expect(leads.map((l) => [l.phone, l.contact_id === null])).toEqual([
      ['919876543210', false],
      ['919876543211', true],
    ]);
    expect(await count('contacts', ws.id)).toBe(1);
    const usage = await t.ctx.db.query('SELECT created FROM lead_usage WHERE workspace_id = $1', [ws.id]);
    expect(usage.rows).toEqual([{ created: 2 }]);
  });
});

describe('tenant walls', () => {
  it("a form token of workspace A stores into A only and never links B's contact", async () => {
    const a = await workspaceWithForm();
    const b = await workspaceWithForm();
    await t.api('POST', '/contacts', b.ws.key, { phone: '+919876543210' });
    expect((await submit(t, { token: a.form.token, phone: '+919876543210' })).statusCode).toBe(201);
    const [lead] = await leadsOf(t, a.ws.id);
    expect(await leadsOf(t, b.ws.id)).toEqual([]);
    const { rows } = await t.ctx.db.query<{ workspace_id: string }>(
      'SELECT workspace_id FROM contacts WHERE id = $1',
      [lead!.contact_id],
    );
    expect(rows).toEqual([{ workspace_id: a.ws.id }]);
  });
});
