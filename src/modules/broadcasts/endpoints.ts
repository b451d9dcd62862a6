import type { FastifyRequest } from 'fastify';
import type { RestApp } from '../../api/rest-app.js';
import { errorResponses } from '../../api/schema.js';
import { approvedTemplate, isMarketing } from './approved-template.js';
import { audienceWithSample } from './audience.js';
import { controlBroadcast } from './control-broadcast.js';
import { createBroadcast } from './create-broadcast.js';
import { broadcastExamples as ex } from './examples.js';
import { getBroadcast, listBroadcasts } from './get-broadcast.js';
import { listRecipients } from './list-recipients.js';
import { previewBroadcast } from './preview.js';
import {
  AudienceBody,
  AudienceResult,
  BroadcastParams,
  BroadcastResult,
  CreateBroadcastBody,
  ListQuery,
  ListResult,
  PreviewBody,
  PreviewResult,
  RecipientsQuery,
  RecipientsResult,
  TimelineResult,
} from './schemas.js';
import { broadcastTimeline } from './timeline.js';

/** Who calls: their workspace, and a check that they may create and control broadcasts. */
export type Caller = (request: FastifyRequest) => { workspaceId: string; mayControl(): void };

const tags = ['broadcasts'];

/**
 * The broadcast endpoints, the same under REST v1 (an API key) and the web app's API (a session,
 * members reading, owners and admins creating and controlling): only `caller` differs.
 */
export function broadcastEndpoints(app: RestApp, caller: Caller, documented: boolean): void {
  const { ctx } = app;
  // The error schema is REST v1's (its OpenAPI document); the web app's API declares none.
  const errors = (...statuses: number[]) => (documented ? errorResponses(...statuses) : {});

  app.post(
    '/broadcasts',
    {
      schema: {
        summary: 'Create a broadcast: a template to a segment of contacts, now, later or as a draft',
        description:
          "The values are checked against the template's components (422 naming the `values` field). Delivery is paced at the number's throughput, never past its messaging limit tier (unique recipients in a rolling 24 hours: the broadcast then shows `waiting_for_limit`), each contact at most once. Opted-out contacts are left out of a MARKETING template's audience and skipped if they opt out later.",
        operationId: 'createBroadcast',
        tags,
        body: { ...CreateBroadcastBody, examples: [ex.create] },
        response: {
          201: { ...BroadcastResult, examples: [ex.one] },
          ...errors(400, 401, 404, 409, 413, 415, 422, 429),
        },
      },
    },
    async (request, reply) => {
      const who = caller(request);
      who.mayControl();
      const broadcast = await createBroadcast(ctx, who.workspaceId, request.body);
      return reply.code(201).send({ result: true as const, broadcast });
    },
  );

  app.post(
    '/broadcasts/audience',
    {
      schema: {
        summary: 'Count an audience before sending',
        description: 'With a MARKETING template named, opted-out contacts are not counted.',
        operationId: 'countBroadcastAudience',
        tags,
        body: { ...AudienceBody, examples: [ex.audience] },
        response: {
          200: { ...AudienceResult, examples: [ex.counted] },
          ...errors(400, 401, 404, 413, 415, 422, 429),
        },
      },
    },
    async (request) => {
      const { workspaceId } = caller(request);
      const template =
        request.body.template && (await approvedTemplate(ctx.db, workspaceId, request.body.template));
      const marketing = template ? isMarketing(template.category) : false;
      return {
        result: true as const,
        ...(await audienceWithSample(ctx.db, workspaceId, request.body.audience, marketing)),
      };
    },
  );

  app.post(
    '/broadcasts/preview',
    {
      schema: {
        summary: 'The template as one contact would read it',
        description:
          'The given contact, else the newest; `missing` names the parts that fell back or are empty.',
        operationId: 'previewBroadcast',
        tags,
        body: { ...PreviewBody, examples: [ex.preview] },
        response: {
          200: { ...PreviewResult, examples: [ex.previewed] },
          ...errors(400, 401, 404, 413, 415, 422, 429),
        },
      },
    },
    async (request) => ({
      result: true as const,
      ...(await previewBroadcast(ctx.db, caller(request).workspaceId, request.body)),
    }),
  );

  app.get(
    '/broadcasts',
    {
      schema: {
        summary: 'List broadcasts, newest first',
        operationId: 'listBroadcasts',
        tags,
        querystring: ListQuery,
        response: { 200: { ...ListResult, examples: [ex.list] }, ...errors(401, 422, 429) },
      },
    },
    async (request) => {
      const { status, limit, offset } = request.query;
      const page = await listBroadcasts(ctx.db, caller(request).workspaceId, { status, limit, offset });
      return {
        result: true as const,
        broadcasts: page.broadcasts,
        limit,
        offset,
        has_next_page: page.hasNextPage,
      };
    },
  );

  app.get(
    '/broadcasts/:id',
    {
      schema: {
        summary: 'A broadcast with its progress and results',
        operationId: 'getBroadcast',
        tags,
        params: BroadcastParams,
        response: { 200: { ...BroadcastResult, examples: [ex.one] }, ...errors(401, 404, 422, 429) },
      },
    },
    async (request) => ({
      result: true as const,
      broadcast: await getBroadcast(ctx.db, caller(request).workspaceId, request.params.id),
    }),
  );

  app.get(
    '/broadcasts/:id/recipients',
    {
      schema: {
        summary: "A broadcast's recipients, filtered by status or Meta's error code",
        operationId: 'listBroadcastRecipients',
        tags,
        params: BroadcastParams,
        querystring: RecipientsQuery,
        response: { 200: { ...RecipientsResult, examples: [ex.recipients] }, ...errors(401, 404, 422, 429) },
      },
    },
    async (request) => {
      const { limit, offset } = request.query;
      const page = await listRecipients(
        ctx.db,
        caller(request).workspaceId,
        request.params.id,
        request.query,
      );
      return {
        result: true as const,
        recipients: page.recipients,
        limit,
        offset,
        has_next_page: page.hasNextPage,
      };
    },
  );

  app.get(
    '/broadcasts/:id/timeline',
    {
      schema: {
        summary: 'Sent, delivered, read and failed per minute (per hour past three hours)',
        operationId: 'getBroadcastTimeline',
        tags,
        params: BroadcastParams,
        response: { 200: { ...TimelineResult, examples: [ex.timeline] }, ...errors(401, 404, 422, 429) },
      },
    },
    async (request) => ({
      result: true as const,
      ...(await broadcastTimeline(ctx.db, caller(request).workspaceId, request.params.id)),
    }),
  );

  for (const move of ['pause', 'resume', 'cancel'] as const) {
    app.post(
      `/broadcasts/:id/${move}`,
      {
        schema: {
          summary: `${move[0]!.toUpperCase()}${move.slice(1)} a broadcast`,
          description:
            '409 `broadcast_state` when the broadcast is not in a state this move starts from. Resume also starts a draft.',
          operationId: `${move}Broadcast`,
          tags,
          params: BroadcastParams,
          response: { 200: { ...BroadcastResult, examples: [ex.one] }, ...errors(401, 404, 409, 422, 429) },
        },
      },
      async (request) => {
        const who = caller(request);
        who.mayControl();
        return {
          result: true as const,
          broadcast: await controlBroadcast(ctx, who.workspaceId, request.params.id, move),
        };
      },
    );
  }
}
