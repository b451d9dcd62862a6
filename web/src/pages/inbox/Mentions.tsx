import { type ReactNode, useId, useRef, useState } from 'react';
import { MENTION } from '../../../../src/modules/inbox/mention-token';
import { useMembers } from '../../members';
import './mentions.css';
import type { Picked } from './mention-text';

const SHOWN_MAX = 8;
// What is being typed after an `@` that starts a word, up to the caret.
const TYPING = /(^|\s)@([^\s@<>]{0,40})$/;

const shownName = (m: { name: string; email: string }) => m.name || m.email;

/**
 * The note box: `@` opens a list of the workspace's members, narrowed by name or e-mail as one types
 * (a combobox: arrows move, Enter or Tab picks, Escape closes). `picked` holds who was picked, for
 * withMentionTokens.
 */
export function MentionTextarea({
  id,
  value,
  onChange,
  picked,
  onPicked,
  maxLength,
  placeholder,
  onSubmit,
}: {
  id: string;
  value: string;
  onChange: (text: string) => void;
  picked: Picked[];
  onPicked: (picked: Picked[]) => void;
  maxLength: number;
  placeholder: string;
  /** Ctrl/Cmd+Enter: the inbox's key to send. */
  onSubmit: () => void;
}) {
  const members = useMembers();
  const box = useRef<HTMLTextAreaElement>(null);
  const listId = useId();
  const [query, setQuery] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const matches =
    query === null
      ? []
      : members
          .filter((m) => `${m.name} ${m.email}`.toLowerCase().includes(query.toLowerCase()))
          .slice(0, SHOWN_MAX);
  const open = matches.length > 0;

  const look = (text: string, caret: number) => {
    const typed = TYPING.exec(text.slice(0, caret));
    setQuery(typed ? typed[2]! : null);
    setActive(0);
  };
  const pick = (m: (typeof members)[number]) => {
    const el = box.current;
    const caret = el?.selectionStart ?? value.length;
    const before = value.slice(0, caret).replace(/@[^\s@<>]*$/, '');
    const shown = shownName(m);
    const inserted = `@${shown} `;
    onChange(`${before}${inserted}${value.slice(caret)}`.slice(0, maxLength));
    if (!picked.some((p) => p.id === m.id)) onPicked([...picked, { id: m.id, shown }]);
    setQuery(null);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(before.length + inserted.length, before.length + inserted.length);
    });
  };

  return (
    <div className="mention-box">
      <textarea
        id={id}
        ref={box}
        rows={2}
        maxLength={maxLength}
        placeholder={placeholder}
        value={value}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open ? `${listId}-${active}` : undefined}
        onChange={(e) => {
          onChange(e.target.value);
          look(e.target.value, e.target.selectionStart);
        }}
        onBlur={() => setQuery(null)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            onSubmit();
            return;
          }
          if (!open) return;
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            const step = e.key === 'ArrowDown' ? 1 : -1;
            setActive((active + step + matches.length) % matches.length);
          } else if (e.key === 'Enter' || e.key === 'Tab') {
            e.preventDefault();
            pick(matches[active]!);
          } else if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            setQuery(null);
          }
        }}
      />
      <div
        id={listId}
        role="listbox"
        aria-label="Teammates to mention"
        className="mention-list"
        hidden={!open}
      >
        {matches.map((m, i) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard picks from the text box (arrows, Enter)
          <div
            key={m.id}
            id={`${listId}-${i}`}
            role="option"
            tabIndex={-1}
            aria-selected={i === active}
            className={i === active ? 'active' : undefined}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => pick(m)}
          >
            <strong>{shownName(m)}</strong>
            {m.name && <span className="small muted"> {m.email}</span>}
          </div>
        ))}
      </div>
    </div>
  );
}

/**
 * A note's text with its mentions shown as highlighted names; a token of no member of the note's
 * (another workspace's user id) stays as it was written.
 */
export function NoteText({
  text,
  mentions,
}: {
  text: string;
  mentions: { user_id: string; name: string }[];
}) {
  const names = new Map(mentions.map((m) => [m.user_id, m.name]));
  const parts: ReactNode[] = [];
  let at = 0;
  for (const m of text.matchAll(MENTION)) {
    const name = names.get(m[1]!);
    if (!name) continue;
    parts.push(text.slice(at, m.index));
    parts.push(
      <mark key={m.index} className="mention">
        @{name}
      </mark>,
    );
    at = m.index + m[0].length;
  }
  parts.push(text.slice(at));
  return <div className="pre">{parts}</div>;
}
