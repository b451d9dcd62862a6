import { useState } from 'react';
import { ApiFailure, api, useApi } from '../../api';
import { Link } from '../../router';
import { ErrorNote } from '../../ui/ErrorNote';
import { Field } from '../../ui/Field';
import { Loading } from '../../ui/Loading';
import { Modal } from '../../ui/Modal';
import { submitHandler } from '../../ui/submit-handler';
import { Bubble } from '../templates/Bubble';
import { TemplateValues } from '../templates/TemplateValues';
import type { Template, TemplateValues as Values } from '../templates/types';
import { emptyValues, missingValues, valuesPreview } from '../templates/values';

/** A location's coordinates as numbers, as POST /messages takes them (the form keeps what was typed). */
function forSend(v: Values): Values {
  const h = v.header;
  if (typeof h !== 'object' || h.latitude === undefined) return v;
  return { ...v, header: { ...h, latitude: Number(h.latitude), longitude: Number(h.longitude) } };
}

/** Sends an approved template to the conversation's contact, each value it needs in a labelled field. */
export function SendTemplate({
  path,
  onSent,
  onClose,
}: {
  path: string;
  onSent: () => void;
  onClose: () => void;
}) {
  const list = useApi<{ templates: Template[] }>('/templates');
  const [chosen, setChosen] = useState('');
  const [values, setValues] = useState<Values>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const approved = list.data?.templates.filter((t) => t.status === 'APPROVED') ?? [];
  const t = approved.find((x) => x.id === chosen);
  const send = async () => {
    if (!t) return;
    setFailure(null);
    const missing = missingValues(t, values);
    setErrors(missing);
    if (Object.keys(missing).length) return;
    setBusy(true);
    try {
      await api('POST', path, { template: { name: t.name, language: t.language, ...forSend(values) } });
      onSent();
    } catch (err) {
      const details = err instanceof ApiFailure ? (err.body.details ?? []) : [];
      const placed = details.filter((d) => d.field.startsWith('template.'));
      setErrors(Object.fromEntries(placed.map((d) => [d.field, d.message])));
      if (placed.length === 0) setFailure((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal title="Send a template" onClose={onClose}>
      {list.loading && !list.data ? (
        <Loading />
      ) : list.error ? (
        <ErrorNote message={list.error} onRetry={list.reload} />
      ) : approved.length === 0 ? (
        <p className="small muted">
          No approved templates. Create or sync them under <Link href="/templates">Templates</Link>.
        </p>
      ) : (
        <form className="send-template" onSubmit={submitHandler(send)}>
          <div className="stack">
            <Field label="Template">
              {(id) => (
                <select
                  id={id}
                  value={chosen}
                  onChange={(e) => {
                    setChosen(e.target.value);
                    const next = approved.find((x) => x.id === e.target.value);
                    setValues(next ? emptyValues(next) : {});
                    setErrors({});
                  }}
                >
                  <option value="">Choose…</option>
                  {approved.map((x) => (
                    <option key={x.id} value={x.id}>
                      {x.name} ({x.language})
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {t && <TemplateValues template={t} value={values} onChange={setValues} errors={errors} />}
            {failure && <ErrorNote message={failure} />}
            <div className="row">
              <button type="submit" className="btn primary" disabled={busy || !t}>
                {busy ? 'Sending…' : 'Send template'}
              </button>
              <button type="button" className="btn" onClick={onClose}>
                Cancel
              </button>
            </div>
          </div>
          {t && <Bubble model={valuesPreview(t, values)} label="What the customer will see" />}
        </form>
      )}
    </Modal>
  );
}
