import { useState } from 'react';
import { FIELD_LIMITS } from '../../../../src/lib/field-limits';
import { api } from '../../api';
import type { Form } from '../../server-types';
import { Card } from '../../ui/Card';
import { ErrorNote } from '../../ui/ErrorNote';
import { SaveButton } from '../../ui/SaveButton';
import { submitHandler } from '../../ui/submit-handler';
import { useAction } from '../../ui/use-action';

export function AfterSubmit({ form }: { form: Form }) {
  const [message, setMessage] = useState(form.thank_you_message ?? '');
  const [redirect, setRedirect] = useState(form.redirect_url ?? '');
  const [saved, setSaved] = useState(false);
  const save = useAction();
  const submit = () =>
    save.run(async () => {
      await api('PATCH', `/forms/${form.id}`, {
        thank_you_message: message.trim() || null,
        redirect_url: redirect.trim() || null,
      });
      setSaved(true);
    });
  return (
    <Card
      title="After a submission"
      description="What people see once they have sent the form (hosted page and plain HTML; the script shows the message in place)."
    >
      <form className="stack narrow" onSubmit={submitHandler(submit)}>
        <label className="field">
          <span>Thank-you message</span>
          <textarea
            rows={3}
            maxLength={FIELD_LIMITS.thankYouMessage}
            value={message}
            placeholder="Thanks! We'll be in touch shortly."
            onChange={(e) => setMessage(e.target.value)}
          />
        </label>
        <label className="field">
          <span>Or redirect to (optional)</span>
          <input
            type="url"
            maxLength={FIELD_LIMITS.redirectUrl}
            value={redirect}
            placeholder="https://example.com/thanks"
            onChange={(e) => setRedirect(e.target.value)}
          />
        </label>
        {save.error && <ErrorNote message={save.error} />}
        <div className="row">
          <SaveButton busy={save.busy} saved={saved}>
            Save
          </SaveButton>
        </div>
      </form>
    </Card>
  );
}
