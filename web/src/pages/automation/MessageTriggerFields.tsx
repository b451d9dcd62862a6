import { useState } from 'react';
import { Field, InputField } from '../../ui/Field';
import type { Definition, MessageReceived } from './model';

const words = (text: string) =>
  text
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean);

/** The first problem among a list's items (`keywords.1`), named by its place. */
const itemProblem = (problems: Record<string, string>, key: string, what: string) => {
  const found = Object.entries(problems).find(([f]) => f === key || f.startsWith(`${key}.`));
  if (!found) return undefined;
  const n = /\.(\d+)$/.exec(found[0]);
  return n ? `${what} ${Number(n[1]) + 1}: ${found[1]}` : found[1];
};

/**
 * A "customer writes" trigger: keywords (exact or inside the text), button payloads, first message or
 * after a silence, inside or outside business hours, and whether it starts while a teammate holds the conversation; and what a
 * teammate's reply does to the bot.
 */
export function MessageTriggerFields({
  def,
  problems,
  onChange,
}: {
  def: Definition & { trigger: MessageReceived };
  problems: Record<string, string>;
  onChange: (def: Definition) => void;
}) {
  const t = def.trigger;
  // Typed as text, kept as a list: "menu, " would lose its comma if read back from the list at once.
  const [keywords, setKeywords] = useState((t.keywords ?? []).join(', '));
  const [payloads, setPayloads] = useState((t.payloads ?? []).join(', '));
  const set = (patch: Partial<MessageReceived>) => {
    const next: MessageReceived = { ...t, ...patch };
    if (!next.keywords?.length) {
      delete next.keywords;
      delete next.match;
    }
    if (!next.payloads?.length) delete next.payloads;
    for (const k of ['first_message', 'while_assigned'] as const) if (!next[k]) delete next[k];
    if (!next.after_silence) delete next.after_silence;
    if (!next.hours) delete next.hours;
    onChange({ ...def, trigger: next });
  };
  return (
    <>
      <div className="grid-fields">
        <InputField
          label="Keywords (optional)"
          hint="Separated by commas; case, accents and punctuation are ignored. None: any message."
          value={keywords}
          error={itemProblem(problems, 'keywords', 'Keyword')}
          onChange={(e) => {
            setKeywords(e.target.value);
            set({ keywords: words(e.target.value) });
          }}
        />
        <Field label="Match" error={problems.match}>
          {(id) => (
            <select
              id={id}
              value={t.match ?? 'exact'}
              disabled={!t.keywords?.length}
              onChange={(e) => set({ match: e.target.value === 'contains' ? 'contains' : undefined })}
            >
              <option value="exact">the whole message is a keyword</option>
              <option value="contains">a keyword is a word in the message</option>
            </select>
          )}
        </Field>
        <InputField
          label="Button payloads (optional)"
          hint="A template quick reply's payload, or a button or list row id; separated by commas."
          value={payloads}
          error={itemProblem(problems, 'payloads', 'Payload')}
          onChange={(e) => {
            setPayloads(e.target.value);
            set({ payloads: words(e.target.value) });
          }}
        />
        <InputField
          label="Only after a silence of (optional)"
          hint="e.g. 30m, 24h or 7d without a message from the contact"
          value={t.after_silence ?? ''}
          error={problems.after_silence}
          onChange={(e) => set({ after_silence: e.target.value.trim() || undefined })}
        />
        <Field
          label="Business hours"
          hint="Settings › Business hours; read when the customer sent the message"
          error={problems.hours}
        >
          {(id) => (
            <select
              id={id}
              value={t.hours ?? 'any'}
              onChange={(e) => {
                const v = e.target.value;
                set({ hours: v === 'inside' || v === 'outside' ? v : undefined });
              }}
            >
              <option value="any">at any time</option>
              <option value="inside">only inside business hours</option>
              <option value="outside">only outside business hours</option>
            </select>
          )}
        </Field>
      </div>
      <label className="check">
        <input
          type="checkbox"
          checked={t.first_message === true}
          onChange={(e) => set({ first_message: e.target.checked })}
        />{' '}
        Only a contact's first message ever
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={t.while_assigned === true}
          onChange={(e) => set({ while_assigned: e.target.checked })}
        />{' '}
        Also while a teammate holds the conversation
      </label>
      <Field label="When a teammate replies in the conversation" error={problems.on_teammate_reply}>
        {(id) => (
          <select
            id={id}
            value={def.on_teammate_reply ?? 'stop'}
            onChange={(e) =>
              onChange({ ...def, on_teammate_reply: e.target.value === 'continue' ? 'continue' : undefined })
            }
          >
            <option value="stop">the bot stops</option>
            <option value="continue">the bot goes on</option>
          </select>
        )}
      </Field>
    </>
  );
}
