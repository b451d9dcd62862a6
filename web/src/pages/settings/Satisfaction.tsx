import { useEffect, useState } from 'react';
import { api, useApi } from '../../api';
import type { SurveySettingsAnswer } from '../../server-types';
import { useSession } from '../../session';
import { Card } from '../../ui/Card';
import { ErrorNote } from '../../ui/ErrorNote';
import { Field } from '../../ui/Field';
import { Loading } from '../../ui/Loading';
import { SaveButton } from '../../ui/SaveButton';
import { submitHandler } from '../../ui/submit-handler';
import { useAction } from '../../ui/use-action';

// The server's limit (routing/satisfaction-schemas.ts).
const MAX_QUESTION = 1024;

/** Settings › Satisfaction survey: whether a resolve asks the customer for a rating, and the question. */
export function SatisfactionSettings() {
  const { session } = useSession();
  const current = useApi<SurveySettingsAnswer>('/satisfaction/settings');
  const [enabled, setEnabled] = useState(false);
  const [question, setQuestion] = useState('');
  const [saved, setSaved] = useState(false);
  const { busy, error, fieldErrors, run } = useAction();
  useEffect(() => {
    if (current.data) {
      setEnabled(current.data.survey.enabled);
      setQuestion(current.data.survey.question);
    }
  }, [current.data]);
  if (current.error) return <ErrorNote message={current.error} onRetry={current.reload} />;
  if (!current.data) return <Loading />;
  const readOnly = !session.can_manage;
  const save = () =>
    run(async () => {
      const answer = await api<SurveySettingsAnswer>('PUT', '/satisfaction/settings', { enabled, question });
      setEnabled(answer.survey.enabled);
      setQuestion(answer.survey.question);
      setSaved(true);
    });
  return (
    <Card
      title="Satisfaction survey"
      description="When a conversation is resolved, ask the customer to rate the help from 1 to 5. The ratings show on the home dashboard, per teammate."
    >
      <form className="stack narrow" onSubmit={submitHandler(save)}>
        <label className="check">
          <input
            type="checkbox"
            name="enabled"
            checked={enabled}
            disabled={readOnly}
            onChange={(e) => {
              setEnabled(e.target.checked);
              setSaved(false);
            }}
          />{' '}
          Ask for a rating when a conversation is resolved
        </label>
        {fieldErrors.enabled && <p className="field-error">{fieldErrors.enabled}</p>}
        <Field
          label="Question"
          hint="Sent as a WhatsApp list with five rows, 1 to 5 (WhatsApp allows only three reply buttons). Only inside the 24 hours after the customer's last message, never to a contact who opted out, and once until the customer writes again."
          error={fieldErrors.question}
        >
          {(id) => (
            <textarea
              id={id}
              name="question"
              rows={3}
              maxLength={MAX_QUESTION}
              value={question}
              disabled={readOnly}
              onChange={(e) => {
                setQuestion(e.target.value);
                setSaved(false);
              }}
            />
          )}
        </Field>
        {error && !Object.keys(fieldErrors).length && <ErrorNote message={error} />}
        {readOnly ? (
          <p className="small muted">Only owners and admins can change these.</p>
        ) : (
          <div className="row">
            <SaveButton busy={busy} saved={saved}>
              {busy ? 'Saving…' : 'Save survey'}
            </SaveButton>
          </div>
        )}
      </form>
    </Card>
  );
}
