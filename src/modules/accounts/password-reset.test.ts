import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.js';
import { PASSWORD, signIn, workspaceWithOwner } from '../../../test/support/app-session.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { queueIdle } from '../../../test/support/queue-idle.js';
import { linkIn, startSmtp, type TestSmtp } from '../../../test/support/smtp.js';
import { until } from '../../../test/support/until.js';

const NEW_PASSWORD = 'a fresh new password';
const FROM = 'Parley <parley@example.com>';
let t: TestApp;
let smtp: TestSmtp;
const logLines: string[] = [];

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({
    queue: true,
    env: { SMTP_URL: smtp.url, MAIL_FROM: FROM },
    log: pino({ level: 'debug' }, { write: (line: string) => logLines.push(line) }),
  });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

// Each test its own client address, so the per-address allowance is each test's own.
let octet = 0;
const newAddress = () => `198.51.100.${++octet}`;

const publicPost = (path: string, payload: object, remoteAddress = '192.0.2.1') =>
  t.app.inject({
    method: 'POST',
    url: `/api/app${path}`,
    remoteAddress,
    headers: { 'x-parley-csrf': '1' },
    payload,
  });

const login = (email: string, password: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/app/login',
    remoteAddress: newAddress(),
    headers: { 'x-parley-csrf': '1' },
    payload: { email, password },
  });

async function mailTo(email: string) {
  return until(() => smtp.mails.find((m) => m.to.includes(email.toLowerCase())));
}

const tokenOf = (url: string) => url.split('/reset-password/')[1]!;

