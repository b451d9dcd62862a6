import { ApiError } from '../../api/errors.js';
import type { AppContext } from '../../context.js';
import { type Actor, recordAudit } from '../audit/record-audit.js';
import { rotateSequenceSecret } from './intake.js';

/**
 * A new secret for a sequence started by a webhook (the old one stops working at once), audited by
 * the name of what changed, never the secret. 409 for a flow or a sequence without a webhook.
 */
export async function replaceSequenceSecret(
  ctx: AppContext,
  workspaceId: string,
  automation: { id: string; kind: 'flow' | 'sequence' },
  actor: Actor,
): Promise<string> {
  const secret = await rotateSequenceSecret(ctx, workspaceId, automation.id);
  if (!secret) throw new ApiError('conflict', 'Only a sequence started by a webhook has a secret');
  await recordAudit(ctx.db, {
    workspaceId,
    actor,
    action: 'update',
    entityType: automation.kind,
    entityId: automation.id,
    changes: { fields: ['secret'] },
  });
  return secret;
}
