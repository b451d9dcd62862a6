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

it('answers a source that fails at once through the error handler, not as a download', async () => {
  const app = Fastify();
  app.setErrorHandler((err, _request, reply) => reply.code(503).send({ refused: (err as Error).message }));
  app.get('/x', (_request, reply) =>
    sendCsv(
      reply,
      'x',
      ['a'],
      // biome-ignore lint/correctness/useYield: a source that fails before its first record
      (async function* () {
        throw new Error('the database went away');
      })(),
    ),
  );
  const res = await app.inject({ method: 'GET', url: '/x' });
  expect(res.statusCode).toBe(503);
  expect(res.json()).toEqual({ refused: 'the database went away' });
  expect(res.headers['content-disposition']).toBeUndefined();
  await app.close();
});
