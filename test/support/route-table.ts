import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { FastifyInstance, RouteOptions } from 'fastify';

/** One route as Fastify registered it: `path` is the URL under its plugin's prefix, params as `:id`. */
export interface RegisteredRoute {
  method: string;
  /** The full URL pattern, e.g. /api/app/contacts/:id. */
  url: string;
  /** The prefix of the plugin that registered it, e.g. /api/app. */
  prefix: string;
  /** The pattern under the prefix, e.g. /contacts/:id. */
  path: string;
  public: boolean;
  /** The JSON schema its body is validated against, if any. */
  body?: unknown;
  /** Its plugin reads multipart/form-data bodies. */
  multipart: boolean;
}

/**
 * Runs `build` and records every route the Fastify servers it creates register. Fastify announces
 * each new instance on the `fastify.initialization` diagnostics channel before any plugin runs, so
 * an onRoute hook added there sees every route, in every encapsulated plugin, without the server
 * exposing a table of its own.
 */
export async function withRouteTable<T>(
  build: () => Promise<T>,
): Promise<{ value: T; routes: RegisteredRoute[] }> {
  const routes: RegisteredRoute[] = [];
  const onInit = (message: unknown) => {
    const { fastify } = message as { fastify: FastifyInstance };
    fastify.addHook('onRoute', function (this: FastifyInstance, route: RouteOptions & { prefix?: string }) {
      const prefix = route.prefix ?? '';
      for (const method of [route.method].flat()) {
        // Fastify adds a HEAD twin for every GET; it is the GET route.
        if (method === 'HEAD') continue;
        routes.push({
          method,
          url: route.url,
          prefix,
          path: route.url.slice(prefix.length) || '/',
          public: route.config?.public === true,
          body: (route.schema as { body?: unknown } | undefined)?.body,
          multipart: this.hasContentTypeParser('multipart/form-data'),
        });
      }
    });
  };
  subscribe('fastify.initialization', onInit);
  try {
    return { value: await build(), routes };
  } finally {
    unsubscribe('fastify.initialization', onInit);
  }
}

/** `GET /contacts/:id`: how routes are named in tables and test titles. */
export const routeName = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

/** The path parameters a route pattern takes, e.g. ['id'] for /contacts/:id. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
}

/** The pattern with its parameters filled in. */
export function fillPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for :${name} in ${path}`);
    return encodeURIComponent(value);
  });
}

/** The operations of an OpenAPI document as routes, its `{id}` parameters written `:id`. */
export function openApiRoutes(doc: { paths: Record<string, Record<string, unknown>> }) {
  const methods = new Set(['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace']);
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((m) => methods.has(m))
      .map((m) => ({ method: m.toUpperCase(), path: path.replace(/\{(\w+)\}/g, ':$1') })),
  );
}
