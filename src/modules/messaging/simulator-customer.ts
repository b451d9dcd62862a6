import { createHash } from 'node:crypto';
import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import { numberOfWorkspace } from './connected-numbers.js';
import { localSimulatorUrl, simulatorMounted } from './simulator-link.js';

/** What the test customer sends: a text, or a tap on a reply button or a list row of the bot's message. */
export type CustomerMessage =
  | { text: string }
  | { button_reply: { id: string; title: string } }
  | { list_reply: { id: string; title: string; description?: string } };

// Area codes with a 555 exchange libphonenumber takes as valid (+1 555 ... is not one, and the bot's
// replies to such a number were refused as "not a valid phone number").
const AREA_CODES = ['415', '628', '650', '510', '408', '925', '707', '831', '209', '916'];

/**
 * The simulator's test customer of one teammate in one workspace: +1, an area code, 555 and four
 * digits, from a hash, the same every time, so the conversation goes on across visits and teammates
 * do not share one.
 */
export function testCustomerPhone(workspaceId: string, userId: string): string {
  const n = createHash('sha256').update(`${workspaceId}:${userId}`).digest().readUInt32BE(0) % 100_000;
  return `1${AREA_CODES[Math.floor(n / 10_000)]}555${String(n % 10_000).padStart(4, '0')}`;
}

/** The contact the test customer is in this workspace, once it has written. */
export async function testCustomerContact(ctx: AppContext, workspaceId: string, phone: string) {
  const { rows } = await ctx.db.query<{ id: string }>(
    'SELECT id FROM contacts WHERE workspace_id = $1 AND phone = $2',
    [workspaceId, phone],
  );
  return rows[0]?.id ?? null;
}

/** The workspace's number, when it is connected to the simulator mounted on this server. */
async function simulatedNumber(ctx: AppContext, workspaceId: string) {
  const number = await numberOfWorkspace(ctx, ctx.db, workspaceId);
  if (!number)
    throw new ApiError(
      'no_connected_number',
      'This workspace has no connected number: connect the built-in simulator under Settings › Connected number',
    );
  if (!simulatorMounted(ctx) || number.graphBaseUrl !== localSimulatorUrl(ctx))
    throw new ApiError(
      'conflict',
      "This workspace's number is a real WhatsApp number: try the bot from a phone instead",
    );
  return number;
}

/**
 * The test customer writes to the workspace's simulated number: the simulator delivers it as Meta's
 * signed webhook, so it is received, stored and answered as a real customer's message is.
 */
export async function sendAsTestCustomer(
  ctx: AppContext,
  workspaceId: string,
  userId: string,
  message: CustomerMessage,
): Promise<{ phone: string; wamid: string; contactId: string | null }> {
  const number = await simulatedNumber(ctx, workspaceId);
  const phone = testCustomerPhone(workspaceId, userId);
  const body =
    'text' in message
      ? { text: message.text }
      : {
          message: {
            type: 'interactive',
            interactive:
              'button_reply' in message
                ? { type: 'button_reply', button_reply: message.button_reply }
                : { type: 'list_reply', list_reply: message.list_reply },
          },
        };
  let res: Response;
  try {
    res = await fetch(`${localSimulatorUrl(ctx)}/inbound`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${ctx.config.simulatorToken ?? ''}`,
      },
      body: JSON.stringify({
        ...body,
        from: phone,
        phone_number_id: number.phoneNumberId,
        name: 'Test customer',
      }),
      signal: AbortSignal.timeout(10_000),
    });
  } catch {
    throw new ApiError('unavailable', 'The simulator did not answer; try again');
  }
  if (!res.ok) throw new ApiError('unavailable', `The simulator refused the message (${res.status})`);
  const { wamid } = (await res.json()) as { wamid: string };
  return { phone, wamid, contactId: await testCustomerContact(ctx, workspaceId, phone) };
}
