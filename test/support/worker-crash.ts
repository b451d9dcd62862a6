import { createServer, type ServerResponse } from 'node:http';
import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp } from './app.js';
import { type RunningServer, startServer } from './cli.js';
import { listen, simState } from './messaging.js';

export interface CrmCall {
  key: string;
  res: ServerResponse;
}

/**
 * For a describe block: the API in this process, steps in `serve --role worker` processes started
 * by `startWorker` (and SIGKILLed at the end), and a CRM endpoint recording each call's
 * Idempotency-Key; a call `hold` picks gets no answer, so its worker can be killed while it waits.
 */
export function workerCrashHarness(hold: (key: string, calls: CrmCall[]) => boolean) {
  const workers: RunningServer[] = [];
  const h = {
    t: undefined as unknown as TestApp,
    base: '',
    requests: [] as CrmCall[],
    port: () => (receiver.address() as { port: number }).port,
    startWorker: async () => {
      const worker = await startServer(['--role', 'worker'], {
        DATABASE_URL: h.t.ctx.config.databaseUrl!,
        PARLEY_SECRET_KEY: '0'.repeat(64),
        WEBHOOKS_ALLOW_PRIVATE: 'true',
        LOG_LEVEL: 'warn',
      });
      workers.push(worker);
      return worker;
    },
  };
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const key = String(req.headers['idempotency-key']);
      h.requests.push({ key, res });
      if (!hold(key, h.requests)) res.writeHead(200).end('ok');
    });
  });
  beforeAll(async () => {
    h.t = await createTestApp({ queue: true, role: 'api' });
    h.base = await listen(h.t);
    simState(h.t).statusDelaysMs = [-1, -1, -1];
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    for (const w of workers) await w.stop('SIGKILL');
    receiver.closeAllConnections();
    receiver.close();
    await h.t?.close();
  });
  return h;
}
