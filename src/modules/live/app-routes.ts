import { Type } from 'typebox';
import type { RestApp } from '../../api/rest-app.js';
import { Text } from '../../api/schema.js';
import { touchSeen } from '../routing/availability.js';
import { DEFAULT_LIVE_LIMITS, LiveHub, type LiveLimits, SSE_REFRESH, sseEvent } from './live-hub.js';
import { ssePresence } from './presence.js';
import { registerPresenceRoutes } from './presence-app-routes.js';

const EventsQuery = Type.Object({
  // EventSource cannot set a header on its first connection: a page may pass the last id it saw.
  last_event_id: Type.Optional(Text({ maxLength: 64 })),
});

const RETRY_MS = 3_000;
const SEEN_EVERY_MS = 60_000;

/**
 * GET /events: the workspace's live updates as Server-Sent Events (`Accept: text/event-stream`, as
 * EventSource sends), or, for any other client, the events this instance keeps as JSON. The stream
 * carries ids only (kind, contact, message): the page reads what changed through the usual routes,
 * which check the session as always.
 */
export function registerLiveRoutes(app: RestApp, limits: LiveLimits = DEFAULT_LIVE_LIMITS): void {
  const hub = new LiveHub(app.ctx.log, limits);
  app.addHook('onReady', () => hub.start(app.ctx.db));
  // Before Fastify waits for requests in flight: an open stream would keep the server from closing.
  app.addHook('preClose', () => hub.stop());
  registerPresenceRoutes(app, hub);

  app.get('/events', { schema: { querystring: EventsQuery } }, async (request, reply) => {
    const s = request.session();
    const header = request.headers['last-event-id'];
    const last = (typeof header === 'string' ? header : undefined) ?? request.query.last_event_id;
    await hub.watch(s.workspaceId);
    // undefined: nothing asked; null: cannot be told, the page must load again.
    const missed = last ? hub.since(s.workspaceId, last, s.userId) : undefined;
    if (!String(request.headers.accept ?? '').includes('text/event-stream')) {
      return {
        result: true,
        events: missed ?? hub.recent(s.workspaceId, s.userId),
        refresh: missed === null,
      };
    }
    const raw = reply.raw;
    const close = hub.open({
      workspaceId: s.workspaceId,
      sessionKey: s.tokenHash,
      userId: s.userId,
      write: (text) => raw.write(text),
      end: () => raw.end(),
    });
    reply.hijack();
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      'x-request-id': request.id,
      connection: 'keep-alive',
    });
    raw.write(`retry: ${RETRY_MS}\n: connected\n\n`);
    if (missed === null) raw.write(SSE_REFRESH);
    else for (const e of missed ?? []) raw.write(sseEvent(e));
    for (const p of hub.presence.of(s.workspaceId)) raw.write(ssePresence(p));
    // An open stream is a person with the app open: seen, for routing, while it lasts.
    const seen = setInterval(() => {
      touchSeen(app.ctx.db, s.workspaceId, s.userId).catch(() => {});
    }, SEEN_EVERY_MS);
    request.raw.once('close', () => {
      clearInterval(seen);
      close();
    });
  });
}
