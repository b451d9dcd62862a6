// A leaf (no imports): automation/bot-routing.ts reads it to leave survey answers alone.

const PREFIX = 'parley-csat:';
const ROW_ID = /^parley-csat:(csat_[0-9A-Za-z]{1,40}):([1-5])$/;

/** The id of the survey list's row for `rating` (1 to 5): it names the survey it answers. */
export function surveyRowId(surveyId: string, rating: number): string {
  return `${PREFIX}${surveyId}:${rating}`;
}

/** The survey and rating a tapped row's id names, or null when it is not a survey's row. */
export function readSurveyAnswer(payload: string | null): { surveyId: string; rating: number } | null {
  const m = payload ? ROW_ID.exec(payload) : null;
  return m ? { surveyId: m[1]!, rating: Number(m[2]) } : null;
}

/** Whether a customer's message is a tap on a satisfaction survey's row (its button payload). */
export function isSurveyAnswer(payload: string | null): boolean {
  return readSurveyAnswer(payload) !== null;
}
