import type { ConversationState } from '../../server-types';

export const STATE_LABELS: Record<ConversationState, string> = {
  open: 'Open',
  pending: 'Pending',
  resolved: 'Resolved',
};
