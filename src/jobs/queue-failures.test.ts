import { pino } from 'pino';
import { expect, it } from 'vitest';
import { testAppForTests } from '../../test/support/app.js';
import { until } from '../../test/support/until.js';
import { jobCatalog } from './catalog.js';
import { Queue } from './queue.js';

// No queue of the app's own: the only worker is the test's, so the failing job is surely its.
const t = testAppForTests();

it('logs a job that threw at once: a warning while it will be tried again, an error on its last try', async () => {
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const job = jobCatalog['templates.sync'];
  const handler = job.handler;
  job.handler = async () => {
    throw new Error('the sync broke');
  };
  const queue = await Queue.start(t.ctx.db, { work: true, log });
  try {
    await queue.startWorkers({ ...t.ctx, log, queue });
    await queue.send('templates.sync', { numberId: 'nb_none' });
    const failure = await until(() => lines.find((l) => String(l.msg).startsWith('job failed')), 15_000);
    expect(failure).toMatchObject({
      level: 40,
      msg: 'job failed; it will be tried again',
      queue: 'templates.sync',
      err: { message: 'the sync broke' },
    });
    const last = await queue.send('templates.sync', { numberId: 'nb_last' }, { retryLimit: 0 });
    const given = await until(() => lines.find((l) => l.jobId === last), 15_000);
    expect(given).toMatchObject({
      level: 50,
      msg: 'job failed on its last try',
      queue: 'templates.sync',
      err: { message: 'the sync broke' },
    });
  } finally {
    job.handler = handler;
    await queue.stop();
  }
});
