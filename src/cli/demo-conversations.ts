import type { AppContext } from '../context.js';
import type { ConnectedNumber } from '../modules/messaging/connected-numbers.js';
import { receiveWebhook } from '../modules/messaging/receive-webhook.js';

const CUSTOMERS = [
  { wa_id: '919876543210', name: 'Asha', text: 'Hi! Is the summer sale still on?' },
  { wa_id: '919812345678', name: 'Ravi', text: 'Where is my order?' },
];

/**
 * Two customers writing in, received as Meta's webhook is (contacts, conversations, open windows), so
 * the demo's inbox and contacts are not empty. Returns the customers' numbers.
 */
export async function seedDemoConversations(ctx: AppContext, number: ConnectedNumber): Promise<string[]> {
  const now = Math.floor(Date.now() / 1000);
  const entries = CUSTOMERS.map((c, i) => ({
    id: number.businessAccountId,
    changes: [
      {
        field: 'messages',
        value: {
          messaging_product: 'whatsapp',
          metadata: { display_phone_number: number.displayPhone, phone_number_id: number.phoneNumberId },
          contacts: [{ profile: { name: c.name }, wa_id: c.wa_id }],
          messages: [
            {
              from: c.wa_id,
              id: `wamid.demo.${number.id}.${i}`,
              timestamp: String(now - 60 * (CUSTOMERS.length - i)),
              type: 'text',
              text: { body: c.text },
            },
          ],
        },
      },
    ],
  }));
  await receiveWebhook(ctx, number, entries, { id: `demo-${number.id}`, log: ctx.log });
  return CUSTOMERS.map((c) => `+${c.wa_id}`);
}
