import type { FastifyInstance, FastifyRequest } from 'fastify';

// How many dropped paths one answer names: enough to see the pattern, short enough to read.
const MOST_NAMED = 5;

const droppedByApp = new WeakMap<FastifyInstance, string[]>();

/**
 * Tests only (CHECK_RESPONSE_SCHEMAS=true): a route's response schema serializes with
 * fast-json-stringify, which silently leaves out every property the schema does not declare. Each JSON
 * answer is compared before and after serialization; one that lost a field answers 500 naming the
 * route and the lost paths, so the test that hit it fails, and the drop is kept for `droppedFields`.
 */
export function checkResponseFields(app: FastifyInstance): void {
  const dropped: string[] = [];
  droppedByApp.set(app, dropped);
  const before = new WeakMap<FastifyRequest, unknown>();
  app.addHook('preSerialization', async (request, _reply, payload) => {
    before.set(request, payload);
    return payload;
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (!before.has(request) || typeof payload !== 'string') return payload;
    const given = before.get(request);
    before.delete(request);
    // An object a route serialised itself into something else (no route does today) is not compared.
    if (!String(reply.getHeader('content-type') ?? '').includes('json')) return payload;
    const lost = lostPaths(JSON.parse(JSON.stringify(given) ?? 'null'), JSON.parse(payload), '');
    if (lost.length === 0) return payload;
    const message =
      `The response schema of ${request.method} ${request.routeOptions.url ?? request.url} ` +
      `(status ${reply.statusCode}) drops ${lost.slice(0, MOST_NAMED).join(', ')}: declare them or stop returning them`;
    dropped.push(message);
    request.log.error(message);
    reply.code(500);
    return JSON.stringify({
      result: false,
      error: { code: 'internal_error', message, request_id: request.id },
    });
  });
}

/** What the app's response schemas dropped so far, when it checks them. */
export function droppedFields(app: FastifyInstance): readonly string[] {
  return droppedByApp.get(app) ?? [];
}

/** The paths present in `given` (as JSON would send it) and missing from `sent`. */
function lostPaths(given: unknown, sent: unknown, path: string): string[] {
  if (Array.isArray(given)) {
    if (!Array.isArray(sent)) return [];
    return given.flatMap((item, i) => lostPaths(item, sent[i], `${path}[${i}]`));
  }
  if (given === null || typeof given !== 'object') return [];
  if (sent === null || typeof sent !== 'object') return [];
  const out = sent as Record<string, unknown>;
  return Object.entries(given).flatMap(([key, value]) => {
    const at = path ? `${path}.${key}` : key;
    return key in out ? lostPaths(value, out[key], at) : [at];
  });
}
