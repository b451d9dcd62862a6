import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { WebhookMessage } from '../modules/messaging/cloud-api/types.js';
import { simulatorGuard } from './auth.js';
import { graphError, httpStatusOf, statusError } from './graph-error.js';
import { keepMedia, mediaInfo, mediaRoutes, namedMedia, noSuchMedia } from './media.js';
import { numberUpdateRoutes } from './number-updates.js';
import { billingOf, conversationId, pricingOf } from './pricing.js';
import { checkRichSend } from './rich-send-check.js';
import {
  componentsOf,
  type SimMessage,
  type SimNumber,
  SimState,
  type SimTemplate,
  waIdOf,
} from './state.js';
import { checkTemplateSend, type SentComponent } from './template-send-check.js';
import { templateId, templateRoutes } from './templates.js';
import { uploadRoutes, uploadStatus } from './uploads.js';
import {
  deliver,
  deliverRetrying,
  inboundPayload,
  statusPayload,
  userPreferencesPayload,
} from './webhooks.js';

interface SendBody {
  messaging_product?: string;
  to?: string;
  type?: string;
  template?: {
    name?: string;
    language?: { code?: string };
    components?: SentComponent[];
  };
  text?: { body?: string };
  biz_opaque_callback_data?: string;
  /** Mark as read: `{messaging_product, status: "read", message_id}`. */
  status?: string;
  message_id?: string;
}

const MEDIA_TYPES = new Set(['image', 'video', 'audio', 'document', 'sticker']);

export interface SimulatorOptions {
  state?: SimState;
  /** What the control routes take as `Authorization: Bearer`. */
  operatorToken: string;
  /** Parley's own URL: numbers' webhooks may only go to its receiver, /api/webhooks/whatsapp/:id. */
  receiverBase: string;
}

/**
 * The WhatsApp Cloud API simulator: the Graph API subset Parley uses (send, mark read, list and
 * create templates, signed webhooks back), plus control endpoints for tests and demos. Mounted under
 * /_sim in embedded mode, or served alone by `parley simulator`.
 */
