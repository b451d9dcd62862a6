import { useState } from 'react';
import { FIELD_LIMITS } from '../../../../src/lib/field-limits';
import { api } from '../../api';
import { Link } from '../../router';
import type { Contact } from '../../server-types';
import { ErrorNote } from '../../ui/ErrorNote';
import { InputField } from '../../ui/Field';
import { SaveButton } from '../../ui/SaveButton';
import { submitHandler } from '../../ui/submit-handler';
import { useAction } from '../../ui/use-action';

type Editable = Pick<Contact, 'id' | 'name' | 'email' | 'tags' | 'traits'>;

const patch = (c: Editable, body: Record<string, unknown>) =>
  api('PATCH', `/contacts/${encodeURIComponent(c.id)}`, body);

/** The first error whose field is `prefix` or inside it (`traits.plan`, `add_tags.0`). */
const errorAt = (errors: Record<string, string>, ...prefixes: string[]) =>
  Object.entries(errors).find(([f]) => prefixes.some((p) => f === p || f.startsWith(`${p}.`)))?.[1];

/** A contact's name and e-mail boxes, limited as the server is, each with its refusal beside it. */
export function NameEmailFields({
  name,
  email,
  errors,
  onChange,
}: {
  name: string;
  email: string;
  errors: Record<string, string>;
  onChange: (next: { name?: string; email?: string }) => void;
}) {
  return (
    <>
      <InputField
        label="Name"
        error={errors.name}
        aria-invalid={errors.name ? true : undefined}
        maxLength={FIELD_LIMITS.contactName}
        value={name}
        onChange={(e) => onChange({ name: e.target.value })}
      />
      <InputField
        label="E-mail"
        type="email"
        error={errors.email}
        aria-invalid={errors.email ? true : undefined}
        maxLength={FIELD_LIMITS.email}
        value={email}
        onChange={(e) => onChange({ email: e.target.value })}
      />
    </>
  );
}

/** Name and e-mail: an empty box clears them; what was typed stays when the server refuses it. */
export function DetailsForm({ contact, onSaved }: { contact: Editable; onSaved: () => void }) {
  const [name, setName] = useState(contact.name ?? '');
  const [email, setEmail] = useState(contact.email ?? '');
  const [saved, setSaved] = useState(false);
  const save = useAction();
  const submit = () =>
    save.run(async () => {
      setSaved(false);
      await patch(contact, { name: name.trim() || null, email: email.trim() || null });
      setSaved(true);
      onSaved();
    });
  const errors = save.fieldErrors;
  return (
    <form className="stack" noValidate onSubmit={submitHandler(submit)}>
      <NameEmailFields
        name={name}
        email={email}
        errors={errors}
        onChange={(next) => {
          setSaved(false);
          if (next.name !== undefined) setName(next.name);
          if (next.email !== undefined) setEmail(next.email);
        }}
      />
      {save.error && !errors.name && !errors.email && <ErrorNote message={save.error} />}
      <div className="row">
        <SaveButton busy={save.busy} saved={saved}>
          Save details
        </SaveButton>
      </div>
    </form>
  );
}

/** Tags added and removed one at a time, as the contact's own record shows them. */
export function TagsEditor({ contact, onSaved }: { contact: Editable; onSaved: () => void }) {
  const [tag, setTag] = useState('');
  const change = useAction();
  const add = () =>
    change.run(async () => {
      if (!tag.trim()) return;
      await patch(contact, { add_tags: [tag.trim()] });
      setTag('');
      onSaved();
    });
  const remove = (t: string) =>
    change.run(async () => {
      await patch(contact, { remove_tags: [t] });
      onSaved();
    });
  const error = errorAt(change.fieldErrors, 'add_tags', 'remove_tags');
  return (
    <div className="stack">
      <div className="tags">
        {contact.tags.length === 0 && <span className="muted small">No tags.</span>}
        {contact.tags.map((t) => (
          <span key={t} className="tag">
            <Link href={`/contacts?tag=${encodeURIComponent(t)}`}>{t}</Link>
            <button
              type="button"
              className="tag-remove"
              aria-label={`Remove tag ${t}`}
              disabled={change.busy}
              onClick={() => remove(t)}
            >
              ✕
            </button>
          </span>
        ))}
      </div>
      <form className="row wrap align-end" noValidate onSubmit={submitHandler(add)}>
        <InputField
          label="Add a tag"
          error={error}
          aria-invalid={error ? true : undefined}
          maxLength={FIELD_LIMITS.tag}
          value={tag}
          onChange={(e) => setTag(e.target.value)}
        />
        <button type="submit" className="btn" disabled={change.busy}>
          Add tag
        </button>
      </form>
      {change.error && !error && <ErrorNote message={change.error} />}
    </div>
  );
}

