import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseUnreachableError } from '../db/outage.js';
import {
  answerErrorsWith,
  answerForPath,
  type Envelope,
  intakeEnvelope,
  preRoutingErrors,
  restEnvelope,
} from './error-handler.js';
import { ApiError, ERROR_CODES, toApiError } from './errors.js';

// The one handler, on a bare Fastify app with each envelope the server uses. Its plugins (REST v1,
// the web app's API, the two intake endpoints) call answerErrorsWith with these same envelopes.
const INTERNAL = 'connection to 10.0.0.5 refused: password authentication failed for user parley';

async function appWith(envelope: Envelope): Promise<FastifyInstance> {
  const app = Fastify({ frameworkErrors: preRoutingErrors });
  // As in server.ts: the server's own routes (outside every plugin) answer by their path.
  app.setErrorHandler(answerForPath);
  app.get('/f/:token', async () => {
    throw new Error(INTERNAL);
  });
  app.post('/api/forms/own', async () => {
    throw new Error(INTERNAL);
  });
  await app.register(async (scope) => {
    answerErrorsWith(scope, envelope);
    scope.get('/fault', async () => {
      throw new Error(INTERNAL);
    });
    scope.get('/refused', async () => {
      throw new ApiError('unavailable', 'WhatsApp did not answer', undefined, { cause: new Error(INTERNAL) });
    });
    scope.get('/database', async () => {
      const driver = Object.assign(new Error(`connect ECONNREFUSED 10.0.0.5:5432 (${INTERNAL})`), {
        code: 'ECONNREFUSED',
      });
      throw new DatabaseUnreachableError({ cause: driver });
    });
    scope.get('/limit', async () => {
      throw new ApiError('plan_limit_reached', 'The plan is full');
    });
    scope.post('/json', async () => ({ ok: true }));
    scope.get('/range', async () => {
      // What a library such as @fastify/static throws for a range it cannot serve.
      throw Object.assign(new Error('Range Not Satisfiable'), { statusCode: 416 });
    });
  });
  await app.ready();
  return app;
}

const form = intakeEnvelope({
  unsupportedMediaType: 'Send the form as JSON or urlencoded',
  render: async (request, reply, failure) =>
    request.headers.accept === 'text/html'
      ? reply.type('text/html; charset=utf-8').send(`<p>${reply.statusCode}: ${failure.error}</p>`)
      : null,
});

let rest: FastifyInstance;
let intake: FastifyInstance;
beforeAll(async () => {
  rest = await appWith(restEnvelope);
  intake = await appWith(form);
});
afterAll(async () => {
  await rest?.close();
  await intake?.close();
});

