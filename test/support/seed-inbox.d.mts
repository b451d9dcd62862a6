import type { Db } from '../../src/db/db.js';

export function seedInbox(
  db: Pick<Db, 'transaction' | 'exec'>,
  workspaceId: string,
  size: { conversations: number; messages: number; assigneeId?: string | null },
): Promise<void>;
