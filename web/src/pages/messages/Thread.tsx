import type { ReactNode } from 'react';
import { formatDate } from '../../api';
import type { ConversationMessage, ConversationNote } from '../../server-types';
import { NoteText } from '../inbox/Mentions';
import { MessageBubble, type Reactions } from './MessageBubble';
import { str } from './types';

/** The message a reaction is to, by the network's id: a customer's by its context, the team's by what it sent. */
const targetOf = (m: ConversationMessage) => m.context_wamid ?? str(m.content?.message_id) ?? null;

/**
 * The conversation's messages, each reaction shown on the message it reacts to (the latest from
 * each side, as WhatsApp keeps one; an empty emoji removes it), or as a line of its own when that
 * message is not among those shown. The team's internal notes come in among them by time.
 */
export function Thread({
  messages,
  notes = [],
}: {
  messages: ConversationMessage[];
  notes?: ConversationNote[];
}) {
  const shown = new Set(messages.map((m) => m.wamid).filter(Boolean));
  const reactions = new Map<string, Reactions>();
  for (const m of messages) {
    const target = m.type === 'reaction' ? targetOf(m) : null;
    if (!target || !shown.has(target)) continue;
    reactions.set(target, { ...reactions.get(target), [m.direction]: str(m.content?.emoji) });
  }
  const items: ReactNode[] = [];
  let n = 0;
  const notesUntil = (at: string | null) => {
    for (; n < notes.length && (at === null || notes[n]!.created_at <= at); n++) {
      items.push(<NoteBubble key={notes[n]!.id} note={notes[n]!} />);
    }
  };
  for (const m of messages) {
    notesUntil(m.created_at);
    if (m.type === 'reaction' && shown.has(targetOf(m) ?? '')) continue;
    items.push(<MessageBubble key={m.id} m={m} reactions={m.wamid ? reactions.get(m.wamid) : undefined} />);
  }
  notesUntil(null);
  return <>{items}</>;
}

/** An internal note: the team's, never sent to the customer. */
function NoteBubble({ note }: { note: ConversationNote }) {
  return (
    <div className="bubble-row note">
      <div className="bubble note">
        <div className="small note-label">Internal note · {note.author_name || 'A teammate'}</div>
        <NoteText text={note.text} mentions={note.mentions} />
        <div className="bubble-meta">{formatDate(note.created_at)}</div>
      </div>
    </div>
  );
}
