import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import { newId } from '../../lib/ids.js';
import type { AfterCommit, ConversationChanged } from '../messaging/events.js';
import type { SendMessageBody } from '../messaging/schemas.js';
import { sendMessage } from '../messaging/send-message.js';
import { surveyRowId } from './survey-payload.js';

const RATINGS = ['Very poor', 'Poor', 'Okay', 'Good', 'Excellent'];

/** The survey as Meta's interactive list: five rows, 1 to 5 (reply buttons stop at three). */
function surveyList(surveyId: string, question: string): NonNullable<SendMessageBody['interactive']> {
  return {
    type: 'list',
    body: { text: question },
    action: {
      button: 'Rate us',
      sections: [
        {
          title: 'Your rating',
          rows: RATINGS.map((label, i) => ({
            id: surveyRowId(surveyId, i + 1),
            title: `${i + 1} – ${label}`,
          })),
        },
      ],
    },
  };
}

interface Asking {
  id: string;
  phone: string;
  question: string;
}

/**
 * A conversation just moved to resolved (by anyone): with the survey on, the contact not opted out and
 * their 24-hour window open, a survey row is made in the change's transaction, holding the teammate
 * assigned at the resolve, and the list is sent once that commits (keyed by the survey, so it goes
 * once). Not again while the customer has written nothing since the last survey was asked or
 * answered: resolving, reopening and resolving again asks once. Subscribed to `conversation.changed`.
 */
export async function askSatisfaction(
  ctx: AppContext,
  tx: Queryable,
  change: ConversationChanged,
): Promise<AfterCommit | undefined> {
  if (change.state !== 'resolved' || change.was.state === 'resolved') return undefined;
  const { workspaceId, contactId } = change;
  const { rows } = await tx.query<Asking>(
    `WITH asking AS (
       SELECT c.id, c.phone, s.question
       FROM satisfaction_settings s
       JOIN contacts c ON c.workspace_id = s.workspace_id AND c.id = $2
       JOIN conversations v ON v.workspace_id = c.workspace_id AND v.contact_id = c.id
       WHERE s.workspace_id = $1 AND s.enabled AND NOT c.opted_out
         AND c.last_inbound_at > now() - interval '24 hours'
         AND NOT EXISTS (
           SELECT 1 FROM satisfaction_surveys p WHERE p.workspace_id = $1 AND p.contact_id = $2
             AND GREATEST(p.asked_at, p.answered_at) >= v.last_inbound_at)),
     made AS (
       INSERT INTO satisfaction_surveys (workspace_id, id, contact_id, assignee_id)
       SELECT $1, $3, id, $4 FROM asking
       RETURNING id)
     SELECT made.id, asking.phone, asking.question FROM made, asking`,
    [workspaceId, contactId, newId('csat'), change.assigneeId],
  );
  const survey = rows[0];
  if (!survey) return undefined;
  // Not awaited: the teammate's resolve answers without waiting on the network.
  return () => {
    sendSurvey(ctx, workspaceId, survey).catch((err: unknown) =>
      ctx.log.warn({ err, workspaceId, surveyId: survey.id }, 'the satisfaction survey was not sent'),
    );
  };
}

async function sendSurvey(ctx: AppContext, workspaceId: string, survey: Asking) {
  let sent: { id: string };
  try {
    sent = await sendMessage(
      ctx,
      { workspaceId, defaultCountryCode: null },
      { to: `+${survey.phone}`, type: 'interactive', interactive: surveyList(survey.id, survey.question) },
      { sourceKey: `survey/${survey.id}` },
    );
  } catch (err) {
    // Refused (no number, a paused one, the window closed meanwhile): nothing asked, nothing to count.
    await ctx.db.query('DELETE FROM satisfaction_surveys WHERE workspace_id = $1 AND id = $2', [
      workspaceId,
      survey.id,
    ]);
    throw err;
  }
  await ctx.db.query('UPDATE satisfaction_surveys SET message_id = $3 WHERE workspace_id = $1 AND id = $2', [
    workspaceId,
    survey.id,
    sent.id,
  ]);
}
