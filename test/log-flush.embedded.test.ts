import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { freePort, type RunningServer, runCliJson, startServer, tempDataDir } from './support/cli.js';
import { until } from './support/until.js';

const data = tempDataDir();
let server: RunningServer | undefined;

afterAll(async () => {
  await server?.stop('SIGKILL');
  data.remove();
});

/** A command the server's control socket cannot parse: it answers 500 and logs an error line. */
function garbledControlCommand(): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: join(data.dir, 'parley.sock'), method: 'POST', path: '/' }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end('not json');
  });
}

it('writes errors and warnings to stdout at once on a quiet server, so kill -9 right after keeps them', async () => {
  // At warn, a line or two stays far below the 4 KiB batch: without an immediate write it waits.
  const env = { DATA_DIR: data.dir, PORT: String(await freePort()), LOG_LEVEL: 'warn' };
  server = await startServer([], env);

  expect(await garbledControlCommand()).toBe(500);
  await until(() => server!.output().includes('control command failed'), 1_000);

  const demo = await runCliJson<{ connected_number: { id: string } }>(['demo'], env);
  const res = await fetch(`${server.url}/api/webhooks/whatsapp/${demo.connected_number.id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': 'sha256=00' },
    body: '{}',
  });
  expect(res.status).toBe(401);
  await until(() => server!.output().includes('webhook refused: bad or missing signature'), 1_000);

  expect(await server.stop('SIGKILL')).toBe(null);
  expect(server.output()).toMatch(/"level":50,.*"msg":"control command failed"/);
  expect(server.output()).toMatch(/"level":40,.*"msg":"webhook refused: bad or missing signature"/);
}, 90_000);
