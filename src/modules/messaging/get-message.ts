import type { Queryable } from '../../db/db.js';
import { ApiError } from '../../http/errors.js';
import type { MessageStatus } from './status.js';

export interface MessageRow {
  id: string;
  direction: string;
  phone: string;
  type: string;
  wamid: string | null;
  status: MessageStatus;
  callback_data: string | null;
  error_code: number | null;
  error_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

export async function getMessage(db: Queryable, workspaceId: string, id: string): Promise<MessageRow> {
  const { rows } = await db.query<MessageRow>(
    `SELECT id, direction, phone, type, wamid, status, callback_data, error_code, error_reason, created_at, updated_at
     FROM messages WHERE workspace_id = $1 AND id = $2`,
    [workspaceId, id],
  );
  if (!rows[0]) throw new ApiError('not_found', `No message ${id}`);
  return rows[0];
}
