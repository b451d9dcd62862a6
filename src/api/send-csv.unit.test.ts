import Fastify from 'fastify';
import { expect, it } from 'vitest';
import { sendCsv } from './send-csv.js';

it('ends the download when the records fail midway, instead of leaving it open', async () => {
  const app = Fastify();
  app.get('/x', (_request, reply) =>
    sendCsv(
      reply,
      'x',
      ['a'],
      (async function* () {
        yield ['1'];
        throw new Error('the database went away');
      })(),
    ),
  );
  const res = await Promise.race([
    app.inject({ method: 'GET', url: '/x' }).then(
      () => 'ended',
      () => 'ended',
    ),
    new Promise((resolve) => setTimeout(() => resolve('left open'), 3000)),
  ]);
  expect(res).toBe('ended');
  await app.close();
});