export async function simulator(app: FastifyInstance, opts: SimulatorOptions): Promise<void> {
  const state = opts.state ?? new SimState();
  app.addHook('onRequest', simulatorGuard(state, opts.operatorToken));

  app.post<{ Params: { version: string; phoneNumberId: string }; Body: SendBody }>(
    '/:version/:phoneNumberId/messages',
    { config: { graph: true } },
    async (request, reply) => {
      const number = state.numbers.get(request.params.phoneNumberId)!;
      const body = request.body ?? {};
      if (body.status === 'read') return markRead(number, body, reply);
      const f = state.faults;
      if (f.latencyMs) await sleep(f.latencyMs);
      const to = String(body.to ?? '').replace(/\D/g, '');
      const refuse = (status: number, code: number, details?: string) => {
        state.attempts.push({ at: state.now(), to, code });
        return graphError(reply, status, code, details);
      };
      if (Math.random() < f.timeoutRate) {
        // Held, then dropped unsent: the sender has long given up waiting.
        await sleep(120_000);
        return refuse(503, 2);
      }
      if (f.failNext > 0) {
        f.failNext--;
        return refuse(httpStatusOf(f.failNextCode), f.failNextCode);
      }
      if (Math.random() < f.serverErrorRate) return refuse(500, 1);
      if (
        Math.random() < f.throughputErrorRate ||
        (f.throughputPerSecond > 0 && state.recentSends(number.phoneNumberId, 1000) >= f.throughputPerSecond)
      ) {
        return refuse(400, 130429);
      }
      if (
        f.pairRateLimitMs > 0 &&
        state.recentSends(number.phoneNumberId, f.pairRateLimitMs, waIdOf(to)) > 0
      ) {
        return refuse(400, 131056);
      }
      if (body.messaging_product !== 'whatsapp' || !to) return refuse(400, 100);
      const windowOpen = state.windowOpen(number.phoneNumberId, to);
      let category: string | null = null;
      let failsWith: number | undefined;
      if (body.type === 'template') {
        const templates = state.templates.get(number.businessAccountId) ?? [];
        const t = templates.find(
          (x) => x.name === body.template?.name && x.language === body.template?.language?.code,
        );
        // Meta's answers for a template paused for low quality, and one disabled after repeated pauses.
        if (t?.status === 'PAUSED') return refuse(400, 132015);
        if (t?.status === 'DISABLED') return refuse(400, 132016);
        if (t?.status !== 'APPROVED') {
          return refuse(
            404,
            132001,
            `template name (${body.template?.name}) does not exist in ${body.template?.language?.code}`,
          );
        }
        const refused = checkTemplateSend(
          {
            category: t.category,
            parameterFormat: t.parameterFormat ?? 'POSITIONAL',
            components: componentsOf(t),
          },
          body.template?.components ?? [],
        );
        if (refused) return refuse(400, refused.code, refused.details);
        category = t.category;
      } else if (body.type === 'text') {
        if (!body.text?.body) return refuse(400, 100, 'text.body is required');
        // Meta accepts free text outside the customer service window and fails it afterwards, with
        // a `failed` status webhook carrying 131047; the send itself answers 200 with a wamid.
        if (!windowOpen) failsWith = 131047;
      } else {
        const problem = checkRichSend(String(body.type), body as Record<string, unknown>);
        if (problem !== null) return refuse(400, 100, problem ?? `unsupported type ${body.type}`);
        // Like free text: accepted, then failed by a status webhook when the window is closed.
        if (!windowOpen) failsWith = 131047;
      }
      const message: SimMessage = {
        wamid: SimState.wamid(),
        phoneNumberId: number.phoneNumberId,
        to,
        waId: waIdOf(to),
        type: String(body.type),
        payload: body,
        callbackData: body.biz_opaque_callback_data,
        receivedAt: state.now(),
        status: 'accepted',
        pricing: pricingOf(category, windowOpen),
        conversationId: conversationId(),
        failsWith,
      };
      state.messages.push(message);
      state.attempts.push({ at: message.receivedAt, to, code: 0 });
      void progress(number, message);
      if (Math.random() < f.lostAnswerRate) {
        // Sent, but the answer never reaches the sender: only the status webhooks tell it.
        reply.hijack();
        request.raw.socket.destroy();
        return;
      }
      return {
        messaging_product: 'whatsapp',
        contacts: [{ input: body.to, wa_id: message.waId }],
        messages: [{ id: message.wamid, message_status: 'accepted' }],
      };
    },
  );

  /** Mark as read: Meta answers `{success: true}` for a message the number received. */
  function markRead(number: SimNumber, body: SendBody, reply: FastifyReply) {
    if (body.messaging_product !== 'whatsapp' || typeof body.message_id !== 'string') {
      return graphError(reply, 400, 100, 'message_id is required');
    }
    const read = state.inbound.get(`${number.phoneNumberId}:${body.message_id}`);
    if (!read) {
      return graphError(
        reply,
        400,
        100,
        `message_id ${body.message_id} is not a message this number received`,
      );
    }
    read.readMarks++;
    // As Meta: the message and every earlier one the same customer sent to the number (kept in order).
    for (const m of state.inbound.values()) {
      if (m.phoneNumberId === read.phoneNumberId && m.from === read.from) m.readAt ??= state.now();
      if (m === read) break;
    }
    return { success: true };
  }

  /**
   * sent → delivered → read, each a signed webhook after its delay (a delay of -1 stops there); a
   * message the network fails gets one `failed` status instead, after the first delay.
   */
  async function progress(number: SimNumber, message: SimMessage): Promise<void> {
    if (message.failsWith !== undefined) {
      const delay = state.statusDelaysMs[0]!;
      if (delay < 0) return;
      await sleep(delay);
      message.status = 'failed';
      await deliverRetrying(number, statusPayload(number, failedStatus(message, message.failsWith)));
      return;
    }
    const steps = ['sent', 'delivered', 'read'] as const;
    for (const [i, status] of steps.entries()) {
      const delay = state.statusDelaysMs[i]!;
      if (delay < 0) return;
      await sleep(delay);
      message.status = status;
      await deliverRetrying(number, statusPayload(number, statusOf(message, status)));
    }
  }

  const statusOf = (m: SimMessage, status: SimMessage['status']) => ({
    id: m.wamid,
    status: status as 'sent',
    timestamp: String(Math.floor(state.now() / 1000)),
    recipient_id: m.waId,
    ...(m.callbackData ? { biz_opaque_callback_data: m.callbackData } : {}),
    ...billingOf(m, status, state.now()),
  });

  const failedStatus = (m: SimMessage, code: number) => ({
    ...statusOf(m, 'failed'),
    status: 'failed' as const,
    errors: [statusError(code)],
  });

  templateRoutes(app, state);

  await mediaRoutes(app, state);
  await uploadRoutes(app, state);

  // What Parley reads when a number is connected: the token must reach the number. The same path
  // names a media id (`GET /{media-id}`): its URL, type, hash and size.
  app.get<{ Params: { version: string; phoneNumberId: string }; Querystring: { phone_number_id?: string } }>(
    '/:version/:phoneNumberId',
    { config: { graph: true } },
    async (request, reply) => {
      const id = request.params.phoneNumberId;
      const upload = state.uploads.get(id);
      if (upload) return uploadStatus(upload);
      if (state.media.has(id)) {
        const media = namedMedia(state, id, request.query.phone_number_id);
        return media ? mediaInfo(request, app.prefix, media) : noSuchMedia(reply, id);
      }
      const number = state.numbers.get(id)!;
      return {
        display_phone_number: number.displayPhone,
        verified_name: number.verifiedName ?? 'Parley Simulator',
        quality_rating: number.qualityRating ?? 'GREEN',
        messaging_limit_tier: number.messagingLimitTier ?? 'TIER_1K',
        id: number.phoneNumberId,
      };
    },
  );

  // Subscribing the app to the account's webhooks: the simulator posts them anyway.
  app.post<{ Params: { version: string; wabaId: string } }>(
    '/:version/:wabaId/subscribed_apps',
    { config: { graph: true } },
    async () => ({ success: true }),
  );

  // Control endpoints (not part of the Graph API).
  const receiver = `${opts.receiverBase}/api/webhooks/whatsapp/`;
  app.post<{ Body: SimNumber & { templates?: Omit<SimTemplate, 'id'>[] } }>(
    '/numbers',
    async (request, reply) => {
      const { templates = [], ...number } = request.body ?? {};
      const fields = [
        'phoneNumberId',
        'businessAccountId',
        'displayPhone',
        'accessToken',
        'appSecret',
      ] as const;
      const missing = fields.find((f) => typeof number[f] !== 'string' || !number[f]);
      if (missing) return reply.code(400).send({ error: `${missing} is required` });
      // Webhooks go to Parley's own receiver only: the simulator posts where it is told, signed.
      // The app-level receiver (routing by phone_number_id), or the number's own URL.
      const appLevel = number.webhookUrl === receiver.slice(0, -1);
      const id =
        typeof number.webhookUrl === 'string' && number.webhookUrl.startsWith(receiver)
          ? number.webhookUrl.slice(receiver.length)
          : '';
      if (!appLevel && !/^[\w-]{1,100}$/.test(id)) {
        return reply.code(400).send({
          error: `webhookUrl must be Parley's webhook receiver, ${receiver.slice(0, -1)} or ${receiver}<number id>`,
        });
      }
      state.numbers.set(number.phoneNumberId, {
        phoneNumberId: number.phoneNumberId,
        businessAccountId: number.businessAccountId,
        displayPhone: number.displayPhone,
        accessToken: number.accessToken,
        appSecret: number.appSecret,
        webhookUrl: appLevel ? receiver.slice(0, -1) : receiver + id,
        ...(typeof number.qualityRating === 'string' ? { qualityRating: number.qualityRating } : {}),
        ...(typeof number.messagingLimitTier === 'string'
          ? { messagingLimitTier: number.messagingLimitTier }
          : {}),
      });
      // The account's templates stay as the network holds them (given by hand, created, reviewed): a
      // template given here is added only when the account has none of that name and language.
      const held = state.templates.get(number.businessAccountId) ?? [];
      const added = templates.filter(
        (t) => !held.some((h) => h.name === t.name && h.language === t.language),
      );
      state.templates.set(number.businessAccountId, [
        ...held,
        ...added.map((t) => ({ ...t, id: templateId() })),
      ]);
      return { ok: true };
    },
  );

  // Meta moves a number between tiers as it sends; here a test or the operator says which.
  app.post<{ Params: { phoneNumberId: string }; Body: { messaging_limit_tier?: unknown } }>(
    '/numbers/:phoneNumberId/tier',
    async (request, reply) => {
      const number = state.numbers.get(request.params.phoneNumberId);
      if (!number) return reply.code(404).send({ error: 'no such number' });
      const tier = request.body?.messaging_limit_tier;
      if (typeof tier !== 'string' || !/^TIER_(\d+K?|UNLIMITED)$/.test(tier))
        return reply.code(400).send({
          error: 'messaging_limit_tier is one of TIER_250, TIER_1K, TIER_10K, TIER_100K, TIER_UNLIMITED',
        });
      number.messagingLimitTier = tier;
      return { phone_number_id: number.phoneNumberId, messaging_limit_tier: tier };
    },
  );

  numberUpdateRoutes(app, state);

  app.post<{
    Body: {
      from: string;
      text?: string;
      message?: Record<string, unknown>;
      phone_number_id?: string;
      name?: string;
      /** A file the customer sends with a media message: kept by the network, its id in the message. */
      media?: { mime_type?: string; data_base64?: string };
    };
  }>('/inbound', async (request, reply) => {
    const number = request.body.phone_number_id
      ? state.numbers.get(request.body.phone_number_id)
      : [...state.numbers.values()][0];
    if (!number) return reply.code(404).send({ error: 'no such number' });
    const from = String(request.body.from).replace(/\D/g, '');
    const message = {
      from,
      id: SimState.wamid(),
      timestamp: String(Math.floor(state.now() / 1000)),
      // Any other type Meta documents, given as the message's own fields: {type, button: {...}, context}.
      ...(request.body.message && typeof request.body.message.type === 'string'
        ? request.body.message
        : { type: 'text', text: { body: String(request.body.text) } }),
    } as WebhookMessage;
    const file = request.body.media;
    if (file) {
      const kind = message.type as string;
      const held = (message as unknown as Record<string, unknown>)[kind];
      if (
        !MEDIA_TYPES.has(kind) ||
        typeof file.mime_type !== 'string' ||
        typeof file.data_base64 !== 'string'
      )
        return reply.code(400).send({
          error: 'media needs an image, video, audio, document or sticker message, mime_type and data_base64',
        });
      const kept = keepMedia(
        state,
        number.phoneNumberId,
        file.mime_type,
        Buffer.from(file.data_base64, 'base64'),
      );
      Object.assign(message, {
        [kind]: {
          ...(typeof held === 'object' ? held : {}),
          id: kept.id,
          mime_type: kept.mimeType,
          sha256: kept.sha256,
        },
      });
    }
    state.lastInbound.set(`${number.phoneNumberId}:${waIdOf(from)}`, state.now());
    state.inbound.set(`${number.phoneNumberId}:${message.id}`, {
      wamid: message.id,
      phoneNumberId: number.phoneNumberId,
      from,
      type: message.type,
      receivedAt: state.now(),
      readAt: null,
      readMarks: 0,
    });
    const status = await deliver(number, inboundPayload(number, message, request.body.name));
    return { wamid: message.id, delivered_status: status };
  });

  app.post<{ Body: { wa_id?: unknown; value?: unknown; phone_number_id?: string } }>(
    '/user-preferences',
    async (request, reply) => {
      const { wa_id, value, phone_number_id } = request.body ?? {};
      const number = phone_number_id ? state.numbers.get(phone_number_id) : [...state.numbers.values()][0];
      if (!number) return reply.code(404).send({ error: 'no such number' });
      const waId = String(wa_id ?? '').replace(/\D/g, '');
      if (!waId || (value !== 'stop' && value !== 'resume'))
        return reply.code(400).send({ error: 'wa_id (digits) and value (stop or resume) are required' });
      const body = userPreferencesPayload(number, waIdOf(waId), value, state.now());
      return { delivered_status: await deliver(number, body) };
    },
  );

  app.post<{ Body: { wamid: string; status: SimMessage['status']; error_code?: number } }>(
    '/status',
    async (request, reply) => {
      const message = state.messages.find((m) => m.wamid === request.body.wamid);
      const number = message && state.numbers.get(message.phoneNumberId);
      if (!message || !number) return reply.code(404).send({ error: 'no such message' });
      const { status: name, error_code } = request.body;
      const status =
        name === 'failed' ? failedStatus(message, error_code ?? 131026) : statusOf(message, name);
      return { delivered_status: await deliver(number, statusPayload(number, status)) };
    },
  );

  app.get<{ Querystring: { to?: string; phone_number_id?: string } }>('/messages', async (request) => {
    const to = request.query.to?.replace(/\D/g, '');
    const from = request.query.phone_number_id;
    return {
      messages: state.messages
        .filter((m) => (!to || m.to === to || m.waId === to) && (!from || m.phoneNumberId === from))
        .reverse(),
    };
  });

  app.get<{ Querystring: { from?: string; phone_number_id?: string } }>('/inbound', async (request) => {
    const from = request.query.from?.replace(/\D/g, '');
    const to = request.query.phone_number_id;
    return {
      messages: [...state.inbound.values()]
        .filter((m) => (!from || m.from === from) && (!to || m.phoneNumberId === to))
        .reverse(),
    };
  });

  app.post<{
    Body: Partial<SimState['faults']> & {
      status_delays_ms?: [number, number, number];
      advance_clock_ms?: number;
    };
  }>('/control', async (request) => {
    const { status_delays_ms, advance_clock_ms, ...faults } = request.body ?? {};
    state.faults = { ...state.faults, ...faults };
    if (status_delays_ms) state.statusDelaysMs = status_delays_ms;
    if (advance_clock_ms) state.clockOffsetMs += advance_clock_ms;
    return {
      faults: state.faults,
      status_delays_ms: state.statusDelaysMs,
      clock_offset_ms: state.clockOffsetMs,
    };
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    simState: SimState;
  }
}
