import Fastify, { type FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkResponseFields, droppedFields } from './response-check.js';

// The guard on a bare Fastify app: routes whose response schema leaves out some of what they return.
describe('checking response schemas', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = Fastify();
    checkResponseFields(app);
    const Item = Type.Object({ id: Type.String(), at: Type.String({ format: 'date-time' }) });
    const List = Type.Object({ result: Type.Literal(true), items: Type.Array(Item) });
    const items = [
      { id: 'a', at: new Date(0) },
      { id: 'b', at: new Date(0), gone: undefined },
    ];
    app.get('/declared', { schema: { response: { 200: List } } }, async () => ({ result: true, items }));
    app.get(
      '/dropping',
      { schema: { response: { 200: Type.Object({ result: Type.Boolean() }) } } },
      async () => ({
        result: true,
        items,
      }),
    );
    app.get('/nested', { schema: { response: { 200: List } } }, async () => ({
      result: true,
      items: [
        { id: 'a', at: new Date(0), extra: 1 },
        { id: 'b', at: new Date(0), note: 'declared nowhere' },
      ],
    }));
    app.get('/open', async () => ({ anything: { goes: [1, { deep: true }] } }));
    app.get('/text', async (_request, reply) => reply.type('text/csv').send('a,b\n'));
    await app.ready();
  });
  afterAll(() => app.close());

  it('lets an answer through whose every field is declared, dates and undefined values included', async () => {
    const res = await app.inject({ method: 'GET', url: '/declared' });
    expect(res.statusCode).toBe(200);
    expect(res.json().items[1]).toEqual({ id: 'b', at: '1970-01-01T00:00:00.000Z' });
    expect((await app.inject({ method: 'GET', url: '/open' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/text' })).body).toBe('a,b\n');
  });

  it('answers 500 naming the route and each dropped path, and keeps the drop', async () => {
    const top = await app.inject({ method: 'GET', url: '/dropping' });
    expect(top.statusCode).toBe(500);
    expect(top.json().error.message).toMatch(
      /^The response schema of GET \/dropping \(status 200\) drops items:/,
    );
    const nested = await app.inject({ method: 'GET', url: '/nested' });
    expect(nested.statusCode).toBe(500);
    expect(nested.json().error.message).toContain('drops items[0].extra, items[1].note:');
    expect(droppedFields(app)).toHaveLength(2);
  });
});