type TraitType = 'text' | 'number' | 'boolean' | 'null';

const typeOf = (v: unknown): TraitType =>
  v === null ? 'null' : typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'boolean' : 'text';

const shown = (v: unknown) => (v === null ? 'empty' : typeof v === 'string' ? v : String(v));

/** Traits with typed values: text, a number, yes/no or empty; one edited or removed at a time. */
export function TraitsEditor({ contact, onSaved }: { contact: Editable; onSaved: () => void }) {
  const [key, setKey] = useState('');
  const [type, setType] = useState<TraitType>('text');
  const [value, setValue] = useState('');
  const [local, setLocal] = useState<string | null>(null);
  const change = useAction();
  const typed = (): unknown => {
    if (type === 'null') return null;
    if (type === 'boolean') return value === 'true';
    if (type === 'number') return Number(value);
    return value;
  };
  const save = () =>
    change.run(async () => {
      setLocal(null);
      if (!key.trim()) return setLocal('Give the trait a name.');
      if (type === 'number' && (value.trim() === '' || !Number.isFinite(Number(value))))
        return setLocal('Enter a number, such as 42 or 9.5.');
      await patch(contact, { traits: { [key.trim()]: typed() } });
      setKey('');
      setValue('');
      setType('text');
      onSaved();
    });
  const remove = (k: string) =>
    change.run(async () => {
      await patch(contact, { remove_traits: [k] });
      onSaved();
    });
  const edit = (k: string, v: unknown) => {
    setKey(k);
    setType(typeOf(v));
    setValue(v === null ? '' : String(v));
  };
  const entries = Object.entries(contact.traits);
  const error = local ?? errorAt(change.fieldErrors, 'traits', 'remove_traits');
  return (
    <div className="stack">
      {entries.length === 0 ? (
        <p className="small muted">No traits yet. Add one below, or set them with the REST API or a flow.</p>
      ) : (
        <dl className="facts">
          {entries.map(([k, v]) => (
            <div key={k} className="fact-pair">
              <dt>{k}</dt>
              <dd className="row wrap">
                <span className="mono break">{shown(v)}</span>
                <button type="button" className="btn small" onClick={() => edit(k, v)}>
                  Edit
                </button>
                <button
                  type="button"
                  className="btn small"
                  aria-label={`Remove trait ${k}`}
                  disabled={change.busy}
                  onClick={() => remove(k)}
                >
                  Remove
                </button>
              </dd>
            </div>
          ))}
        </dl>
      )}
      <form className="trait-row" noValidate onSubmit={submitHandler(save)}>
        <InputField
          label="Trait"
          maxLength={FIELD_LIMITS.traitKey}
          value={key}
          onChange={(e) => setKey(e.target.value)}
        />
        <label className="field">
          <span>Type</span>
          <select value={type} onChange={(e) => setType(e.target.value as TraitType)}>
            <option value="text">Text</option>
            <option value="number">Number</option>
            <option value="boolean">Yes / no</option>
            <option value="null">Empty</option>
          </select>
        </label>
        {type === 'boolean' ? (
          <label className="field">
            <span>Value</span>
            <select value={value === 'true' ? 'true' : 'false'} onChange={(e) => setValue(e.target.value)}>
              <option value="true">Yes</option>
              <option value="false">No</option>
            </select>
          </label>
        ) : (
          type !== 'null' && (
            <InputField
              label="Value"
              inputMode={type === 'number' ? 'decimal' : undefined}
              maxLength={FIELD_LIMITS.traitValue}
              error={error}
              aria-invalid={error ? true : undefined}
              value={value}
              onChange={(e) => setValue(e.target.value)}
            />
          )
        )}
        <button type="submit" className="btn" disabled={change.busy}>
          Save trait
        </button>
      </form>
      {error && (type === 'boolean' || type === 'null') && <p className="field-error">{error}</p>}
      {change.error && !error && <ErrorNote message={change.error} />}
    </div>
  );
}
