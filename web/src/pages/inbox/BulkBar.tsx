import { useId, useState } from 'react';
import { api, useApi } from '../../api';
import { MemberOptions, useMembers } from '../../members';
import { ErrorNote } from '../../ui/ErrorNote';
import { useAction } from '../../ui/use-action';
import type { BulkAnswer, LabelList } from './label-types';
import { useSnoozeChoices } from './SnoozeMenu';

type Action = 'resolve' | 'assign' | 'label' | 'snooze';
const VERBS: Record<Action, string> = {
  resolve: 'Resolve',
  assign: 'Assign',
  label: 'Label',
  snooze: 'Snooze',
};

/**
 * The bar over the list while conversations are selected: one action for all of them, asked to be
 * confirmed with how many it touches.
 */
export function BulkBar({
  selected,
  shown,
  onSelect,
  onDone,
}: {
  selected: string[];
  shown: string[];
  onSelect: (ids: string[]) => void;
  onDone: () => void;
}) {
  const members = useMembers();
  const labels = useApi<LabelList>('/labels').data?.labels ?? [];
  const snoozes = useSnoozeChoices();
  const [action, setAction] = useState<Action | null>(null);
  const [value, setValue] = useState('');
  const [done, setDone] = useState('');
  const { busy, error, fieldErrors, run } = useAction();
  const ids = useId();
  const all = shown.length > 0 && shown.every((id) => selected.includes(id));
  const n = selected.length;
  const many = `${n} conversation${n === 1 ? '' : 's'}`;
  const needs = action === 'assign' || action === 'label' || action === 'snooze';
  const body = () => {
    if (action === 'assign') return { assignee_id: value || null };
    if (action === 'label') return { label_id: value };
    if (action === 'snooze') return snoozes.find((s) => s.label === value)!.body();
    return {};
  };
  const apply = () =>
    run(async () => {
      const res = await api<BulkAnswer>('POST', '/conversations/bulk', { ids: selected, action, ...body() });
      setDone(
        `${VERBS[action!]}: ${res.done} done${res.not_found.length ? `, ${res.not_found.length} not found` : ''}.`,
      );
      setAction(null);
      setValue('');
      onSelect([]);
      onDone();
    });
  // A list the action emptied keeps the bar, to say what was done.
  if (shown.length === 0 && !done) return null;
  return (
    <section className="bulk-bar" aria-label="Bulk actions">
      {shown.length > 0 && (
        <label className="small">
          <input type="checkbox" checked={all} onChange={(e) => onSelect(e.target.checked ? shown : [])} />{' '}
          Select all shown
        </label>
      )}
      {done && n === 0 && (
        <span className="small" role="status">
          {done}
        </span>
      )}
      {n > 0 && (
        <>
          <span className="small">{many} selected</span>
          {!action &&
            (Object.keys(VERBS) as Action[]).map((a) => (
              <button
                key={a}
                type="button"
                className="btn small"
                onClick={() => {
                  setAction(a);
                  setValue('');
                  setDone('');
                }}
              >
                {VERBS[a]}
              </button>
            ))}
          {action && (
            <span className="bulk-confirm">
              {action === 'assign' && (
                <>
                  <label htmlFor={`${ids}-v`} className="sr-only">
                    Assign to
                  </label>
                  <select id={`${ids}-v`} value={value} onChange={(e) => setValue(e.target.value)}>
                    <option value="">Nobody</option>
                    <MemberOptions members={members} current={null} name={null} />
                  </select>
                </>
              )}
              {action === 'label' && (
                <>
                  <label htmlFor={`${ids}-v`} className="sr-only">
                    Label
                  </label>
                  <select id={`${ids}-v`} value={value} onChange={(e) => setValue(e.target.value)}>
                    <option value="">Choose a label</option>
                    {labels.map((l) => (
                      <option key={l.id} value={l.id}>
                        {l.name}
                      </option>
                    ))}
                  </select>
                </>
              )}
              {action === 'snooze' && (
                <>
                  <label htmlFor={`${ids}-v`} className="sr-only">
                    Snooze for
                  </label>
                  <select id={`${ids}-v`} value={value} onChange={(e) => setValue(e.target.value)}>
                    <option value="">Choose when they wake</option>
                    {snoozes.map((s) => (
                      <option key={s.label} value={s.label}>
                        {s.label}
                      </option>
                    ))}
                  </select>
                </>
              )}
              <button
                type="button"
                className="btn small primary"
                disabled={busy || (needs && action !== 'assign' && !value)}
                onClick={() => void apply()}
              >
                {VERBS[action]} {many}
              </button>
              <button type="button" className="btn small ghost" onClick={() => setAction(null)}>
                Cancel
              </button>
            </span>
          )}
        </>
      )}
      {error && <ErrorNote message={Object.values(fieldErrors)[0] ?? error} />}
    </section>
  );
}
