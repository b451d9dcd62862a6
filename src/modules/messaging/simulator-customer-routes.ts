import { Type } from 'typebox';
import { ApiError } from '../../api/errors.js';
import type { RestApp } from '../../api/rest-app.js';
import { NameText, Text } from '../../api/schema.js';
import { createTryItRateLimiter } from '../rate-limit/create-limiter.js';
import { spendPersonBudget } from '../rate-limit/person-budget.js';
import { numberOfWorkspace } from './connected-numbers.js';
import {
  type CustomerMessage,
  sendAsTestCustomer,
  testCustomerContact,
  testCustomerPhone,
} from './simulator-customer.js';
import { localSimulatorUrl, simulatorMounted } from './simulator-link.js';

const Reply = Type.Object(
  {
    id: Text({ minLength: 1, maxLength: 256 }),
    title: NameText({ minLength: 1, maxLength: 24 }),
    description: Type.Optional(Text({ maxLength: 72 })),
  },
  { additionalProperties: false },
);

const CustomerBody = Type.Object(
  {
    text: Type.Optional(Text({ minLength: 1, maxLength: 4096 })),
    button_reply: Type.Optional(Reply),
    list_reply: Type.Optional(Reply),
  },
  { additionalProperties: false },
);

/** The message from the body: exactly one of a text, a button's reply or a list row's. */
function customerMessage(body: {
  text?: string;
  button_reply?: { id: string; title: string };
  list_reply?: { id: string; title: string; description?: string };
}): CustomerMessage {
  const given = [body.text, body.button_reply, body.list_reply].filter((x) => x !== undefined).length;
  if (given !== 1) throw ApiError.validation('text', 'Send either a text, a button reply or a list reply.');
  if (body.text !== undefined) return { text: body.text };
  if (body.button_reply) return { button_reply: body.button_reply };
  return { list_reply: body.list_reply! };
}

/**
 * "Try it": a teammate writes as the simulator's test customer to the workspace's simulated number,
 * and reads that conversation through the inbox's own routes.
 */
export function registerAppSimulatorCustomerRoutes(app: RestApp): void {
  const { ctx } = app;
  const limiter = createTryItRateLimiter(ctx.config.redisUrl, ctx.log);
  app.addHook('onClose', async () => limiter.close());

  app.get('/number/simulator/customer', async (request) => {
    const s = request.session();
    const phone = testCustomerPhone(s.workspaceId, s.userId);
    const number = simulatorMounted(ctx) ? await numberOfWorkspace(ctx, ctx.db, s.workspaceId) : null;
    return {
      result: true,
      phone,
      contact_id: await testCustomerContact(ctx, s.workspaceId, phone),
      available: number !== null && number.graphBaseUrl === localSimulatorUrl(ctx),
    };
  });

  app.post(
    '/number/simulator/customer/messages',
    { schema: { body: CustomerBody } },
    async (request, reply) => {
      const s = request.session();
      await spendPersonBudget(limiter, reply, s, 'test messages');
      const sent = await sendAsTestCustomer(ctx, s.workspaceId, s.userId, customerMessage(request.body));
      return reply
        .code(201)
        .send({ result: true, phone: sent.phone, wamid: sent.wamid, contact_id: sent.contactId });
    },
  );
}
