import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import type { MessageReceived } from '../messaging/events.js';
import { readSurveyAnswer } from './survey-payload.js';

/** How long after it was asked a survey takes its answer (docs/DECISIONS.md). */
export const ANSWER_DAYS = 7;

/**
 * A customer's tap on a survey's row, in the transaction storing it (subscribed to `message.received`,
 * right after the message flows): the rating is recorded once, on the survey the row names when it
 * is the contact's latest, still unanswered and asked within ANSWER_DAYS. Any tap on one of the
 * contact's surveys keeps a resolved conversation resolved (storing the message reopened it, so
 * updated_at is this transaction's now()); bot routing skips it (isSurveyAnswer), and the hours and
 * teams subscribers skip a resolved conversation. Consent keywords are never answers.
 */
export async function surveyAnswer(
  _ctx: AppContext,
  tx: Queryable,
  inbound: MessageReceived,
): Promise<undefined> {
  if (inbound.consent) return undefined;
  const answer = readSurveyAnswer(inbound.message.button_payload);
  if (!answer) return undefined;
  const p = [inbound.workspaceId, inbound.contactId, answer.surveyId];
  const { rows } = await tx.query(
    `SELECT 1 FROM satisfaction_surveys WHERE workspace_id = $1 AND id = $3 AND contact_id = $2`,
    p,
  );
  if (!rows[0]) return undefined;
  await tx.query(
    `UPDATE satisfaction_surveys SET rating = $4, answered_at = now(), answer_message_id = $5
     WHERE workspace_id = $1 AND id = $3 AND contact_id = $2 AND rating IS NULL
       AND asked_at > now() - make_interval(days => $6)
       AND id = (SELECT id FROM satisfaction_surveys WHERE workspace_id = $1 AND contact_id = $2
                 ORDER BY asked_at DESC, id DESC LIMIT 1)`,
    [...p, answer.rating, inbound.message.message_id, ANSWER_DAYS],
  );
  await tx.query(
    `UPDATE conversations SET state = 'resolved', updated_at = now()
     WHERE workspace_id = $1 AND contact_id = $2 AND state = 'open' AND updated_at = now()`,
    p.slice(0, 2),
  );
  return undefined;
}
