import { Type } from 'typebox';
import type { RestApp } from '../../api/rest-app.js';
import { errorResponses } from '../../api/schema.js';
import { checkNumber } from './check-number.js';
import { connectCloudNumber } from './connect-cloud-number.js';
import { disconnectWorkspaceNumber } from './disconnect-number.js';
import { numberViewOfWorkspace, numberWebhook } from './number-view.js';
import { ConnectedNumberView, ConnectNumberBody, NumberWebhook } from './schemas.js';

const tags = ['number'];

const NUMBER_EXAMPLE = {
  id: 'pn_7Hc2Lm9QaX4tVw1Rz8Kd',
  display_phone: '+1 555 0199',
  phone_number_id: '106540352242922',
  business_account_id: '102290129340398',
  provider: 'whatsapp_cloud_api',
  status: 'paused',
  paused: {
    at: '2026-11-20T08:12:40.000Z',
    code: 190,
    reason: 'Error validating access token: Session has expired',
    what_to_do:
      'The access token has expired or was revoked: save a new access token (a System User token does not expire).',
  },
  webhook_url: 'https://parley.example.com/api/webhooks/whatsapp/pn_7Hc2Lm9QaX4tVw1Rz8Kd',
  verified_name: 'Acme Shoes',
  quality_rating: 'GREEN',
  messaging_limit_tier: 'TIER_1K',
  templates_synced_at: '2026-11-02T09:15:00.000Z',
  connected_at: '2026-11-01T16:03:21.000Z',
};
const CONNECTED_EXAMPLE = { ...NUMBER_EXAMPLE, status: 'connected', paused: null };

const NumberAnswer = Type.Object(
  {
    result: Type.Literal(true),
    number: Type.Union([ConnectedNumberView, Type.Null()], { description: 'Null when none is connected' }),
    webhook: NumberWebhook,
  },
  {
    examples: [
      {
        result: true,
        number: NUMBER_EXAMPLE,
        webhook: {
          callback_url: 'https://parley.example.com/api/webhooks/whatsapp',
          verify_token: 'parley_3f9a1c0d5e7b2a4c6d8e0f1a2b3c4d5e',
        },
      },
    ],
  },
);

const ConnectedAnswer = Type.Object(
  {
    result: Type.Literal(true),
    number: ConnectedNumberView,
    templates_synced: Type.Union([Type.Integer(), Type.Null()], {
      description: "How many templates were copied from the number's account; null when that failed",
    }),
    sync_error: Type.Optional(Type.String({ description: 'Why the templates could not be copied' })),
  },
  { examples: [{ result: true, number: CONNECTED_EXAMPLE, templates_synced: 12 }] },
);

const CheckedAnswer = Type.Object(
  {
    result: Type.Literal(true),
    resumed: Type.Boolean({ description: 'The number was paused and sends again' }),
    number: ConnectedNumberView,
  },
  { examples: [{ result: true, resumed: true, number: CONNECTED_EXAMPLE }] },
);

const ConnectBody = {
  ...ConnectNumberBody,
  examples: [
    {
      phone_number_id: '106540352242922',
      business_account_id: '102290129340398',
      access_token: 'EAAG...',
      app_secret: '4f1d...',
    },
  ],
};

/** REST v1: the workspace's WhatsApp number, as Settings › Connected number shows and changes it. */
export function registerNumberRoutes(app: RestApp): void {
  const { ctx } = app;

  /** The number as it stands after a change: there is one, the change just made it so. */
  const current = async (workspaceId: string) => (await numberViewOfWorkspace(ctx, workspaceId))!;

  app.get(
    '/number',
    {
      schema: {
        operationId: 'getNumber',
        summary: "The workspace's connected WhatsApp number, null when none",
        description:
          "Its ids (Parley's and Meta's), display phone, quality and messaging tier as Meta last said, and " +
          '`status`: `connected`, or `paused` while Meta refuses to send from it (its token, account or payment), with ' +
          "Meta's code and words, what to do and since when. Sends from a paused number are held and its " +
          'broadcasts paused until it is put right (PUT /number with a new access token, or POST /number/check). ' +
          "`webhook` is what Meta's app settings need: the callback URL and its verify token. The access token " +
          'and app secret are never answered.',
        tags,
        response: { 200: NumberAnswer, ...errorResponses(401, 429) },
      },
    },
    async (request) => {
      const { workspaceId } = request.principal();
      return {
        result: true as const,
        number: await numberViewOfWorkspace(ctx, workspaceId),
        webhook: numberWebhook(ctx, true),
      };
    },
  );

  app.put(
    '/number',
    {
      schema: {
        operationId: 'connectNumber',
        summary: 'Connect a WhatsApp Cloud API number, or replace the one connected',
        description:
          "As the app's Settings › Connected number: Meta must read the number with the access token, then the " +
          "app is subscribed to the business account's webhooks; only then is the number stored (its secrets " +
          'sealed, never answered) and its templates copied. Connecting the same number with a new access token ' +
          'resumes it if it was paused. 422 names the field Meta refused (`access_token` it does not accept or ' +
          'that lacks the WhatsApp permissions, an id it does not know) or a number connected to another ' +
          'workspace on this server; 503 when Meta could not be reached. Nothing is stored on an error.',
        tags,
        body: ConnectBody,
        response: { 200: ConnectedAnswer, ...errorResponses(400, 401, 413, 415, 422, 429, 503) },
      },
    },
    async (request) => {
      const { workspaceId } = request.principal();
      const b = request.body;
      const { templates_synced, sync_error } = await connectCloudNumber(ctx, workspaceId, {
        phoneNumberId: b.phone_number_id,
        businessAccountId: b.business_account_id,
        accessToken: b.access_token,
        appSecret: b.app_secret,
      });
      return {
        result: true as const,
        number: await current(workspaceId),
        templates_synced,
        ...(sync_error === undefined ? {} : { sync_error }),
      };
    },
  );

  app.delete(
    '/number',
    {
      schema: {
        operationId: 'disconnectNumber',
        summary: 'Disconnect the number',
        description:
          'The number and its credentials are removed; sends answer 409 `no_connected_number` from then on. ' +
          'Conversations, messages and templates stay. 409 `no_connected_number` when none is connected.',
        tags,
        response: { 204: Type.Null({ description: 'Disconnected' }), ...errorResponses(401, 409, 429) },
      },
    },
    async (request, reply) => {
      await disconnectWorkspaceNumber(ctx, request.principal().workspaceId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/number/check',
    {
      schema: {
        operationId: 'checkNumber',
        summary: 'Check the number with Meta again, resuming it if paused',
        description:
          'The app\'s "Check again": Meta reads the number with its stored access token. When it answers, what ' +
          'it says of the number is kept and a paused number resumes (its held sends go out). When Meta still ' +
          "refuses, 409 `number_paused` with Meta's words and what to do, and the number stays (or becomes) " +
          'paused. 409 `no_connected_number` when none is connected; 503 when Meta could not be reached.',
        tags,
        response: { 200: CheckedAnswer, ...errorResponses(401, 409, 429, 503) },
      },
    },
    async (request) => {
      const { workspaceId } = request.principal();
      const { resumed } = await checkNumber(ctx, workspaceId);
      return { result: true as const, resumed, number: await current(workspaceId) };
    },
  );
}
