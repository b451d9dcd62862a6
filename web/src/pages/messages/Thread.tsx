import { MessageBubble, type Reactions } from './MessageBubble';
import { type ConversationMessage, str } from './types';

/** The message a reaction is to, by the network's id: a customer's by its context, the team's by what it sent. */
const targetOf = (m: ConversationMessage) => m.context_wamid ?? str(m.content?.message_id) ?? null;

/**
 * The conversation's messages, each reaction shown on the message it reacts to (the latest from
 * each side, as WhatsApp keeps one; an empty emoji removes it), or as a line of its own when that
 * message is not among those shown.
 */
export function Thread({ messages }: { messages: ConversationMessage[] }) {
  const shown = new Set(messages.map((m) => m.wamid).filter(Boolean));
  const reactions = new Map<string, Reactions>();
  for (const m of messages) {
    const target = m.type === 'reaction' ? targetOf(m) : null;
    if (!target || !shown.has(target)) continue;
    reactions.set(target, { ...reactions.get(target), [m.direction]: str(m.content?.emoji) });
  }
  return (
    <>
      {messages.map((m) => {
        if (m.type === 'reaction' && shown.has(targetOf(m) ?? '')) return null;
        return <MessageBubble key={m.id} m={m} reactions={m.wamid ? reactions.get(m.wamid) : undefined} />;
      })}
    </>
  );
}
