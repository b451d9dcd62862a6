import { Ajv, type AnySchema, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

function ajv(coerceTypes: boolean, externalSchemas: Record<string, AnySchema | AnySchema[]>): Ajv {
  const instance = new Ajv({
    allErrors: true,
    coerceTypes,
    useDefaults: true,
    removeAdditional: false,
    strict: false,
    // JSON.parse reads a number past double range (1e400) as Infinity, which JSON.stringify and
    // jsonb then store as null: a body's number must be finite. `strict: false` alone would let it
    // pass. Not for query strings: coerced with it on, "1e309" became Infinity and passed `maximum`.
    strictNumbers: !coerceTypes,
    // Errors carry the value refused, so an out-of-range number is named as such (http/errors.ts).
    verbose: true,
  });
  addFormats.default(instance, ['email', 'date-time', 'uri']);
  for (const schema of Object.values(externalSchemas)) instance.addSchema(schema);
  return instance;
}

/**
 * JSON bodies are taken as sent ("5" is not 5, a lone string is not a list); only the query string
 * and path, which are text by nature, are coerced to the declared types. Given to Fastify as its
 * validator factory so every plugin context, including those that add schemas, uses it.
 *
 * One factory per server: Fastify calls it once per plugin context that has a route with a schema
 * (126 of them), and two Ajv instances each cost the server 2.9 s of its start (on a loaded 2-core
 * machine; ajv's constructor and ajv-formats). Contexts with the same shared schemas (`addSchema`)
 * share one pair.
 */
export function validatorFactory(): (
  externalSchemas: Record<string, AnySchema | AnySchema[]>,
) => FastifySchemaCompiler<unknown> {
  const pairs = new Map<string, { strict: Ajv; coercing: Ajv }>();
  return (externalSchemas) => {
    const key = JSON.stringify(externalSchemas);
    let pair = pairs.get(key);
    if (!pair) {
      pair = { strict: ajv(false, externalSchemas), coercing: ajv(true, externalSchemas) };
      pairs.set(key, pair);
    }
    return compilerOn(pair.strict, pair.coercing);
  };
}

function compilerOn(strict: Ajv, coercing: Ajv): FastifySchemaCompiler<unknown> {
  return ({ schema, httpPart }) => {
    // Compiled at the route's first request, not at start: compiling every route's schemas cost the
    // embedded server about 100 ms of its start, for routes a process may never serve. Fastify reads
    // a refusal's errors from the function it was given.
    let compiled: ValidateFunction | undefined;
    const validate = (data: unknown) => {
      compiled ??= (httpPart === 'body' ? strict : coercing).compile(schema as object);
      const valid = compiled(data);
      validate.errors = compiled.errors;
      return valid;
    };
    validate.errors = undefined as ValidateFunction['errors'];
    return validate;
  };
}
