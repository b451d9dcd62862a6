import { useState } from 'react';
import { api, useApi } from '../../api';
import { ErrorNote } from '../../ui/ErrorNote';
import { Field } from '../../ui/Field';
import { Loading } from '../../ui/Loading';
import { Modal } from '../../ui/Modal';
import { submitHandler } from '../../ui/submit-handler';
import { useAction } from '../../ui/use-action';
import { COLOURS, type Label, type LabelColour, type LabelList } from './label-types';

const COLOUR_NAMES = Object.keys(COLOURS) as LabelColour[];

function ColourSelect({
  id,
  value,
  onChange,
}: {
  id: string;
  value: LabelColour;
  onChange: (c: LabelColour) => void;
}) {
  return (
    <select id={id} value={value} onChange={(e) => onChange(e.target.value as LabelColour)}>
      {COLOUR_NAMES.map((c) => (
        <option key={c} value={c}>
          {COLOURS[c]}
        </option>
      ))}
    </select>
  );
}

/** The inbox's "Labels" button and its dialog: create, rename, recolour and delete the workspace's labels. */
export function LabelsButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="btn small" onClick={() => setOpen(true)}>
        Labels
      </button>
      {open && (
        <Modal title="Labels" onClose={() => setOpen(false)}>
          <LabelsManager />
        </Modal>
      )}
    </>
  );
}

function LabelsManager() {
  const list = useApi<LabelList>('/labels');
  const [name, setName] = useState('');
  const [colour, setColour] = useState<LabelColour>('blue');
  const { busy, error, fieldErrors, run } = useAction();
  const create = () =>
    run(async () => {
      await api('POST', '/labels', { name, colour });
      setName('');
      list.reload();
    });
  return (
    <div className="labels-manager">
      <form onSubmit={submitHandler(() => void create())} className="label-new">
        <Field label="New label" error={fieldErrors.name}>
          {(id) => (
            <input id={id} value={name} maxLength={40} onChange={(e) => setName(e.target.value)} required />
          )}
        </Field>
        <Field label="Colour">{(id) => <ColourSelect id={id} value={colour} onChange={setColour} />}</Field>
        <button type="submit" className="btn primary" disabled={busy}>
          Create
        </button>
      </form>
      {error && !fieldErrors.name && <ErrorNote message={error} />}
      {list.loading && !list.data && <Loading />}
      {list.data?.labels.length === 0 && <p className="muted">No labels yet.</p>}
      <ul className="label-rows">
        {list.data?.labels.map((l) => (
          <LabelRow key={l.id} label={l} onChanged={list.reload} />
        ))}
      </ul>
    </div>
  );
}

function LabelRow({ label, onChanged }: { label: Label; onChanged: () => void }) {
  const [name, setName] = useState(label.name);
  const [colour, setColour] = useState(label.colour);
  const { busy, error, fieldErrors, run } = useAction();
  const save = () =>
    run(async () => {
      await api('PATCH', `/labels/${encodeURIComponent(label.id)}`, { name, colour });
      onChanged();
    });
  const remove = () =>
    run(async () => {
      await api('DELETE', `/labels/${encodeURIComponent(label.id)}`);
      onChanged();
    });
  const changed = name !== label.name || colour !== label.colour;
  return (
    <li className="label-row">
      <form onSubmit={submitHandler(() => void save())}>
        <Field label={`Name of ${label.name}`} error={fieldErrors.name}>
          {(id) => (
            <input id={id} value={name} maxLength={40} onChange={(e) => setName(e.target.value)} required />
          )}
        </Field>
        <Field label={`Colour of ${label.name}`}>
          {(id) => <ColourSelect id={id} value={colour} onChange={setColour} />}
        </Field>
        <span className="small muted">
          {label.conversations} conversation{label.conversations === 1 ? '' : 's'}
        </span>
        {changed && (
          <button type="submit" className="btn small" disabled={busy}>
            Save
          </button>
        )}
        <button type="button" className="btn small danger" disabled={busy} onClick={() => void remove()}>
          Delete
        </button>
      </form>
      {error && !fieldErrors.name && <ErrorNote message={error} />}
    </li>
  );
}