describe('forgotten password', () => {
  it('e-mails a link that sets a new password once and ends every session of the user', async () => {
    const { client } = await workspaceWithOwner(t);
    const other = await signIn(t, client.email);
    const res = await publicPost('/password-reset', { email: client.email.toUpperCase() }, newAddress());
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ result: true });

    const mail = await mailTo(client.email);
    expect(mail.user).toBe('parley');
    expect(mail.from).toBe('parley@example.com');
    expect(mail.raw).toMatch(/^Subject: Reset your Parley password/m);
    const url = linkIn(mail, '/reset-password');
    expect(url.startsWith('http://parley.test/reset-password/')).toBe(true);
    const token = tokenOf(url);
    expect(token.length).toBeGreaterThanOrEqual(22);
    // Only its hash is kept.
    const stored = await t.ctx.db.query<{ token_hash: string; minutes: number }>(
      `SELECT token_hash, round(extract(epoch FROM r.expires_at - r.created_at) / 60)::int AS minutes
       FROM password_resets r JOIN users u ON u.id = r.user_id WHERE u.email = $1`,
      [client.email],
    );
    expect(stored.rows).toHaveLength(1);
    expect(stored.rows[0]!.token_hash).not.toContain(token);
    expect(stored.rows[0]!.minutes).toBe(60);

    const reset = await publicPost('/password-reset/complete', { token, password: NEW_PASSWORD });
    expect(reset.statusCode).toBe(200);
    for (const c of [client, other]) {
      expect((await c.call('GET', '/session')).json().authenticated).toBe(false);
    }
    expectRestError(await login(client.email, PASSWORD), 401, 'unauthorized');
    expect((await login(client.email, NEW_PASSWORD)).statusCode).toBe(200);

    expectRestError(
      await publicPost('/password-reset/complete', { token, password: 'yet another password' }),
      404,
      'not_found',
    );
    expect((await login(client.email, NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a link past its hour, and a short password by the set-up rule', async () => {
    const { client } = await workspaceWithOwner(t);
    expect((await publicPost('/password-reset', { email: client.email }, newAddress())).statusCode).toBe(202);
    const token = tokenOf(linkIn(await mailTo(client.email), '/reset-password'));
    const short = await publicPost('/password-reset/complete', { token, password: 'short' });
    expectRestError(short, 422, 'validation_error');
    expect(short.json().error.details[0].field).toBe('password');
    await t.ctx.db.query(
      `UPDATE password_resets SET expires_at = now() - interval '1 second'
       WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
      [client.email],
    );
    const late = await publicPost('/password-reset/complete', { token, password: NEW_PASSWORD });
    expectRestError(late, 404, 'not_found');
    expect(late.json().error.message).toMatch(/not valid any more; ask for a new one/);
    expect((await login(client.email, PASSWORD)).statusCode).toBe(200);
  });

  it('answers an unknown address as a known one, and sends it nothing', async () => {
    const { client } = await workspaceWithOwner(t);
    const known = await publicPost('/password-reset', { email: client.email }, newAddress());
    const unknown = await publicPost('/password-reset', { email: 'nobody-here@example.com' }, newAddress());
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    await mailTo(client.email);
    await queueIdle(t.ctx.db, ['mail.send']);
    expect(smtp.mails.some((m) => m.to.includes('nobody-here@example.com'))).toBe(false);
  });

  it('limits requests per e-mail address and per client address, answering 429 with Retry-After', async () => {
    const email = 'flooded@example.com';
    for (let i = 0; i < 5; i++) {
      expect((await publicPost('/password-reset', { email }, newAddress())).statusCode).toBe(202);
    }
    const over = await publicPost('/password-reset', { email }, newAddress());
    expectRestError(over, 429, 'rate_limited');
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(3000);

    const address = newAddress();
    for (let i = 0; i < 20; i++) {
      const r = await publicPost('/password-reset', { email: `someone${i}@example.com` }, address);
      expect(r.statusCode).toBe(202);
    }
    expectRestError(
      await publicPost('/password-reset', { email: 'one-more@example.com' }, address),
      429,
      'rate_limited',
    );
  });

  it('refuses malformed bodies in plain words', async () => {
    for (const body of [{}, { email: 'x'.repeat(300) }, { email: 'a@b.c', extra: 1 }]) {
      expectRestError(await publicPost('/password-reset', body, newAddress()), 422, 'validation_error');
    }
    for (const body of [
      { token: '', password: NEW_PASSWORD },
      { token: 'x'.repeat(101), password: NEW_PASSWORD },
    ]) {
      expectRestError(await publicPost('/password-reset/complete', body), 422, 'validation_error');
    }
    expectRestError(
      await publicPost('/password-reset/complete', { token: 'not-a-token', password: NEW_PASSWORD }),
      404,
      'not_found',
    );
  });
});

describe('invitations by e-mail', () => {
  it('e-mails the invitation link when asked, and still returns it', async () => {
    const { client } = await workspaceWithOwner(t);
    const email = `mailed-invitee-${Date.now()}@example.com`;
    const res = await client.call('POST', '/invitations', { email, role: 'member', send_email: true });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ emailed: true, url: expect.stringContaining('/invite/') });
    const mail = await mailTo(email);
    expect(mail.raw).toMatch(/^Subject: Join Workspace \d+ on Parley/m);
    expect(linkIn(mail, '/invite')).toBe(res.json().url);

    const plain = await client.call('POST', '/invitations', { email: `not-${email}`, role: 'member' });
    expect(plain.json().emailed).toBe(false);
    await queueIdle(t.ctx.db, ['mail.send']);
    expect(smtp.mails.some((m) => m.to.includes(`not-${email}`))).toBe(false);
  });
});

describe('a server without SMTP_URL', () => {
  it('says so: no reset by e-mail, no invitation by e-mail, nothing stored', async () => {
    const { client } = await workspaceWithOwner(t);
    const smtpSettings = t.ctx.config.smtp;
    t.ctx.config.smtp = undefined;
    try {
      const anon = (await t.app.inject({ method: 'GET', url: '/api/app/session' })).json();
      expect(anon.sends_mail).toBe(false);
      expect((await client.call('GET', '/session')).json().sends_mail).toBe(false);
      const forgot = await publicPost('/password-reset', { email: client.email }, newAddress());
      expectRestError(forgot, 409, 'conflict');
      expect(forgot.json().error.message).toMatch(/operator/);
      const invite = await client.call('POST', '/invitations', {
        email: 'no-mail@example.com',
        role: 'member',
        send_email: true,
      });
      expectRestError(invite, 409, 'conflict');
      expect((await client.call('GET', '/team')).json().invitations).toEqual([]);
    } finally {
      t.ctx.config.smtp = smtpSettings;
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/app/session' })).json().sends_mail).toBe(true);
  });

  it('never logs the SMTP password or a reset token', async () => {
    await queueIdle(t.ctx.db, ['mail.send']);
    const text = logLines.join('\n');
    expect(text).toMatch(/password-reset/);
    expect(text).not.toContain(smtp.password);
    for (const mail of smtp.mails) {
      const link = /\/(?:reset-password|invite)\/([A-Za-z0-9]+)/.exec(mail.raw);
      if (link) expect(text).not.toContain(link[1]);
    }
  });
});
