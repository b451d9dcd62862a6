import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect, it } from 'vitest';
import { testAppForTests } from '../../test/support/app.js';
import { PAGE_LIMIT_MAX } from '../api/schema.js';

const t = testAppForTests();

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

interface Media {
  schema?: object;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}
interface Parameter {
  in: string;
  name: string;
  schema: { minimum?: number; maximum?: number; type?: string };
}
interface Operation {
  operationId?: string;
  summary?: string;
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { content?: Record<string, Media> }>;
}

/**
 * What a client generator needs of every REST v1 operation (docs/api-changes.md): a unique
 * operationId, a summary, the errors it answers, and a request and answer example that its own schema
 * accepts. Each problem names its operation, so a failure says where.
 */
function contractProblems(doc: {
  paths: Record<string, Record<string, Operation>>;
  components?: object;
}): string[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  // The document's schemas point at '#/components/schemas/...': validate each against a root holding them.
  const validates = (schema: object, value: unknown): string | null => {
    const validate = ajv.compile({ ...schema, components: doc.components });
    return validate(value) ? null : ajv.errorsText(validate.errors);
  };
  const examplesOf = (media: Media): unknown[] =>
    media.example !== undefined ? [media.example] : Object.values(media.examples ?? {}).map((e) => e.value);

  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const problem = (text: string) => problems.push(`${where}: ${text}`);
      if (!op.operationId) problem('no operationId');
      else if (seen.has(op.operationId))
        problem(`operationId ${op.operationId} also on ${seen.get(op.operationId)}`);
      else seen.set(op.operationId, where);
      if (!op.summary) problem('no summary');
      const statuses = Object.keys(op.responses ?? {});
      if (!statuses.some((s) => /^4\d\d$/.test(s))) problem('no 4xx response');

      const checkMedia = (media: Media | undefined, what: string) => {
        if (!media?.schema) return;
        const examples = examplesOf(media);
        if (examples.length === 0) return problem(`no example for its ${what}`);
        for (const example of examples) {
          const error = validates(media.schema, example);
          if (error) problem(`its ${what} example does not match its schema: ${error}`);
        }
      };
      checkMedia(op.requestBody?.content?.['application/json'], 'request body');
      const success = statuses.filter((s) => /^2\d\d$/.test(s));
      if (success.length === 0) problem('no 2xx response');
      for (const status of success)
        checkMedia(op.responses?.[status]?.content?.['application/json'], `${status} answer`);
    }
  }
  return problems;
}

it('gives every REST v1 operation an operationId, summary, errors and examples its schemas accept', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  expect(contractProblems(res.json())).toEqual([]);
});

it('finds what the contract asks for missing or wrong', () => {
  const schema = { type: 'object', required: ['id'], properties: { id: { type: 'string' } } };
  const media = (example: unknown) => ({ content: { 'application/json': { schema, example } } });
  const good: Operation = {
    operationId: 'getThing',
    summary: 'A thing',
    responses: { '200': media({ id: 'th_1' }), '404': {} },
  };
  const doc = (paths: Record<string, Record<string, Operation>>) => ({ paths });
  expect(contractProblems(doc({ '/things/{id}': { get: good } }))).toEqual([]);
  expect(
    contractProblems(
      doc({
        '/things/{id}': { get: good, delete: { ...good, responses: { '204': {} } } },
        '/things': {
          post: {
            requestBody: media({ id: 7 }),
            responses: { '201': { content: { 'application/json': { schema } } }, '422': {} },
          },
        },
      }),
    ),
  ).toEqual([
    'DELETE /things/{id}: operationId getThing also on GET /things/{id}',
    'DELETE /things/{id}: no 4xx response',
    'POST /things: no operationId',
    'POST /things: no summary',
    'POST /things: its request body example does not match its schema: data/id must be string',
    'POST /things: no example for its 201 answer',
  ]);
});

it('pages every REST v1 list with the same limit range (docs/DECISIONS.md)', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  // A contact import's refused rows are a report of up to 1,000 rows, not a page of a list.
  const REPORTS = new Set(['/contacts/imports/{id}']);
  const ranges: Record<string, unknown> = {};
  for (const [path, item] of Object.entries<Record<string, { parameters?: Parameter[] }>>(doc.paths)) {
    if (REPORTS.has(path)) continue;
    const limit = item.get?.parameters?.find((p) => p.in === 'query' && p.name === 'limit');
    if (limit) ranges[path] = [limit.schema.minimum, limit.schema.maximum];
  }
  expect(Object.keys(ranges).length).toBeGreaterThan(10);
  expect(ranges).toEqual(Object.fromEntries(Object.keys(ranges).map((p) => [p, [1, PAGE_LIMIT_MAX]])));
});

it('documents 422 on every REST v1 operation whose path or query parameters the validator can refuse', async () => {
  // An empty segment or %00 never reaches a route; a length, range, kind or choice does.
  const refusable = (p: Parameter) =>
    ((p.in === 'path' || p.in === 'query') &&
      ['maxLength', 'minimum', 'maximum', 'enum', 'format', 'anyOf', 'const'].some((k) => k in p.schema)) ||
    (p.in === 'query' && p.schema.type !== 'string');
  const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  const missing: string[] = [];
  for (const [path, item] of Object.entries<Record<string, Operation & { parameters?: Parameter[] }>>(
    doc.paths,
  )) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op?.parameters?.some(refusable)) continue;
      if (!Object.keys(op.responses ?? {}).includes('422')) missing.push(`${method.toUpperCase()} ${path}`);
    }
  }
  expect(missing).toEqual([]);
});
