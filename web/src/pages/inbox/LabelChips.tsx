import { useId } from 'react';
import { api, useApi } from '../../api';
import { ErrorNote } from '../../ui/ErrorNote';
import { useAction } from '../../ui/use-action';
import type { LabelList, LabelRef } from './label-types';

/** A conversation's labels as coloured chips; `onRemove` adds a button to take each off. */
export function LabelChips({ labels, onRemove }: { labels: LabelRef[]; onRemove?: (id: string) => void }) {
  if (labels.length === 0) return null;
  return (
    <span className="label-chips">
      {labels.map((l) => (
        <span key={l.id} className={`label-chip label-${l.colour}`}>
          {l.name}
          {onRemove && (
            <button
              type="button"
              className="label-chip-remove"
              aria-label={`Remove ${l.name}`}
              onClick={() => onRemove(l.id)}
            >
              ✕
            </button>
          )}
        </span>
      ))}
    </span>
  );
}

/** The labels of the open conversation: taken off with ✕, put on from the workspace's labels. */
export function ConversationLabels({
  contactId,
  labels,
  onChanged,
}: {
  contactId: string;
  labels: LabelRef[];
  onChanged: () => void;
}) {
  const all = useApi<LabelList>('/labels').data?.labels ?? [];
  const { busy, error, run } = useAction();
  const id = useId();
  const path = `/conversations/${encodeURIComponent(contactId)}/labels`;
  const change = (labelId: string, on: boolean) =>
    run(async () => {
      await (on
        ? api('POST', path, { label_id: labelId })
        : api('DELETE', `${path}/${encodeURIComponent(labelId)}`));
      onChanged();
    });
  const addable = all.filter((l) => !labels.some((x) => x.id === l.id));
  return (
    <div className="conversation-labels">
      <LabelChips labels={labels} onRemove={(labelId) => void change(labelId, false)} />
      {addable.length > 0 && (
        <>
          <label htmlFor={id} className="sr-only">
            Add a label
          </label>
          <select
            id={id}
            value=""
            disabled={busy}
            onChange={(e) => e.target.value && void change(e.target.value, true)}
          >
            <option value="">+ Label</option>
            {addable.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </select>
        </>
      )}
      {error && <ErrorNote message={error} />}
    </div>
  );
}

/** The inbox's label filter: every conversation, or those carrying one label. */
export function LabelFilter({ value, onChange }: { value: string; onChange: (labelId: string) => void }) {
  const labels = useApi<LabelList>('/labels').data?.labels ?? [];
  const id = useId();
  if (labels.length === 0 && !value) return null;
  return (
    <div className="inline-field label-filter">
      <label htmlFor={id} className="small muted">
        Label
      </label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Any label</option>
        {labels.map((l) => (
          <option key={l.id} value={l.id}>
            {l.name}
          </option>
        ))}
      </select>
    </div>
  );
}
