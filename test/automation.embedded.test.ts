import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type RunningServer, runCli, runCliJson, startServer, tempDataDir } from './support/cli.js';
import { until } from './support/until.js';

describe('flows on the embedded default, across a restart', () => {
  const data = tempDataDir();
  let env: Record<string, string>;
  let server: RunningServer | undefined;

  beforeAll(async () => {
    env = { DATA_DIR: data.dir, PORT: String(await freePort()), LOG_LEVEL: 'warn' };
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    data.remove();
  });

  const contact = async (url: string, key: string, phone: string) => {
    const res = await fetch(`${url}/api/v1/contacts?limit=200`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const body = (await res.json()) as { contacts: { phone: string; tags: string[] }[] };
    return body.contacts.find((c) => c.phone === phone);
  };

  it('creates flows from a file by CLI, refusing bad ones with the problem named', async () => {
    const demo = await runCliJson<{ workspace_id: string }>(['demo'], env);
    const bad = join(data.dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({
        name: 'x',
        trigger: { type: 'event', event: 'e' },
        steps: [{ id: 'a', type: 'nap' }],
      }),
    );
    const refused = await runCli(['flow', 'create', '--workspace', demo.workspace_id, '--file', bad], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/steps\.0\.type: Choose one of "send_template"/);
    const wrongKind = await runCli(
      ['sequence', 'create', '--workspace', demo.workspace_id, '--file', bad],
      env,
    );
    expect(wrongKind.code).toBe(1);
    // Each command opens the embedded database itself (no server runs yet): seconds apiece.
  }, 90_000);

  it('keeps a waiting run through a restart and finishes it afterwards', async () => {
    server = await startServer([], env);
    const demo = await runCliJson<{
      workspace_id: string;
      api_key: string;
      flow: { id: string; event: string };
      sequence: { id: string; secret: string };
    }>(['demo'], env);
    expect(demo.flow.event).toBe('signup');
    expect(demo.sequence.secret).toMatch(/^whsec_/);
    const file = join(data.dir, 'flow.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'Wait across a restart',
        trigger: { type: 'event', event: 'trial' },
        steps: [
          { id: 'pause', type: 'wait', duration: '4s' },
          { id: 'tag', type: 'add_tag', tag: 'trial-day-2' },
        ],
      }),
    );
    const created = await runCliJson(
      ['flow', 'create', '--workspace', demo.workspace_id, '--file', file, '--publish'],
      env,
    );
    expect(created).toEqual({ id: expect.stringMatching(/^fl_/), published: true });

    const res = await fetch(`${server.url}/api/v1/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${demo.api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ phone: '98765 43210', event: 'trial' }),
    });
    expect(res.status).toBe(202);
    expect(((await res.json()) as { flows_started: number }).flows_started).toBe(1);
    await until(async () => (await contact(server!.url, demo.api_key, '919876543210')) !== undefined);
    expect((await contact(server.url, demo.api_key, '919876543210'))!.tags).toEqual([]);

    expect(await server.stop('SIGTERM')).toBe(0);
    server = await startServer([], env);
    const tagged = await until(async () => {
      const c = await contact(server!.url, demo.api_key, '919876543210');
      return c?.tags.includes('trial-day-2') && c;
    }, 30_000);
    expect(tagged.tags).toEqual(['trial-day-2']);
  }, 90_000);
});
