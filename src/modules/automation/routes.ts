import type { RestApp } from '../../api/rest-app.js';
import { errorResponses } from '../../api/schema.js';
import { answerWriter } from '../idempotency/outcome.js';
import { TrackEventBody, TrackEventResult } from './schemas.js';
import { type TrackedEvent, trackEvent } from './track-event.js';

const trackAnswer = (event: TrackedEvent) => ({
  status: 202 as const,
  body: { result: true as const, ...event },
});

export function registerEventRoutes(app: RestApp): void {
  app.post(
    '/events',
    {
      config: { idempotent: true },
      schema: {
        summary: 'Track an event; starts every published flow listening for its name',
        description:
          'The contact is created if absent (402 at the plan contact limit). 202 once the event is stored; ' +
          'the runs start from the job queue.',
        operationId: 'trackEvent',
        tags: ['events'],
        body: {
          ...TrackEventBody,
          examples: [{ phone: '+919876543210', event: 'cart_abandoned', properties: { cart_total: '1499' } }],
        },
        response: {
          202: { ...TrackEventResult, examples: [{ result: true, id: 'evt_8Kp3xz', flows_started: 1 }] },
          ...errorResponses(400, 401, 402, 409, 413, 415, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const answer = trackAnswer(
        await trackEvent(app.ctx, request.principal(), request.body, answerWriter(request, trackAnswer)),
      );
      return reply.code(answer.status).send(answer.body);
    },
  );
}
