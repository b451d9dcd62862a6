import { useState } from 'react';
import { useApi } from '../../api';
import type { TagList } from '../../server-types';
import { Choice } from '../../ui/Choice';
import { Field, InputField } from '../../ui/Field';
import { ImportContacts } from '../contacts/ImportContacts';
import type { AudienceForm, TagRule, TraitRow } from './audience';
import { LIMITS } from './limits';

const TAG_RULES: { value: TagRule | ''; label: string }[] = [
  { value: '', label: 'Either way' },
  { value: 'all', label: 'Must have' },
  { value: 'any', label: 'One of these' },
  { value: 'none', label: 'Must not have' },
];

interface Props {
  value: AudienceForm;
  onChange: (v: AudienceForm) => void;
  timeZone: string;
  /** The server's problems by the field it names (`audience.import_id`, `audience.traits[0].key`). */
  errors: Record<string, string>;
}

const errorAt = (errors: Record<string, string>, prefix: string) =>
  Object.entries(errors).find(
    ([k]) => k === prefix || k.startsWith(`${prefix}.`) || k.startsWith(`${prefix}[`),
  )?.[1];

/** Who gets the broadcast: contacts by tags, traits and dates, or those a CSV import brought in. */
export function AudienceFields({ value, onChange, timeZone, errors }: Props) {
  const tags = useApi<TagList>('/contacts/tags');
  const [importing, setImporting] = useState(false);
  const set = (patch: Partial<AudienceForm>) => onChange({ ...value, ...patch });
  const setTrait = (i: number, patch: Partial<TraitRow>) =>
    set({ traits: value.traits.map((t, j) => (j === i ? { ...t, ...patch } : t)) });
  return (
    <div className="stack">
      <Choice
        legend="Send to"
        name="audience-source"
        options={[
          { value: 'rules', label: 'Contacts matching these rules' },
          { value: 'import', label: 'Contacts from a CSV import' },
        ]}
        value={value.source}
        onChange={(source) => set({ source })}
      />
      {value.source === 'import' ? (
        <div className="field">
          <div className="row wrap">
            <button type="button" className="btn" onClick={() => setImporting(true)}>
              {value.importId ? 'Upload another CSV' : 'Upload a CSV'}
            </button>
            {value.importId && (
              <span className="small" data-testid="import-chosen">
                The contacts of import <span className="mono">{value.importId}</span>
              </span>
            )}
          </div>
          {errorAt(errors, 'audience.import_id') && (
            <p className="field-error">{errorAt(errors, 'audience.import_id')}</p>
          )}
          {importing && (
            <ImportContacts
              onClose={() => setImporting(false)}
              onImported={(id) => {
                set({ importId: id });
                tags.reload();
              }}
            />
          )}
        </div>
      ) : (
        <>
          <fieldset className="editor-section">
            <legend>Tags</legend>
            {tags.data?.tags.length ? (
              <div className="grid-fields">
                {tags.data.tags.map(({ tag, contacts }) => (
                  <Field key={tag} label={`${tag} (${contacts.toLocaleString()})`}>
                    {(id) => (
                      <select
                        id={id}
                        value={value.tags[tag] ?? ''}
                        onChange={(e) => {
                          const { [tag]: _, ...rest } = value.tags;
                          set({
                            tags: e.target.value ? { ...rest, [tag]: e.target.value as TagRule } : rest,
                          });
                        }}
                      >
                        {TAG_RULES.map((r) => (
                          <option key={r.value} value={r.value}>
                            {r.label}
                          </option>
                        ))}
                      </select>
                    )}
                  </Field>
                ))}
              </div>
            ) : (
              <p className="small muted">{tags.loading ? 'Loading tags…' : 'No contact has a tag yet.'}</p>
            )}
            {errorAt(errors, 'audience.tags') && (
              <p className="field-error">{errorAt(errors, 'audience.tags')}</p>
            )}
          </fieldset>
          <fieldset className="editor-section">
            <legend>Traits</legend>
            {value.traits.map((t, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place, in their order
              <div key={i} className="row wrap trait-rule">
                <InputField
                  label={`Trait ${i + 1} name`}
                  maxLength={LIMITS.traitKey}
                  error={errorAt(errors, `audience.traits[${i}]`) ?? errorAt(errors, `audience.traits.${i}`)}
                  value={t.key}
                  onChange={(e) => setTrait(i, { key: e.target.value })}
                />
                <Field label={`Trait ${i + 1} rule`}>
                  {(id) => (
                    <select
                      id={id}
                      value={t.op}
                      onChange={(e) => setTrait(i, { op: e.target.value as TraitRow['op'] })}
                    >
                      <option value="equals">is</option>
                      <option value="exists">is set</option>
                      <option value="missing">is not set</option>
                    </select>
                  )}
                </Field>
                {t.op === 'equals' && (
                  <InputField
                    label={`Trait ${i + 1} value`}
                    maxLength={LIMITS.traitValue}
                    value={t.value}
                    onChange={(e) => setTrait(i, { value: e.target.value })}
                  />
                )}
                <button
                  type="button"
                  className="btn ghost small"
                  aria-label={`Remove trait ${i + 1}`}
                  onClick={() => set({ traits: value.traits.filter((_, j) => j !== i) })}
                >
                  Remove
                </button>
              </div>
            ))}
            {value.traits.length < LIMITS.traitRules && (
              <button
                type="button"
                className="btn small"
                onClick={() => set({ traits: [...value.traits, { key: '', op: 'equals', value: '' }] })}
              >
                + Trait rule
              </button>
            )}
          </fieldset>
          <fieldset className="editor-section">
            <legend>Dates (in {timeZone})</legend>
            <div className="grid-fields">
              {(
                [
                  ['created', 'Became a contact', 'audience.created'],
                  ['lastInbound', 'Last wrote in', 'audience.last_inbound'],
                ] as const
              ).map(([key, words, field]) => (
                <div key={key} className="row wrap">
                  <InputField
                    label={`${words} on or after`}
                    type="date"
                    error={errorAt(errors, `${field}.from`)}
                    value={value[key].from}
                    onChange={(e) => set({ [key]: { ...value[key], from: e.target.value } })}
                  />
                  <InputField
                    label={`${words} on or before`}
                    type="date"
                    error={errorAt(errors, `${field}.to`) ?? errorAt(errors, field)}
                    value={value[key].to}
                    onChange={(e) => set({ [key]: { ...value[key], to: e.target.value } })}
                  />
                </div>
              ))}
            </div>
          </fieldset>
        </>
      )}
    </div>
  );
}
