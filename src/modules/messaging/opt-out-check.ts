import type { Queryable } from '../../db/db.js';
import { ApiError } from '../../http/errors.js';

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
