import { useEffect } from 'react';
import { api } from '../../api';
import type { ConversationMessage } from '../../server-types';

/**
 * Tells the server the teammate sees the newest customer message; the server decides, by the
 * workspace's setting, whether to tell the network. A failure is not the teammate's concern.
 */
export function useMarkRead(contactId: string, messages: ConversationMessage[] | undefined) {
  const newest = messages?.findLast((m) => m.direction === 'inbound')?.id;
  useEffect(() => {
    if (!newest) return;
    api('POST', `/conversations/${encodeURIComponent(contactId)}/read`).catch(() => {});
  }, [contactId, newest]);
}
