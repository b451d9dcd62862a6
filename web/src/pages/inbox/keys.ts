import { useEffect, useRef } from 'react';

/** The inbox's keys, as the `?` dialog and the user docs list them. */
export const INBOX_KEYS: readonly { keys: readonly string[]; does: string }[] = [
  { keys: ['j', '↓'], does: 'Next conversation' },
  { keys: ['k', '↑'], does: 'Previous conversation' },
  { keys: ['Enter', 'r'], does: 'Write a reply' },
  { keys: ['Ctrl + Enter', '⌘ + Enter'], does: 'Send the reply or the note' },
  { keys: ['a'], does: 'Choose who it is assigned to' },
  { keys: ['i'], does: 'Assign it to me' },
  { keys: ['e'], does: 'Resolve it, or reopen it' },
  { keys: ['n'], does: 'Write an internal note' },
  { keys: ['Esc'], does: 'Back to the list' },
  { keys: ['?'], does: 'This list of keys' },
];

/** A handler answers whether it used the key: only then is the browser's own action stopped. */
type KeyMap = Record<string, (e: KeyboardEvent) => boolean | undefined>;

const NONE: readonly string[] = [];

// A ticked box (the bulk selection) is not typing: the keys go on working from it.
const typing = (el: EventTarget | null) =>
  el instanceof HTMLElement &&
  (el.isContentEditable ||
    ['TEXTAREA', 'SELECT'].includes(el.tagName) ||
    (el instanceof HTMLInputElement && !['checkbox', 'radio', 'button'].includes(el.type)));

/**
 * Single keys for the inbox, heard on the document. They stay quiet while a field has the focus
 * (but for those in `whileTyping`), with Ctrl, ⌘ or Alt held, and while a dialog is open.
 */
export function useKeys(map: KeyMap, whileTyping: readonly string[] = NONE): void {
  const current = useRef(map);
  current.current = map;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
      if (typing(e.target) && !whileTyping.includes(e.key)) return;
      if (document.querySelector('[aria-modal="true"]')) return;
      if (current.current[e.key]?.(e)) e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [whileTyping]);
}

/** The DOM id of a conversation's row in the list. */
export const rowId = (contactId: string) => `conversation-${contactId}`;

/** Focus to the box a teammate writes in: the reply, or the note, or (window closed) the template button. */
export function focusComposer(): boolean {
  const box = document.querySelector<HTMLElement>('.composer textarea, .composer [data-template-button]');
  box?.focus();
  return box !== null;
}

let replyWanted: string | null = null;

/** Enter on a row: the reply box takes the focus once that conversation is drawn. */
function wantReply(contactId: string): void {
  replyWanted = contactId;
  if (document.querySelector(`[data-conversation="${CSS.escape(contactId)}"]`) && focusComposer())
    replyWanted = null;
}

/** Called by a conversation once drawn: whether the reply box was asked for. */
export function takeReplyWish(contactId: string): boolean {
  if (replyWanted !== contactId) return false;
  replyWanted = null;
  return true;
}

const ROW_KEYS = new Set(['ArrowDown', 'ArrowUp', 'Enter']);
const ESCAPE = ['Escape'];

/**
 * j/k (or ↓/↑ on a row) open the next or previous conversation and focus its row; Enter on a row
 * opens it with the reply box focused; Esc goes back to the row. Works from the list's ids, in the
 * list's order: a conversation that left the list (resolved under "Open") leaves its place to the next.
 */
export function useListKeys(
  ids: readonly string[],
  current: string | undefined,
  open: (contactId: string) => void,
  back: () => void,
): void {
  const at = useRef(-1);
  const index = current === undefined ? -1 : ids.indexOf(current);
  if (index >= 0) at.current = index;
  const move = (step: 1 | -1) => {
    if (ids.length === 0) return true;
    const target =
      index >= 0 ? index + step : step === 1 ? Math.max(at.current, 0) : Math.max(at.current - 1, 0);
    const id = ids[Math.min(Math.max(target, 0), ids.length - 1)]!;
    open(id);
    requestAnimationFrame(() => document.getElementById(rowId(id))?.focus());
    return true;
  };
  const onRow = (e: KeyboardEvent) =>
    ROW_KEYS.has(e.key) ? (e.target as HTMLElement).closest<HTMLElement>('[data-row]') : null;
  useKeys(
    {
      j: () => move(1),
      k: () => move(-1),
      ArrowDown: (e) => (onRow(e) ? move(1) : false),
      ArrowUp: (e) => (onRow(e) ? move(-1) : false),
      Enter: (e) => {
        const id = onRow(e)?.dataset.row;
        if (!id) return false;
        if (id !== current) open(id);
        wantReply(id);
        return true;
      },
      Escape: (e) => {
        if (!current || !(e.target as HTMLElement).closest?.('.inbox-thread')) return false;
        // An open picker (emoji) closes first, on its own Esc.
        if (document.querySelector('.inbox-thread [aria-expanded="true"]')) return false;
        const row = document.getElementById(rowId(current));
        if (row?.checkVisibility()) row.focus();
        else back();
        return true;
      },
    },
    ESCAPE,
  );
}