describe('a fault of ours', () => {
  it('is a 500 in the REST envelope with the request id, and nothing of the fault', async () => {
    const res = await rest.inject({ method: 'GET', url: '/fault' });
    expect(res.statusCode).toBe(500);
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
    expect(res.json()).toEqual({
      result: false,
      error: {
        code: 'internal_error',
        message: 'Something failed on our side; quote the request id if it persists',
        request_id: res.headers['x-request-id'],
      },
    });
    expect(res.body).not.toMatch(/10\.0\.0\.5|password|parley/);
  });

  it('is a 500 in the intake envelope, as JSON and as the form page, and nothing of the fault', async () => {
    const json = await intake.inject({ method: 'GET', url: '/fault' });
    expect(json.statusCode).toBe(500);
    expect(json.headers['x-request-id']).toEqual(expect.any(String));
    expect(json.json()).toEqual({ success: false, error: 'Something failed on our side; please try again' });
    const page = await intake.inject({ method: 'GET', url: '/fault', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(500);
    expect(page.headers['x-request-id']).toEqual(expect.any(String));
    expect(page.body).toBe('<p>500: Something failed on our side; please try again</p>');
    for (const res of [json, page]) expect(res.body).not.toMatch(/10\.0\.0\.5|password|parley/);
  });

  it("is a 500 in the envelope of its path's part of the API on the server's own routes", async () => {
    const page = await rest.inject({ method: 'GET', url: '/f/ft_x' });
    expect(page.statusCode).toBe(500);
    expect(page.json()).toMatchObject({ result: false, error: { code: 'internal_error' } });
    const intakeRoute = await rest.inject({ method: 'POST', url: '/api/forms/own' });
    expect(intakeRoute.statusCode).toBe(500);
    expect(intakeRoute.headers['x-request-id']).toEqual(expect.any(String));
    expect(intakeRoute.json()).toEqual({
      success: false,
      error: 'Something failed on our side; please try again',
    });
    for (const res of [page, intakeRoute]) expect(res.body).not.toMatch(/10\.0\.0\.5|password/);
  });

  it("keeps an ApiError's cause out of the answer", async () => {
    for (const app of [rest, intake]) {
      const res = await app.inject({ method: 'GET', url: '/refused' });
      expect(res.statusCode).toBe(503);
      expect(res.body).toMatch(/WhatsApp did not answer/);
      expect(res.body).not.toMatch(/10\.0\.0\.5|password/);
    }
  });
});

describe('what the client is told', () => {
  it('answers an unreachable database with 503, Retry-After and no word of the driver, in each envelope', async () => {
    const r = await rest.inject({ method: 'GET', url: '/database' });
    const i = await intake.inject({ method: 'GET', url: '/database' });
    const page = await intake.inject({ method: 'GET', url: '/database', headers: { accept: 'text/html' } });
    for (const res of [r, i, page]) {
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body).not.toMatch(/ECONNREFUSED|10\.0\.0\.5|5432|password/);
    }
    expect(r.json().error).toMatchObject({
      code: 'unavailable',
      message: expect.stringMatching(/try again/),
    });
    expect(i.json()).toEqual({ success: false, error: expect.stringMatching(/try again/) });
    expect(page.body).toMatch(/^<p>503: .*try again/);
  });

  it("answers an ApiError with its code's status in each envelope", async () => {
    const r = await rest.inject({ method: 'GET', url: '/limit' });
    expect(r.statusCode).toBe(402);
    expect(r.json().error).toMatchObject({ code: 'plan_limit_reached', message: 'The plan is full' });
    const i = await intake.inject({ method: 'GET', url: '/limit' });
    expect(i.statusCode).toBe(402);
    expect(i.json()).toEqual({ success: false, error: 'The plan is full' });
  });

  it("keeps the status of a library's own refusal, in the envelope", async () => {
    const res = await rest.inject({ method: 'GET', url: '/range' });
    expect(res.statusCode).toBe(416);
    expect(res.json()).toMatchObject({ result: false, error: { code: 'bad_request' } });
  });

  it("answers Fastify's own refusals (bad JSON, wrong content type) in each envelope", async () => {
    const bad = { method: 'POST' as const, url: '/json', headers: { 'content-type': 'application/json' } };
    const r = await rest.inject({ ...bad, payload: '{"a":' });
    expect(r.statusCode).toBe(400);
    expect(r.json().error.code).toBe('invalid_json');
    const i = await intake.inject({ ...bad, payload: '{"a":' });
    expect(i.statusCode).toBe(400);
    expect(i.json()).toEqual({ success: false, error: 'The request body is not valid JSON' });
    const typed = { method: 'POST' as const, url: '/json', headers: { 'content-type': 'application/xml' } };
    expect((await rest.inject({ ...typed, payload: '<a/>' })).statusCode).toBe(415);
    const media = await intake.inject({ ...typed, payload: '<a/>' });
    expect(media.statusCode).toBe(415);
    expect(media.json().error).toBe('Send the form as JSON or urlencoded');
  });

  it('answers an unknown route with 404 and never echoes a webhook secret', async () => {
    const r = await rest.inject({ method: 'GET', url: '/nowhere?x=1' });
    expect(r.statusCode).toBe(404);
    expect(r.json().error).toMatchObject({ code: 'not_found', message: 'No endpoint GET /nowhere' });
    const i = await intake.inject({ method: 'GET', url: '/api/automation/webhooks/sq_1/whsec_secret' });
    expect(i.statusCode).toBe(404);
    expect(i.headers['x-request-id']).toEqual(expect.any(String));
    expect(i.body).not.toMatch(/whsec_secret/);
  });

  it("answers a refusal before routing in the envelope of the path's part of the API", async () => {
    const r = await rest.inject({ method: 'GET', url: '/api/v1/messages/%' });
    expect(r.statusCode).toBe(400);
    expect(r.headers['x-request-id']).toEqual(expect.any(String));
    expect(r.json()).toMatchObject({ result: false, error: { code: 'bad_request' } });
    const i = await rest.inject({ method: 'POST', url: '/api/forms/%' });
    expect(i.statusCode).toBe(400);
    expect(Object.keys(i.json()).sort()).toEqual(['error', 'success']);
  });
});

describe('the code table', () => {
  it('gives every code a client or server error status, and 500 only to internal_error', () => {
    for (const code of ERROR_CODES) {
      const { status } = new ApiError(code, 'x');
      expect(status, code).toBeGreaterThanOrEqual(400);
      expect(status, code).toBeLessThan(600);
      expect(status === 500, code).toBe(code === 'internal_error');
    }
  });

  it('leaves an error it does not know as a fault of ours', () => {
    expect(toApiError(new Error(INTERNAL))).toBeNull();
    expect(toApiError(Object.assign(new Error('x'), { statusCode: 502 }))).toBeNull();
    expect(toApiError('thrown string')).toBeNull();
    expect(toApiError(undefined)).toBeNull();
  });
});
