import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import { newId } from '../../lib/ids.js';
import type { AfterCommit, MessageReceived, TeammateReplied } from '../messaging/events.js';
import { previousInbound } from '../messaging/previous-inbound.js';
import { insideHoursAt } from '../routing/business-hours-settings.js';
import { isSurveyAnswer } from '../routing/survey-payload.js';
import { answerAwaited, stopConversationBot } from './bot-conversation.js';
import { claimRank, type MessageTrigger, needsHistory, needsHours } from './message-triggers.js';
import { queueStep } from './start-runs.js';

interface Candidate {
  id: string;
  version: number;
  trigger: MessageTrigger;
  first: string;
}

/**
 * Gives an inbound message to a bot, in the transaction that stores it: consent keywords first (no
 * bot sees them; STOP ends the bot talking to the contact) and satisfaction survey taps (never a
 * bot's: routing/survey-answer.ts keeps them), then the bot awaiting an answer, then the
 * published message trigger that claims it most specifically, unless a bot already holds the
 * conversation or, for triggers that do not say `while_assigned`, a teammate does. Subscribed to
 * messaging's `message.received` (modules/subscriptions.ts); wakes the workers once that commits.
 */
export async function routeToBot(
  ctx: AppContext,
  tx: Queryable,
  inbound: MessageReceived,
): Promise<AfterCommit | undefined> {
  const started = await route(ctx, tx, inbound);
  return started ? () => ctx.queue?.wake('automation.step') : undefined;
}

async function route(ctx: AppContext, tx: Queryable, inbound: MessageReceived): Promise<boolean> {
  const { workspaceId, contactId, message } = inbound;
  if (inbound.consent === 'opted_out') {
    await stopConversationBot(ctx, tx, workspaceId, contactId, 'the contact opted out');
    return false;
  }
  if (inbound.consent || isSurveyAnswer(message.button_payload)) return false;
  if (await answerAwaited(ctx, tx, workspaceId, contactId, message)) return true;
  const candidates = await publishedTriggers(tx, workspaceId);
  if (candidates.length === 0) return false;
  const previousAt = candidates.some((c) => needsHistory(c.trigger))
    ? await previousInbound(tx, workspaceId, contactId, message.message_id)
    : null;
  const inside = candidates.some((c) => needsHours(c.trigger))
    ? await insideHoursAt(tx, workspaceId, inbound.at)
    : true;
  const claims = candidates
    .map((c) => ({ c, rank: claimRank(c.trigger, { message, at: inbound.at, previousAt, inside }) }))
    .filter((x): x is { c: Candidate; rank: number } => x.rank !== null);
  if (claims.length === 0) return false;
  const assigned = await teammateHolds(tx, workspaceId, contactId);
  let best: { c: Candidate; rank: number } | undefined;
  for (const claim of claims) {
    if (assigned && !claim.c.trigger.while_assigned) continue;
    // Candidates come oldest first, so a later one wins only by ranking higher.
    if (!best || claim.rank > best.rank) best = claim;
  }
  return best ? startBot(ctx, tx, inbound, best.c) : false;
}

async function publishedTriggers(tx: Queryable, workspaceId: string): Promise<Candidate[]> {
  const { rows } = await tx.query<Candidate>(
    `SELECT a.id, a.published_version AS version, v.definition -> 'trigger' AS trigger,
       v.definition -> 'steps' -> 0 ->> 'id' AS first
     FROM automations a
     JOIN automation_versions v
       ON v.workspace_id = a.workspace_id AND v.automation_id = a.id AND v.version = a.published_version
     WHERE a.workspace_id = $1 AND a.trigger_type = 'message_received' AND a.published_version IS NOT NULL
       AND a.archived_at IS NULL
     ORDER BY a.created_at, a.id`,
    [workspaceId],
  );
  return rows;
}

/**
 * Whether the contact is talking to a teammate: the conversation is assigned and was not resolved
 * until this message (storing it reopened a resolved one, stamping updated_at with this transaction's now()).
 */
async function teammateHolds(tx: Queryable, workspaceId: string, contactId: string): Promise<boolean> {
  const { rows } = await tx.query(
    `SELECT 1 FROM conversations
     WHERE workspace_id = $1 AND contact_id = $2 AND assignee_id IS NOT NULL AND state <> 'resolved'
       AND NOT (state = 'open' AND updated_at = now())`,
    [workspaceId, contactId],
  );
  return rows.length > 0;
}

/** The run, holding the conversation, and its first step's job; nothing when another bot holds it. */
async function startBot(ctx: AppContext, tx: Queryable, inbound: MessageReceived, bot: Candidate) {
  const runId = newId('run');
  const triggerData = { event: { name: 'message.received', properties: inbound.message } };
  const { rows } = await tx.query(
    `INSERT INTO runs (workspace_id, id, automation_id, version, contact_id, trigger_data, status, current_step,
       holds_conversation)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, 'running', $7, true)
     ON CONFLICT (workspace_id, contact_id) WHERE holds_conversation AND status IN ('running', 'waiting')
     DO NOTHING
     RETURNING id`,
    [
      inbound.workspaceId,
      runId,
      bot.id,
      bot.version,
      inbound.contactId,
      JSON.stringify(triggerData),
      bot.first,
    ],
  );
  if (!rows[0]) return false;
  await queueStep(ctx, tx, inbound.workspaceId, runId, bot.first);
  return true;
}

/**
 * A teammate's reply in the conversation stops the bot holding it, unless its automation says
 * `on_teammate_reply: "continue"`: from then on the team answers.
 */
export async function stopBotForTeammate(
  ctx: AppContext,
  tx: Queryable,
  reply: TeammateReplied,
): Promise<void> {
  await stopConversationBot(ctx, tx, reply.workspaceId, reply.contactId, 'a teammate replied', {
    teammate: true,
  });
}
