import { setTimeout as sleep } from 'node:timers/promises';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import { answerForPath, preRoutingErrors, refuseNulInPath } from '../api/error-handler.js';
import { DATABASE_RETRY_AFTER_SECONDS } from '../api/errors.js';
import type { AppContext } from '../context.js';
import { newId } from '../lib/ids.js';
import { formPageRoutes } from '../modules/forms/page-routes.js';
import { formSubmitRoutes } from '../modules/leads/form-submit-routes.js';
import { workflowWebhookRoutes } from '../modules/leads/webhook-routes.js';
import { simulatorMounted } from '../modules/messaging/simulator-link.js';
import { whatsappWebhookRoutes } from '../modules/messaging/webhook-routes.js';
import { webhookEvents } from '../modules/webhooks/event-docs.js';
import { simulator } from '../simulator/plugin.js';
import { SimState } from '../simulator/state.js';
import { AccessLog } from './access-log.js';
import { appApi } from './app-api.js';
import { registerMetrics } from './metrics.js';
import { checkResponseFields } from './response-check.js';
import { REST_BODY_LIMIT, restV1 } from './rest-v1.js';
import { validatorFactory } from './validation.js';
import { registerWebApp } from './web-app.js';

// How long /readyz waits for the database's answer.
const READY_WITHIN_MS = 1_500;

const INCOMING_REQUEST_ID = /^[\w.-]{1,64}$/;

/** The one HTTP server: REST v1 under /api/v1, its OpenAPI document, health and metrics. */
export async function buildServer(ctx: AppContext): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: ctx.log,
    logController: new AccessLog(),
    trustProxy: trustedHops(ctx.config.trustProxy),
    bodyLimit: REST_BODY_LIMIT,
    requestIdHeader: false,
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && INCOMING_REQUEST_ID.test(incoming) ? incoming : newId('req');
    },
    // Fastify's factory type is a union over Ajv and JTD compilers; ours is the plain Ajv one.
    schemaController: { compilersFactory: { buildValidator: validatorFactory() as never } },
    routerOptions: { maxParamLength: 200 },
    frameworkErrors: preRoutingErrors,
  }).withTypeProvider<TypeBoxTypeProvider>();
  if (ctx.config.trustProxy === true) {
    ctx.log.warn(
      'TRUST_PROXY=true believes every X-Forwarded-For hop, so any client can choose the address its ' +
        'limits count: set the number of proxies in front (TRUST_PROXY=1) or their addresses instead',
    );
  }
  app.decorate('ctx', ctx);
  app.setErrorHandler(answerForPath);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onRequest', refuseNulInPath);
  if (ctx.config.checkResponseSchemas) checkResponseFields(app);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Parley REST API',
        version: '1.0.0',
        description:
          'Send WhatsApp messages, upsert contacts, track events, list templates, send broadcasts and manage flows and sequences.',
      },
      servers: [{ url: `${ctx.config.appUrl}/api/v1` }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API key>' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        },
      },
      security: [{ bearer: [] }, { apiKey: [] }],
      webhooks: webhookEvents,
    },
    transform: ({ schema, url }) => ({
      schema: (url.startsWith('/api/v1/')
        ? { ...schema, querystring: optionalDefaults(schema?.querystring) }
        : { ...schema, hide: true }) as typeof schema,
      url: url.replace(/^\/api\/v1/, ''),
    }),
  });
  await app.register(swaggerUi, { routePrefix: '/api/v1/docs', uiConfig: { tryItOutEnabled: false } });
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  registerMetrics(app);
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    // A load balancer's check has its own deadline: answer within ours instead of waiting on the pool.
    const answered = await Promise.race([
      ctx.db.query('SELECT 1').then(
        () => true,
        () => false,
      ),
      sleep(READY_WITHIN_MS, false, { ref: false }),
    ]);
    if (answered) return { status: 'ready' };
    return reply
      .code(503)
      .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
      .send({ status: 'unavailable', reason: 'database unreachable' });
  });

  await app.register(restV1, { prefix: '/api/v1' });
  await app.register(whatsappWebhookRoutes, { prefix: '/api/webhooks/whatsapp' });
  // Lead intake: the form endpoint, its hosted page and embed script.
  await app.register(formSubmitRoutes, { prefix: '/api/forms' });
  await app.register(formPageRoutes, { prefix: '/f' });
  await app.register(workflowWebhookRoutes, { prefix: '/api/automation/webhooks' });
  // The web app's session-authenticated JSON API, and the app itself at / (SPA fallback).
  await app.register(appApi, { prefix: '/api/app' });
  await registerWebApp(app);
  // The WhatsApp Cloud API simulator, in process, for the embedded default (demo, development, tests).
  if (simulatorMounted(ctx)) {
    const state = new SimState();
    app.decorate('simState', state);
    await app.register(simulator, {
      prefix: '/_sim',
      state,
      operatorToken: ctx.config.simulatorToken!,
      receiverBase: ctx.config.appUrl,
    });
  }
  return app;
}

/** A hop count as the function Fastify takes (its types leave the number out): the nearest n hops. */
function trustedHops(trust: boolean | number | string) {
  return typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;
}

/**
 * A query parameter with a default may be left out: the document says so, where the schema lists it
 * as required only so that handlers see the default filled in (generated clients made `limit` required).
 */
function optionalDefaults(query: unknown): unknown {
  const q = query as { properties?: Record<string, { default?: unknown }>; required?: string[] } | undefined;
  if (!q?.properties || !q.required) return query;
  const required = q.required.filter((name) => q.properties![name]?.default === undefined);
  return { ...q, required: required.length ? required : undefined };
}
