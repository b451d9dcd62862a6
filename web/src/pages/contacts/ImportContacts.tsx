import { useEffect, useState } from 'react';
import { ApiFailure, upload, useApi } from '../../api';
import type { ImportAnswer } from '../../server-types';
import { Badge } from '../../ui/Badge';
import { ErrorNote } from '../../ui/ErrorNote';
import { Field } from '../../ui/Field';
import { Meter } from '../../ui/Meter';
import { Modal } from '../../ui/Modal';
import { submitHandler } from '../../ui/submit-handler';

const POLL_MS = 1000;

const finished = (s: ImportAnswer | null | undefined) =>
  s?.import.status === 'completed' || s?.import.status === 'stopped';

const FIELDS = [
  { key: 'phone', label: 'Phone column', names: ['phone', 'phone number', 'mobile', 'whatsapp'] },
  { key: 'name', label: 'Name column', names: ['name', 'full name'] },
  { key: 'email', label: 'E-mail column', names: ['email', 'e-mail', 'email address'] },
  { key: 'tags', label: 'Tags column', names: ['tags', 'tag'] },
] as const;

/** The header row, read from the start of the file in the browser to offer its columns (quotes honoured). */
async function headerOf(file: File): Promise<string[]> {
  const text = (await file.slice(0, 64 * 1024).text()).replace(/^\uFEFF/, '');
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      cells.push(cell.trim());
      cell = '';
    } else if (ch === '\n' || ch === '\r') break;
    else cell += ch;
  }
  cells.push(cell.trim());
  return cells.filter(Boolean).slice(0, 200);
}

/** Upload a CSV, map its columns, and follow the import to its report of refused rows. */
export function ImportContacts({
  onClose,
  onImported,
}: {
  onClose: () => void;
  /** Once the import has finished: its id (a broadcast's audience can be its contacts). */
  onImported: (importId: string) => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [columns, setColumns] = useState<string[]>([]);
  const [mapping, setMapping] = useState<Record<string, string>>({});
  const [traits, setTraits] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [started, setStarted] = useState<ImportAnswer | null>(null);
  const id = started && !finished(started) ? started.import.id : null;
  // Followed until it finishes: the query stops asking then.
  const polled = useApi<ImportAnswer>(id && `/contacts/imports/${id}?limit=200`, {
    refetchInterval: (d) => (finished(d) ? false : POLL_MS),
    staleTime: 0,
  });
  const state = (id && polled.data) || started;

  const choose = async (f: File | null) => {
    setFile(f);
    setStarted(null);
    setError(null);
    setFieldErrors({});
    const header = f ? await headerOf(f) : [];
    setColumns(header);
    setMapping(
      Object.fromEntries(
        FIELDS.map((d) => [
          d.key,
          header.find((h) => (d.names as readonly string[]).includes(h.toLowerCase())) ?? '',
        ]),
      ),
    );
    setTraits([]);
  };

  const polledDone = finished(polled.data) ? polled.data!.import.id : null;
  useEffect(() => {
    if (polledDone) onImported(polledDone);
  }, [polledDone, onImported]);
  const shownError = error ?? polled.error;

  const start = async () => {
    if (!file) {
      setFieldErrors({ file: 'Choose a CSV file first' });
      return;
    }
    setBusy(true);
    setError(null);
    setFieldErrors({});
    const query = new URLSearchParams();
    for (const d of FIELDS) if (mapping[d.key]) query.set(`${d.key}_column`, mapping[d.key]!);
    if (traits.length) query.set('trait_columns', traits.join(','));
    try {
      const answer = await upload<ImportAnswer>(`/contacts/import?${query}`, file, 'text/csv');
      setStarted(answer);
      if (finished(answer)) onImported(answer.import.id);
    } catch (err) {
      if (err instanceof ApiFailure && err.body.details?.length)
        setFieldErrors(Object.fromEntries(err.body.details.map((d) => [d.field, d.message])));
      else setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const mapped = new Set(Object.values(mapping));
  return (
    <Modal title="Import contacts from CSV" onClose={onClose}>
      {!state ? (
        <form className="stack" onSubmit={submitHandler(start)}>
          <Field
            label="CSV file"
            hint="UTF-8 with a header row; up to 64 MB and 250,000 rows. Rows update contacts with the same phone."
            error={fieldErrors.file}
          >
            {(fid) => (
              <input
                id={fid}
                type="file"
                accept=".csv,text/csv"
                onChange={(e) => choose(e.target.files?.[0] ?? null)}
              />
            )}
          </Field>
          {columns.length > 0 &&
            FIELDS.map((d) => (
              <Field key={d.key} label={d.label} error={fieldErrors[`${d.key}_column`]}>
                {(fid) => (
                  <select
                    id={fid}
                    value={mapping[d.key] ?? ''}
                    required={d.key === 'phone'}
                    onChange={(e) => setMapping({ ...mapping, [d.key]: e.target.value })}
                  >
                    <option value="">{d.key === 'phone' ? 'Choose a column' : 'None'}</option>
                    {columns.map((c) => (
                      <option key={c} value={c}>
                        {c}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            ))}
          {columns.some((c) => !mapped.has(c)) && (
            <fieldset className="field">
              <legend>Keep as traits</legend>
              {columns
                .filter((c) => !mapped.has(c))
                .map((c) => (
                  <label key={c} className="row">
                    <input
                      type="checkbox"
                      checked={traits.includes(c) || c.toLowerCase().startsWith('trait:')}
                      disabled={c.toLowerCase().startsWith('trait:')}
                      onChange={(e) =>
                        setTraits(e.target.checked ? [...traits, c] : traits.filter((x) => x !== c))
                      }
                    />
                    {c}
                  </label>
                ))}
              {fieldErrors.trait_columns && <p className="field-error">{fieldErrors.trait_columns}</p>}
            </fieldset>
          )}
          {error && <ErrorNote message={error} />}
          <div className="row">
            <button type="submit" className="btn primary" disabled={busy}>
              {busy ? 'Uploading…' : 'Import'}
            </button>
          </div>
        </form>
      ) : (
        <ImportProgress state={state} error={shownError} />
      )}
    </Modal>
  );
}

function ImportProgress({ state, error }: { state: ImportAnswer; error: string | null }) {
  const i = state.import;
  return (
    <div className="stack" aria-live="polite">
      <div className="row wrap">
        <Badge>{i.status}</Badge>
        <span className="small muted">
          {i.created.toLocaleString()} created · {i.updated.toLocaleString()} updated ·{' '}
          {i.refused.toLocaleString()} refused
        </span>
      </div>
      <Meter label="Rows processed" used={i.processed_rows} limit={i.total_rows} />
      {i.stopped_reason && <ErrorNote message={i.stopped_reason} />}
      {error && <ErrorNote message={error} />}
      {state.refusals.length > 0 && (
        <div className="table-wrap">
          <table>
            <caption className="small muted">
              Refused rows{i.refused > state.refusals.length ? ` (first ${state.refusals.length})` : ''}
            </caption>
            <thead>
              <tr>
                <th>Row</th>
                <th>Why</th>
              </tr>
            </thead>
            <tbody>
              {state.refusals.map((r) => (
                <tr key={r.row}>
                  <td className="mono">{r.row}</td>
                  <td>{r.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
