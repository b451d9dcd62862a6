import { useState } from 'react';
import { ApiFailure, api } from '../../api';
import { Link, navigate } from '../../router';
import { useSession } from '../../session';
import { ErrorNote } from '../../ui/ErrorNote';
import { Field, InputField } from '../../ui/Field';
import { PageHeader } from '../../ui/PageHeader';
import { submitHandler } from '../../ui/submit-handler';
import { AuthenticationFields } from './AuthenticationFields';
import { BodyFields } from './BodyFields';
import { Bubble } from './Bubble';
import { ButtonsFields } from './ButtonsFields';
import {
  blankDraft,
  type Category,
  type Draft,
  draftErrors,
  LIMITS,
  placeProblem,
  previewOf,
  toRequest,
} from './draft';
import { HeaderFields } from './HeaderFields';
import { LanguageField } from './LanguageField';
import { lastUsedLanguage, rememberLanguage } from './last-used-language';

/** The template editor: every component WhatsApp offers, with the message bubble beside it. */
export function NewTemplatePage() {
  const workspaceId = useSession().session.workspace.id;
  const [draft, setDraft] = useState<Draft>(() => ({
    ...blankDraft(),
    language: lastUsedLanguage(workspaceId),
  }));
  // Mistakes show once a submit was tried (then as they are fixed); the server's, until the next edit.
  const [tried, setTried] = useState(false);
  const [refused, setRefused] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const change = (d: Draft) => {
    setDraft(d);
    setRefused({});
  };
  const errors = { ...(tried ? draftErrors(draft) : {}), ...refused };
  const set =
    <K extends keyof Draft>(key: K) =>
    (value: Draft[K]) =>
      change({ ...draft, [key]: value });
  const auth = draft.category === 'AUTHENTICATION';

  const submit = async () => {
    setTried(true);
    setFailure(null);
    if (Object.keys(draftErrors(draft)).length) return;
    setBusy(true);
    try {
      await api('POST', '/templates', toRequest(draft));
      rememberLanguage(workspaceId, draft.language);
      navigate(`/templates?submitted=${encodeURIComponent(draft.name)}`);
    } catch (err) {
      if (!(err instanceof ApiFailure) || !err.body.details?.length) setFailure((err as Error).message);
      else setRefused(Object.fromEntries(err.body.details.map((d) => placeProblem(d.field, d.message))));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageHeader
        title="New template"
        description={
          <>
            <Link href="/templates">Templates</Link> / WhatsApp reviews each template before it can be sent.
          </>
        }
      />
      <div className="template-editor">
        <form className="stack card" onSubmit={submitHandler(submit)} noValidate>
          <div className="grid-fields">
            <InputField
              label="Name"
              hint="Lowercase letters, digits and underscores."
              error={errors.name}
              value={draft.name}
              onChange={(e) => set('name')(e.target.value)}
            />
            <LanguageField value={draft.language} error={errors.language} onChange={set('language')} />
            <Field label="Category" error={errors.category}>
              {(id) => (
                <select
                  id={id}
                  value={draft.category}
                  onChange={(e) => set('category')(e.target.value as Category)}
                >
                  <option value="MARKETING">Marketing</option>
                  <option value="UTILITY">Utility</option>
                  <option value="AUTHENTICATION">Authentication (one-time codes)</option>
                </select>
              )}
            </Field>
            {!auth && (
              <Field label="Variables" hint="How the text marks the values each send fills in.">
                {(id) => (
                  <select
                    id={id}
                    value={draft.parameterFormat}
                    onChange={(e) => set('parameterFormat')(e.target.value as Draft['parameterFormat'])}
                  >
                    <option value="POSITIONAL">Numbered: {'{{1}}, {{2}}'}</option>
                    <option value="NAMED">Named: {'{{first_name}}'}</option>
                  </select>
                )}
              </Field>
            )}
          </div>
          {auth ? (
            <AuthenticationFields draft={draft} errors={errors} onChange={change} />
          ) : (
            <>
              <HeaderFields draft={draft} errors={errors} onChange={change} />
              <BodyFields draft={draft} errors={errors} onChange={change} />
              <InputField
                label="Footer (optional)"
                hint={`Up to ${LIMITS.footer} characters, no variables.`}
                error={errors.footer}
                value={draft.footer}
                onChange={(e) => set('footer')(e.target.value)}
              />
              <ButtonsFields draft={draft} errors={errors} onChange={change} />
            </>
          )}
          {errors.form && <ErrorNote message={errors.form} />}
          {failure && <ErrorNote message={failure} />}
          {tried && Object.keys(errors).length > 0 && (
            <p className="field-error" role="alert">
              Some fields need a change before WhatsApp can review the template.
            </p>
          )}
          <div className="row">
            <button type="submit" className="btn primary" disabled={busy}>
              {busy ? 'Submitting…' : 'Submit for review'}
            </button>
            <Link href="/templates" className="btn">
              Cancel
            </Link>
          </div>
        </form>
        <aside className="template-preview" aria-live="polite">
          <h2 className="small muted">Preview</h2>
          <Bubble model={previewOf(draft)} />
        </aside>
      </div>
    </>
  );
}
