import { useId, useState } from 'react';
import { api, useApi } from '../../api';
import { ErrorNote } from '../../ui/ErrorNote';
import { submitHandler } from '../../ui/submit-handler';
import { useAction } from '../../ui/use-action';
import type { SavedViewList, ViewQuery } from './label-types';

/**
 * The member's saved views (and those teammates shared) above the filters: one click shows its
 * filter, label and search; "Save view" keeps the ones shown now under a name.
 */
export function SavedViews({ current, onApply }: { current: ViewQuery; onApply: (q: ViewQuery) => void }) {
  const list = useApi<SavedViewList>('/saved-views');
  const [saving, setSaving] = useState(false);
  const [name, setName] = useState('');
  const [shared, setShared] = useState(false);
  const { busy, error, fieldErrors, run } = useAction();
  const ids = useId();
  const save = () =>
    run(async () => {
      await api('POST', '/saved-views', { name, query: current, shared });
      setSaving(false);
      setName('');
      list.reload();
    });
  const remove = (id: string) =>
    run(async () => {
      await api('DELETE', `/saved-views/${encodeURIComponent(id)}`);
      list.reload();
    });
  return (
    <nav className="saved-views" aria-label="Saved views">
      {list.data?.views.map((v) => (
        <span key={v.id} className="saved-view">
          <button type="button" className="btn small ghost" onClick={() => onApply(v.query)}>
            {v.name}
            {v.shared && !v.mine ? ' (shared)' : ''}
          </button>
          {v.mine && (
            <button
              type="button"
              className="btn small ghost icon"
              aria-label={`Delete the view ${v.name}`}
              onClick={() => void remove(v.id)}
            >
              ✕
            </button>
          )}
        </span>
      ))}
      {saving ? (
        <form className="saved-view-new" onSubmit={submitHandler(() => void save())}>
          <label htmlFor={`${ids}-name`} className="sr-only">
            Name of the view
          </label>
          <input
            id={`${ids}-name`}
            placeholder="Name of the view"
            value={name}
            maxLength={60}
            required
            onChange={(e) => setName(e.target.value)}
          />
          <label className="small">
            <input type="checkbox" checked={shared} onChange={(e) => setShared(e.target.checked)} /> Share
            with the team
          </label>
          <button type="submit" className="btn small primary" disabled={busy}>
            Save
          </button>
          <button type="button" className="btn small ghost" onClick={() => setSaving(false)}>
            Cancel
          </button>
          {fieldErrors.name && <p className="field-error">{fieldErrors.name}</p>}
        </form>
      ) : (
        <button type="button" className="btn small ghost" onClick={() => setSaving(true)}>
          + Save view
        </button>
      )}
      {error && !fieldErrors.name && <ErrorNote message={error} />}
    </nav>
  );
}
