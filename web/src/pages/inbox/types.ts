import type { ConversationState, ConversationStateAnswer } from '../../server-types';
import type { ThreadNote } from '../messages/Thread';
import type { ConversationMessage } from '../messages/types';

/** GET /conversations/:id. */
export interface Conversation {
  contact: { id: string; phone: string; name: string | null; email: string | null };
  conversation: ConversationStateAnswer['conversation'];
  messages: ConversationMessage[];
  notes: ThreadNote[];
  number_connected: boolean;
  window: { open: boolean; closes_at: string | null };
}

export const STATE_LABELS: Record<ConversationState, string> = {
  open: 'Open',
  pending: 'Pending',
  resolved: 'Resolved',
};
