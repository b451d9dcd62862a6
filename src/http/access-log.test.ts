import { pino } from 'pino';
import { expect, it } from 'vitest';
import { testAppForTests } from '../../test/support/app.js';
import { workspaceWithOwner } from '../../test/support/app-session.js';

const lines: string[] = [];
const t = testAppForTests({ log: pino({ level: 'debug' }, { write: (line: string) => lines.push(line) }) });

it("keeps an invitation's token out of the access log, wherever the URL carries it", async () => {
  const { client } = await workspaceWithOwner(t);
  const invitation = (
    await client.call('POST', '/invitations', { email: 'mate@example.com', role: 'member' })
  ).json();
  const token = invitation.url.split('/invite/')[1] as string;
  lines.length = 0;
  for (const url of [
    `/api/app/invitations/${token}`,
    `/API/APP/INVITATIONS/${token}`,
    `/api/app/invitations/${token}/more?x=1`,
    `/invite/${token}`,
  ]) {
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.body, url).not.toContain(token);
  }
  expect((await client.call('DELETE', `/invitations/${invitation.id}`)).statusCode).toBe(200);

  const logged = lines.map((line) => JSON.parse(line)).filter((line) => line.msg === 'request');
  expect(logged.map((line) => line.url)).toEqual([
    '/api/app/invitations/[redacted]',
    '/API/APP/INVITATIONS/[redacted]',
    '/api/app/invitations/[redacted]/more?x=1',
    '/invite/[redacted]',
    // An invitation's id is no secret: kept, to tell requests apart.
    `/api/app/invitations/${invitation.id}`,
  ]);
  expect(lines.join('\n')).not.toContain(token);
});

it("keeps a password reset link's token out of the access log when its page is opened", async () => {
  const token = 'Zq3xResetToken9Vb2';
  lines.length = 0;
  for (const url of [`/reset-password/${token}`, `/RESET-PASSWORD/${token}?x=1`]) {
    await t.app.inject({ method: 'GET', url });
  }
  const logged = lines.map((line) => JSON.parse(line)).filter((line) => line.msg === 'request');
  expect(logged.map((line) => line.url)).toEqual([
    '/reset-password/[redacted]',
    '/RESET-PASSWORD/[redacted]?x=1',
  ]);
  expect(lines.join('\n')).not.toContain(token);
});
