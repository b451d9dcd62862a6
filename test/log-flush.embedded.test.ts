import { afterAll, expect, it } from 'vitest';
import { freePort, type RunningServer, runCliJson, startServer, tempDataDir } from './support/cli.js';
import { until } from './support/until.js';

const data = tempDataDir();
let server: RunningServer | undefined;

afterAll(async () => {
  await server?.stop('SIGKILL');
  data.remove();
});

it('writes a warning to stdout at once on a quiet server, so kill -9 right after keeps it', async () => {
  const env = { DATA_DIR: data.dir, PORT: String(await freePort()), LOG_LEVEL: 'warn' };
  server = await startServer([], env);
  const demo = await runCliJson<{ connected_number: { id: string } }>(['demo'], env);

  const res = await fetch(`${server.url}/api/webhooks/whatsapp/${demo.connected_number.id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': 'sha256=00' },
    body: '{}',
  });
  expect(res.status).toBe(401);
  await until(() => server!.output().includes('webhook refused: bad or missing signature'), 1_000);
  expect(await server.stop('SIGKILL')).toBe(null);
  expect(server.output()).toMatch(/"level":40,.*"msg":"webhook refused: bad or missing signature"/);
}, 90_000);
