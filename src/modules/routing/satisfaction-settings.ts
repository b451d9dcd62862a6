import { ApiError } from '../../api/errors.js';
import type { Db, Queryable } from '../../db/db.js';
import { type Actor, audited, changedFields } from '../audit/record-audit.js';
import type { SurveySettings } from './satisfaction-schemas.js';

export const DEFAULT_QUESTION =
  'How would you rate the help you got today? Choose from 1 (poor) to 5 (excellent).';

/** The workspace's survey settings: off, with the default question, until someone saves them. */
export async function surveySettings(db: Queryable, workspaceId: string): Promise<SurveySettings> {
  const { rows } = await db.query<SurveySettings>(
    'SELECT enabled, question FROM satisfaction_settings WHERE workspace_id = $1',
    [workspaceId],
  );
  return rows[0] ?? { enabled: false, question: DEFAULT_QUESTION };
}

export async function saveSurveySettings(
  db: Db,
  workspaceId: string,
  input: SurveySettings,
  actor: Actor,
): Promise<SurveySettings> {
  const question = input.question.trim();
  if (!question) throw ApiError.invalid('question', 'Write the question the customer is asked.');
  return audited(
    db,
    (tx) => storeSurvey(tx, workspaceId, input.enabled, question),
    () => ({
      workspaceId,
      actor,
      action: 'update',
      entityType: 'satisfaction_survey',
      entityId: workspaceId,
      changes: changedFields(input),
    }),
  );
}

async function storeSurvey(db: Queryable, workspaceId: string, enabled: boolean, question: string) {
  const { rows } = await db.query<SurveySettings>(
    `INSERT INTO satisfaction_settings (workspace_id, enabled, question) VALUES ($1, $2, $3)
     ON CONFLICT (workspace_id) DO UPDATE SET enabled = EXCLUDED.enabled, question = EXCLUDED.question,
       updated_at = now()
     RETURNING enabled, question`,
    [workspaceId, enabled, question],
  );
  return rows[0]!;
}
