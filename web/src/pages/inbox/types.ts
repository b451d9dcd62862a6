import type { ThreadNote } from '../messages/Thread';
import type { ConversationMessage } from '../messages/types';

export type ConversationState = 'open' | 'pending' | 'resolved';

/** A row of GET /inbox. */
export interface InboxRow {
  contact_id: string;
  name: string | null;
  phone: string;
  state: ConversationState;
  assignee_id: string | null;
  assignee_name: string | null;
  last_message_at: string;
  last_direction: 'inbound' | 'outbound' | null;
  last_type: string | null;
  last_text: string | null;
  last_template_name: string | null;
  unread: number;
}

/** GET /conversations/:id. */
export interface Conversation {
  contact: { id: string; phone: string; name: string | null; email: string | null };
  conversation: { state: ConversationState; assignee_id: string | null; assignee_name: string | null };
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
