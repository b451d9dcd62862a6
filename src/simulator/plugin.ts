import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { countVariables } from '../modules/templates/variables.js';
import { simulatorGuard } from './auth.js';
import { graphError } from './graph-error.js';
import { type SimMessage, type SimNumber, SimState, type SimTemplate, waIdOf } from './state.js';
import { templateRoutes } from './templates.js';
import { deliver, deliverRetrying, inboundPayload, statusPayload } from './webhooks.js';

interface SendBody {
  messaging_product?: string;
  to?: string;
  type?: string;
  template?: {
    name?: string;
    language?: { code?: string };
    components?: { type: string; parameters?: unknown[] }[];
  };
  text?: { body?: string };
  biz_opaque_callback_data?: string;
}

export interface SimulatorOptions {
  state?: SimState;
  /** What the control routes take as `Authorization: Bearer`. */
  operatorToken: string;
  /** Parley's own URL: numbers' webhooks may only go to its receiver, /api/webhooks/whatsapp/:id. */
  receiverBase: string;
}

/**
 * The WhatsApp Cloud API simulator: the Graph API subset Parley uses (send, list and create
 * templates, signed webhooks back), plus control endpoints for tests and demos. Mounted under /_sim
 * in embedded mode, or served alone by `parley simulator`.
 */
export async function simulator(app: FastifyInstance, opts: SimulatorOptions): Promise<void> {
  const state = opts.state ?? new SimState();
  app.addHook('onRequest', simulatorGuard(state, opts.operatorToken));

  app.post<{ Params: { version: string; phoneNumberId: string }; Body: SendBody }>(
    '/:version/:phoneNumberId/messages',
    { config: { graph: true } },
    async (request, reply) => {
      const number = state.numbers.get(request.params.phoneNumberId)!;
      const f = state.faults;
      if (f.latencyMs) await sleep(f.latencyMs);
      const to = String(request.body?.to ?? '').replace(/\D/g, '');
      const refuse = (status: number, code: number, message: string, details?: string) => {
        state.attempts.push({ at: state.now(), to, code });
        return graphError(reply, status, code, message, details);
      };
      if (Math.random() < f.timeoutRate) {
        // Held, then dropped unsent: the sender has long given up waiting.
        await sleep(120_000);
        return refuse(503, 2, 'Service temporarily unavailable');
      }
      if (f.failNext > 0) {
        f.failNext--;
        return refuse(f.failNextCode >= 500 ? 500 : 400, f.failNextCode, 'Simulated failure');
      }
      if (Math.random() < f.serverErrorRate) return refuse(500, 1, 'An unknown error occurred');
      if (
        Math.random() < f.throughputErrorRate ||
        (f.throughputPerSecond > 0 && state.recentSends(number.phoneNumberId, 1000) >= f.throughputPerSecond)
      ) {
        return refuse(400, 130429, 'Rate limit hit', 'Cloud API message throughput has been reached.');
      }
      if (
        f.pairRateLimitMs > 0 &&
        state.recentSends(number.phoneNumberId, f.pairRateLimitMs, waIdOf(to)) > 0
      ) {
        return refuse(
          400,
          131056,
          '(Business Account, Consumer Account) pair rate limit hit',
          'Too many messages sent from the sender phone number to the same recipient phone number in a short period of time.',
        );
      }
      const body = request.body ?? {};
      if (body.messaging_product !== 'whatsapp' || !to) return refuse(400, 100, 'Invalid parameter');
      if (body.type === 'template') {
        const templates = state.templates.get(number.businessAccountId) ?? [];
        const t = templates.find(
          (x) => x.name === body.template?.name && x.language === body.template?.language?.code,
        );
        if (t?.status !== 'APPROVED') {
          return refuse(
            404,
            132001,
            'Template name does not exist in the translation',
            `template name (${body.template?.name}) does not exist in ${body.template?.language?.code}`,
          );
        }
        const params = body.template?.components?.find((c) => c.type === 'body')?.parameters ?? [];
        if (params.length !== countVariables(t.body)) {
          return refuse(400, 132000, 'Number of parameters does not match the expected number of params');
        }
      } else if (body.type === 'text') {
        if (!body.text?.body) return refuse(400, 100, 'Invalid parameter', 'text.body is required');
        if (!state.windowOpen(number.phoneNumberId, to)) {
          return refuse(
            400,
            131047,
            'Re-engagement message',
            'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
          );
        }
      } else {
        return refuse(400, 100, 'Invalid parameter', `unsupported type ${body.type}`);
      }
      const message: SimMessage = {
        wamid: SimState.wamid(),
        phoneNumberId: number.phoneNumberId,
        to,
        waId: waIdOf(to),
        type: body.type,
        payload: body,
        callbackData: body.biz_opaque_callback_data,
        receivedAt: state.now(),
        status: 'accepted',
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

  /** sent → delivered → read, each a signed webhook after its delay (a delay of -1 stops there). */
  async function progress(number: SimNumber, message: SimMessage): Promise<void> {
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
  });

  templateRoutes(app, state);

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
      const id =
        typeof number.webhookUrl === 'string' && number.webhookUrl.startsWith(receiver)
          ? number.webhookUrl.slice(receiver.length)
          : '';
      if (!/^[\w-]{1,100}$/.test(id)) {
        return reply
          .code(400)
          .send({ error: `webhookUrl must be Parley's webhook receiver, ${receiver}<number id>` });
      }
      state.numbers.set(number.phoneNumberId, {
        phoneNumberId: number.phoneNumberId,
        businessAccountId: number.businessAccountId,
        displayPhone: number.displayPhone,
        accessToken: number.accessToken,
        appSecret: number.appSecret,
        webhookUrl: receiver + id,
      });
      state.templates.set(
        number.businessAccountId,
        templates.map((t, i) => ({ ...t, id: `${number.businessAccountId}_${i}` })),
      );
      return { ok: true };
    },
  );

  app.post<{ Body: { from: string; text: string; phone_number_id?: string; name?: string } }>(
    '/inbound',
    async (request, reply) => {
      const number = request.body.phone_number_id
        ? state.numbers.get(request.body.phone_number_id)
        : [...state.numbers.values()][0];
      if (!number) return reply.code(404).send({ error: 'no such number' });
      const from = String(request.body.from).replace(/\D/g, '');
      const message = {
        from,
        id: SimState.wamid(),
        timestamp: String(Math.floor(state.now() / 1000)),
        type: 'text',
        text: { body: String(request.body.text) },
      };
      state.lastInbound.set(`${number.phoneNumberId}:${waIdOf(from)}`, state.now());
      const status = await deliver(number, inboundPayload(number, message, request.body.name));
      return { wamid: message.id, delivered_status: status };
    },
  );

  app.post<{ Body: { wamid: string; status: SimMessage['status']; error_code?: number } }>(
    '/status',
    async (request, reply) => {
      const message = state.messages.find((m) => m.wamid === request.body.wamid);
      const number = message && state.numbers.get(message.phoneNumberId);
      if (!message || !number) return reply.code(404).send({ error: 'no such message' });
      const status = statusOf(message, request.body.status);
      const errors = request.body.error_code
        ? [{ code: request.body.error_code, title: 'Simulated failure' }]
        : undefined;
      return {
        delivered_status: await deliver(
          number,
          statusPayload(number, { ...status, ...(errors ? { errors } : {}) }),
        ),
      };
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
