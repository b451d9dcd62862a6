import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import { OPTED_OUT_CODE } from './cloud-api/error-code.js';
import type { OutboundMessage } from './cloud-api/send-body.js';
import { failMessage } from './status.js';

// A message Parley does not send for the contact's opt-out is failed with Meta's code, as Meta would fail it.
export { OPTED_OUT_CODE };
export const OPTED_OUT_REASON =
  'The contact opted out of marketing messages before this MARKETING template went out: it was not sent';

/**
 * A MARKETING template to a contact who opted out is refused (409 `contact_opted_out`). Utility and
 * authentication templates, and replies inside the window, stay allowed as Meta's policy allows them.
 */
export async function refuseMarketingToOptedOut(
  db: Queryable,
  workspaceId: string,
  phone: string,
  category: string,
): Promise<void> {
  if (category.toUpperCase() !== 'MARKETING') return;
  const { rows } = await db.query(
    'SELECT 1 FROM contacts WHERE workspace_id = $1 AND phone = $2 AND opted_out',
    [workspaceId, phone],
  );
  if (rows[0]) {
    throw new ApiError(
      'contact_opted_out',
      'The contact opted out of marketing messages: a MARKETING template cannot be sent to them (utility and authentication templates can)',
    );
  }
}

/**
 * The same rule at the moment of sending: a stored message waits for its slot, a job, the sweep or a
 * resend, and the contact may opt out meanwhile. Checked before every attempt at the network; a
 * MARKETING template to an opted-out contact is failed with OPTED_OUT_CODE instead (its broadcast
 * recipient is skipped). One round trip for a template (two unique-index probes: the contact by
 * phone, the template by name), none for other messages.
 */
export async function failIfOptedOut(
  ctx: AppContext,
  workspaceId: string,
  id: string,
  message: OutboundMessage,
): Promise<boolean> {
  if (message.type !== 'template') return false;
  const { rows } = await ctx.db.query(
    `SELECT 1 FROM contacts c
     WHERE c.workspace_id = $1 AND c.phone = $2 AND c.opted_out
       AND EXISTS (SELECT 1 FROM templates t WHERE t.workspace_id = $1 AND t.name = $3 AND t.language = $4
                   AND upper(t.category) = 'MARKETING')`,
    [workspaceId, message.to, message.name, message.language],
  );
  if (!rows[0]) return false;
  await failMessage(ctx, workspaceId, id, { code: OPTED_OUT_CODE, reason: OPTED_OUT_REASON }, false);
  return true;
}
