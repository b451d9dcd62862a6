import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type RunningServer, runCli, runCliJson, startServer, tempDataDir } from './support/cli.js';

// Each test spawns several CLI processes, each a whole Node start with the app's imports (about 2 s of
// CPU): on a busy 2-core machine five of them passed the default 30 s without anything being wrong.
/** Signs in as the web app does: the session cookie, then the CSRF token from GET /api/app/session. */
async function signInToApp(url: string, email: string, password: string) {
  const login = await fetch(`${url}/api/app/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-parley-csrf': '1' },
    body: JSON.stringify({ email, password }),
  });
  expect(login.status).toBe(200);
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  const session = (await (await fetch(`${url}/api/app/session`, { headers: { cookie } })).json()) as {
    csrf_token: string;
    workspace: { id: string };
    workspaces: { id: string; role: string }[];
  };
  const get = async (path: string) => {
    const res = await fetch(`${url}/api/app${path}`, {
      headers: { cookie, 'x-parley-csrf': session.csrf_token },
    });
    expect(res.status).toBe(200);
    return res.json();
  };
  return { session, get };
}

describe('parley CLI on the embedded database', { timeout: 90_000 }, () => {
  const data = tempDataDir();
  let env: Record<string, string>;
  let server: RunningServer;
  let demoOwner = { email: '', password: '' };

  beforeAll(async () => {
    env = {
      DATA_DIR: data.dir,
      PORT: String(await freePort()),
      LOG_LEVEL: 'warn',
      // The server's API key poll out of the way: a revoked key must be refused by the server at once.
      API_KEY_POLL_MS: '600000',
    };
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    data.remove();
  });

  it('works with no server running: the CLI opens the database itself', async () => {
    const ws = await runCliJson(
      ['workspace', 'create', '--name', 'Acme', '--default-country-code', '91'],
      env,
    );
    expect(ws).toEqual({
      workspace_id: expect.stringMatching(/^ws_/),
      api_key: expect.stringMatching(/^pk_live_/),
    });
    const key = await runCliJson(['apikey', 'create', '--workspace', String(ws.workspace_id)], env);
    expect(key).toEqual({ id: expect.stringMatching(/^key_/), key: expect.stringMatching(/^pk_live_/) });
    expect(existsSync(join(data.dir, 'parley.lock'))).toBe(false);
  }, 90_000);

  it('keeps its secret key in the data directory, owner-only', () => {
    expect(statSync(join(data.dir, 'secret.key')).mode & 0o777).toBe(0o600);
    expect(statSync(data.dir).mode & 0o777).toBe(0o700);
  });

  it.each([
    [['workspace', 'create', '--name', 'X', '--default-country-code', '999'], /country code 999/],
    [['workspace', 'create', '--name', 'X', '--plan', 'platinum'], /plan "platinum" does not exist/],
    [['apikey', 'create', '--workspace', 'ws_nope'], /workspace ws_nope does not exist/],
    [['apikey', 'revoke', '--id', 'key_nope'], /no active API key with id key_nope/],
    [
      ['plan', 'set', 'x', '--contacts', '-5', '--monthly-leads', '1', '--messages-per-month', '1'],
      /whole number/,
    ],
  ])('refuses %j with exit 1 and a message', async (args, message) => {
    const r = await runCli(args, env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('serves, prints its URL, and answers health, readiness and metrics', async () => {
    server = await startServer([], env);
    expect(server.url).toBe(`http://127.0.0.1:${env.PORT}`);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${server.url}/readyz`)).json()).toEqual({ status: 'ready' });
    await fetch(`${server.url}/api/v1/templates`);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(
      /http_requests_total\{method="GET",route="\/api\/v1\/templates",status="401"\} 1/,
    );
    expect(metrics).toMatch(
      /http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/healthz",status="200"\}/,
    );
  });

  it('holds the data directory: a control socket (0600) and a lock no second server can take', async () => {
    expect(statSync(join(data.dir, 'parley.sock')).mode & 0o777).toBe(0o600);
    const second = await runCli(['serve'], { ...env, PORT: String(await freePort()) });
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/data directory is in use by process \d+/);
  });

  it("shows the demo in the web app: a server nobody set up gets a demo owner, printed once; later demos join that owner's switcher", async () => {
    type SignIn = { url: string; email: string; password?: string; note: string };
    type Demo = { workspace_id: string; sign_in: SignIn; customers: string[] };
    // The server has a workspace (Acme, made without anyone) but no user yet.
    const first = await runCliJson<Demo>(['demo'], env);
    demoOwner = { email: first.sign_in.email, password: first.sign_in.password! };
    expect(first.sign_in).toEqual({
      url: server.url,
      email: 'demo@example.com',
      password: expect.stringMatching(/^[\w-]{20}$/),
      note: expect.stringContaining('printed only this once'),
    });
    expect(server.output()).not.toContain(first.sign_in.password);
    const app = await signInToApp(server.url, first.sign_in.email, first.sign_in.password!);
    expect(app.session.workspace.id).toBe(first.workspace_id);
    const contacts = (await app.get('/contacts')) as { contacts: { phone: string }[] };
    expect(contacts.contacts.map((c) => `+${c.phone.replace(/^\+/, '')}`).sort()).toEqual(
      [...first.customers].sort(),
    );
    const inbox = (await app.get('/inbox')) as { conversations: unknown[] };
    expect(inbox.conversations).toHaveLength(first.customers.length);

    // Now the server has an owner: the next demo is theirs, in their switcher, and prints no password.
    const second = await runCliJson<Demo>(['demo'], env);
    expect(second.sign_in).toEqual({
      url: server.url,
      email: 'demo@example.com',
      note: expect.stringContaining('workspace switcher'),
    });
    const again = await signInToApp(server.url, first.sign_in.email, first.sign_in.password!);
    expect(again.session.workspaces.map((w) => [w.id, w.role])).toEqual(
      expect.arrayContaining([
        [first.workspace_id, 'owner'],
        [second.workspace_id, 'owner'],
      ]),
    );
  });

  it('hands commands to the running server: demo, keys, plans', async () => {
    const demo = await runCliJson<{
      app_url: string;
      base_url: string;
      workspace_id: string;
      api_key: string;
      templates: { name: string; language: string; variable_count: number }[];
      pending_template: { name: string; language: string };
    }>(['demo'], env);
    expect(Object.keys(demo).sort()).toEqual([
      'api_key',
      'app_url',
      'base_url',
      'connected_number',
      'customers',
      'flow',
      'form',
      'inactive_form',
      'other_sequence',
      'pending_template',
      'sequence',
      'sign_in',
      'simulator_token',
      'simulator_url',
      'templates',
      'unpublished_flow',
      'workspace_id',
    ]);
    expect(demo.base_url).toBe(`${server.url}/api/v1`);
    const listed = await fetch(`${demo.base_url}/templates`, {
      headers: { authorization: `Bearer ${demo.api_key}` },
    });
    type Listed = { name: string; language: string; variable_count: number };
    const templates = ((await listed.json()) as { templates: Listed[] }).templates.map((t: Listed) => ({
      name: t.name,
      language: t.language,
      variable_count: t.variable_count,
    }));
    expect(
      templates.sort((a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name)),
    ).toEqual([...demo.templates].sort((a, b) => a.name.localeCompare(b.name)));
    expect(templates.map((t: { name: string }) => t.name)).not.toContain(demo.pending_template.name);

    const plan = await runCliJson(
      ['plan', 'set', 'tiny', '--contacts', '1', '--monthly-leads', '2', '--messages-per-month', '3'],
      env,
    );
    expect(plan).toEqual({ name: 'tiny', contacts: 1, monthly_leads: 2, messages_per_month: 3 });
    const ws = await runCliJson(['workspace', 'create', '--name', 'Tiny', '--plan', 'tiny'], env);
    const post = (phone: string) =>
      fetch(`${server.url}/api/v1/contacts`, {
        method: 'POST',
        headers: { 'x-api-key': String(ws.api_key), 'content-type': 'application/json' },
        body: JSON.stringify({ phone }),
      });
    expect((await post('+14155552671')).status).toBe(201);
    expect((await post('+14155552672')).status).toBe(402);
  });

  it('sends through the demo workspace, connected to the in-process simulator', async () => {
    const demo = await runCliJson<{
      base_url: string;
      api_key: string;
      simulator_url: string;
      simulator_token: string;
    }>(['demo'], env);
    // The simulator's operator token: generated once beside the data, owner-only, kept across restarts.
    const tokenFile = join(data.dir, 'simulator.token');
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(demo.simulator_token).toBe(readFileSync(tokenFile, 'utf8'));
    expect(server.output()).not.toContain(demo.simulator_token);
    const res = await fetch(`${demo.base_url}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demo.api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        to: '98765 43210',
        template: { name: 'welcome', language: 'en', body: ['Asha', 'Parley'] },
      }),
    });
    expect(res.status).toBe(201);
    const { wamid } = (await res.json()) as { wamid: string };
    const sent = `${demo.simulator_url}/messages?to=919876543210`;
    expect((await fetch(sent)).status).toBe(401);
    const received = (await (
      await fetch(sent, { headers: { authorization: `Bearer ${demo.simulator_token}` } })
    ).json()) as { messages: { wamid: string }[] };
    expect(received.messages.map((m) => m.wamid)).toContain(wamid);

    // A template with a header and buttons: the simulator was told its components, and takes the send.
    const rich = await fetch(`${demo.base_url}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demo.api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        to: '98765 43210',
        template: {
          name: 'summer_sale',
          language: 'en_US',
          header: { link: 'https://cdn.example.com/sale.jpg' },
          body: { first_name: 'Asha', discount: '25%' },
          buttons: [{ index: 0, text: 's25' }],
        },
      }),
    });
    expect(rich.status).toBe(201);
    expect(((await rich.json()) as { status: string }).status).toBe('accepted');
  });

  it('creates forms (form create, demo) whose tokens take submissions, inactive ones answering 404', async () => {
    type Form = { id: string; token: string };
    const demo = await runCliJson<{ workspace_id: string; form: Form; inactive_form: Form }>(['demo'], env);
    const created = await runCliJson<Form>(
      ['form', 'create', '--workspace', demo.workspace_id, '--name', 'Promo'],
      env,
    );
    const inactive = await runCliJson<Form>(
      ['form', 'create', '--workspace', demo.workspace_id, '--inactive'],
      env,
    );
    for (const form of [demo.form, demo.inactive_form, created, inactive]) {
      expect(Object.keys(form).sort()).toEqual(['id', 'token']);
    }
    const submit = (token: string) =>
      fetch(`${server.url}/api/forms/submit`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token, name: 'Asha', phone: '98765 43210' }),
      });
    for (const form of [demo.form, created]) {
      const res = await submit(form.token);
      expect(res.status).toBe(201);
      expect(await res.json()).toEqual({ success: true, lead_id: expect.stringMatching(/^ld_/) });
    }
    for (const form of [demo.inactive_form, inactive]) expect((await submit(form.token)).status).toBe(404);
    const embed = await runCliJson<Record<string, string>>(
      ['form', 'embed', '--workspace', demo.workspace_id, '--id', demo.form.id],
      env,
    );
    expect(embed.hosted_url).toBe(`${server.url}/f/${demo.form.token}`);
    expect((await fetch(embed.hosted_url!)).status).toBe(200);
    const missing = await runCli(['form', 'create', '--workspace', 'ws_nope', '--json'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/workspace ws_nope does not exist/);
  });

  it("creates templates in Meta's shapes: components, and authentication options instead of free text", async () => {
    const demo = await runCliJson<{ workspace_id: string }>(['demo'], env);
    const create = ['templates', 'create', '--workspace', demo.workspace_id, '--language', 'en_US'];
    const otp = await runCliJson(
      [...create, '--name', 'login_code', '--category', 'AUTHENTICATION', '--otp-type', 'COPY_CODE'].concat([
        '--code-expiration-minutes',
        '10',
        '--security-recommendation',
      ]),
      env,
    );
    expect(otp).toMatchObject({ name: 'login_code', status: 'PENDING', variable_count: 1 });
    const freeText = await runCli(
      [...create, '--name', 'login_text', '--category', 'AUTHENTICATION', '--body', 'Code {{1}}', '--json'],
      env,
    );
    expect(freeText.code).toBe(1);
    expect(freeText.stderr).toMatch(/authentication templates have preset text/);
    const components = [
      { type: 'header', format: 'text', text: 'Order {{1}}', example: { header_text: ['A-1'] } },
      { type: 'body', text: 'It ships {{1}}', example: { body_text: [['today']] } },
      { type: 'buttons', buttons: [{ type: 'quick_reply', text: 'Thanks' }] },
    ];
    const rich = await runCliJson(
      [...create, '--name', 'shipped', '--category', 'UTILITY', '--components', JSON.stringify(components)],
      env,
    );
    expect(rich).toMatchObject({ name: 'shipped', status: 'PENDING', variable_count: 1 });
    const notJson = await runCli(
      [...create, '--name', 'x', '--category', 'UTILITY', '--components', '{'],
      env,
    );
    expect(notJson.stderr).toMatch(/expected a JSON array/);
  });

  it('rotates a webhook sequence secret: the old one is refused at once, the new one starts it', async () => {
    const ws = await runCliJson(['workspace', 'create', '--name', 'Rotate'], env);
    const file = join(data.dir, 'sequence.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'Zapier leads',
        trigger: { type: 'webhook' },
        steps: [{ id: 'q', type: 'update_lead_status', status: 'contacted' }],
      }),
    );
    const seq = await runCliJson<{ id: string; secret: string }>(
      ['sequence', 'create', '--workspace', String(ws.workspace_id), '--file', file],
      env,
    );
    const start = (secret: string) =>
      fetch(`${server.url}/api/automation/webhooks/${seq.id}/${secret}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'zap@example.com' }),
      });
    expect((await start(seq.secret)).status).toBe(202);
    const rotated = await runCliJson<{ id: string; secret: string }>(
      ['sequence', 'rotate-secret', '--id', seq.id],
      env,
    );
    expect(rotated.id).toBe(seq.id);
    expect(rotated.secret).not.toBe(seq.secret);
    expect((await start(seq.secret)).status).toBe(401);
    expect((await start(rotated.secret)).status).toBe(202);
    const unknown = await runCli(['sequence', 'rotate-secret', '--id', 'sq_nope', '--json'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no sequence sq_nope/);
  });

  it('connects a number with secrets from the environment and syncs its templates', async () => {
    const ws = await runCliJson(['workspace', 'create', '--name', 'Connect'], env);
    const secrets = {
      WHATSAPP_ACCESS_TOKEN: 'EAAtoken123',
      WHATSAPP_APP_SECRET: 'appsecret',
      WHATSAPP_VERIFY_TOKEN: 'verify',
    };
    const args = [
      'number',
      'connect',
      '--workspace',
      String(ws.workspace_id),
      '--phone-number-id',
      '5550001',
    ];
    const more = [
      '--business-account-id',
      'waba1',
      '--display-phone',
      '+1 555 0001',
      '--graph-url',
      `${server.url}/_sim`,
    ];
    const missing = await runCli([...args, ...more], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/set WHATSAPP_ACCESS_TOKEN in the environment/);
    const connected = await runCliJson<{ id: string; webhook_url: string; templates_synced: number }>(
      [...args, ...more],
      {
        ...env,
        ...secrets,
      },
    );
    expect(connected).toEqual({
      id: expect.stringMatching(/^pn_/),
      messages_per_second: 80,
      webhook_url: `${server.url}/api/webhooks/whatsapp/${connected.id}`,
      templates_synced: 0,
      verified_name: 'Parley Simulator',
      quality_rating: 'GREEN',
      messaging_limit_tier: 'TIER_1K',
    });
    const check = await fetch(
      `${connected.webhook_url}?hub.mode=subscribe&hub.verify_token=verify&hub.challenge=42`,
    );
    expect(await check.text()).toBe('42');
    expect(await runCliJson(['templates', 'sync', '--workspace', String(ws.workspace_id)], env)).toEqual({
      synced: 0,
    });
  });

  it('revokes a key through the server, which refuses it at once', async () => {
    const ws = await runCliJson(['workspace', 'create', '--name', 'Revoke'], env);
    const key = await runCliJson<{ id: string; key: string }>(
      ['apikey', 'create', '--workspace', String(ws.workspace_id)],
      env,
    );
    const call = () =>
      fetch(`${server.url}/api/v1/templates`, { headers: { authorization: `Bearer ${key.key}` } });
    expect((await call()).status).toBe(200);
    expect(await runCliJson(['apikey', 'revoke', '--id', key.id], env)).toEqual({
      id: key.id,
      revoked: true,
    });
    expect((await call()).status).toBe(401);
  });

  it('prints a one-time password reset link through the server (user reset-password)', async () => {
    const app = (path: string, body: object, headers: Record<string, string> = {}) =>
      fetch(`${server.url}/api/app${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-parley-csrf': '1', ...headers },
        body: JSON.stringify(body),
      });
    // The owner `parley demo` made (the server's first user, so first-run setup is closed).
    const { email, password } = demoOwner;
    const login = await app('/login', { email, password });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;

    const link = await runCliJson<{ email: string; url: string; expires_at: string }>(
      ['user', 'reset-password', '--email', email.toUpperCase()],
      env,
    );
    expect(link.email).toBe(email);
    expect(link.url.startsWith(`${server.url}/reset-password/`)).toBe(true);
    expect(Date.parse(link.expires_at) - Date.now()).toBeGreaterThan(59 * 60_000);
    const token = link.url.split('/reset-password/')[1]!;
    expect((await app('/password-reset/complete', { token, password: 'the second password' })).status).toBe(
      200,
    );
    expect((await app('/password-reset/complete', { token, password: 'the third password' })).status).toBe(
      404,
    );
    const session = await fetch(`${server.url}/api/app/session`, { headers: { cookie } });
    expect(((await session.json()) as { authenticated: boolean }).authenticated).toBe(false);
    expect((await app('/login', { email, password: 'the second password' })).status).toBe(200);

    const unknown = await runCli(['user', 'reset-password', '--email', 'nobody@example.com'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no user with e-mail nobody@example.com/);
  });

  it('stops on SIGTERM with exit 0, releasing the lock and the socket', async () => {
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(existsSync(join(data.dir, 'parley.lock'))).toBe(false);
    expect(existsSync(join(data.dir, 'parley.sock'))).toBe(false);
  });

  it('takes over a lock left by a process that died', async () => {
    writeFileSync(join(data.dir, 'parley.lock'), '999999');
    const ws = await runCliJson(['workspace', 'create', '--name', 'After crash'], env);
    expect(ws.workspace_id).toMatch(/^ws_/);
  });
});

describe('configuration errors name the variable', () => {
  it.each([
    [{ PORT: 'abc' }, /PORT must be an integer/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must start with postgres/],
    [{ DATABASE_URL: 'postgres://127.0.0.1/x' }, /PARLEY_SECRET_KEY is required when DATABASE_URL is set/],
    [
      { DATABASE_URL: 'postgres://127.0.0.1/x', PARLEY_SECRET_KEY: 'short' },
      /PARLEY_SECRET_KEY must hold 32 bytes/,
    ],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [{ APP_URL: 'ftp://x' }, /APP_URL must start with http/],
    [{ SEND_DEADLINE_MS: '50' }, /SEND_DEADLINE_MS must be an integer from 100 to 60000/],
    [{ SEND_CONFIRM_WINDOW_MS: '2m' }, /SEND_CONFIRM_WINDOW_MS must be an integer from 1000/],
    [{ GRAPH_API_VERSION: 'v2' }, /GRAPH_API_VERSION must look like v21.0/],
  ])('%j', async (vars, message) => {
    const data = tempDataDir();
    const r = await runCli(['serve'], { DATA_DIR: data.dir, ...vars });
    data.remove();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
  });
});
