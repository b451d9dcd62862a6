import { type Static, Type } from 'typebox';
import { decodeCursor, encodeCursor } from '../../api/page-cursor.js';
import { MaybeText, MaybeTimestamp, PageCursor, Text, Timestamp } from '../../api/schema.js';
import type { Queryable } from '../../db/db.js';
import { displayName } from '../accounts/display-name.js';
import { ISO } from '../contacts/list-contacts.js';
import { MENTION } from './mention-token.js';

export const NotificationsQuery = Type.Object(
  {
    cursor: Type.Optional(PageCursor),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 20 })),
  },
  { additionalProperties: false },
);

const Notification = Type.Object({
  id: Type.String(),
  kind: Type.Literal('mention'),
  contact_id: Type.String(),
  /** Null once the contact was deleted. */
  contact_name: MaybeText,
  author_name: Type.String(),
  /** The note's start, mentions written as @names. */
  excerpt: Type.String(),
  created_at: Timestamp,
  read_at: MaybeTimestamp,
});
type Notification = Static<typeof Notification>;

export const NotificationList = Type.Object({
  result: Type.Literal(true),
  notifications: Type.Array(Notification),
  unread: Type.Integer(),
  next_cursor: MaybeText,
});

export const ReadBody = Type.Union([
  Type.Object(
    { ids: Type.Array(Text({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 100 }) },
    { additionalProperties: false },
  ),
  Type.Object({ all: Type.Literal(true) }, { additionalProperties: false }),
]);

export const ReadResult = Type.Object({ result: Type.Literal(true), unread: Type.Integer() });

const EXCERPT = 140;
const MICROS = '(extract(epoch FROM n.created_at) * 1000000)::bigint';

/** The member's unread notifications of the workspace. */
export async function unreadCount(db: Queryable, workspaceId: string, userId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM notifications WHERE workspace_id = $1 AND user_id = $2 AND read_at IS NULL',
    [workspaceId, userId],
  );
  return rows[0]!.n;
}

/** One member's notifications in one workspace, newest first, a page after `cursor`. */
export async function listNotifications(
  db: Queryable,
  workspaceId: string,
  userId: string,
  page: { cursor?: string; limit?: number },
) {
  const limit = page.limit ?? 20;
  const after = page.cursor ? decodeCursor(page.cursor) : null;
  const { rows } = await db.query<
    Omit<Notification, 'excerpt'> & { micros: string; text: string | null; names: Record<string, string> }
  >(
    `SELECT n.id, n.kind, n.contact_id, NULLIF(c.name, '') AS contact_name,
       COALESCE(${displayName('u')}, 'API key ' || COALESCE(NULLIF(k.name, ''), k.display_prefix), 'A teammate') AS author_name,
       note.text, to_char(n.created_at AT TIME ZONE 'UTC', ${ISO}) AS created_at,
       to_char(n.read_at AT TIME ZONE 'UTC', ${ISO}) AS read_at, ${MICROS}::text AS micros,
       COALESCE((SELECT json_object_agg(mu.id, ${displayName('mu')}) FROM note_mentions nm
         JOIN users mu ON mu.id = nm.user_id WHERE nm.workspace_id = n.workspace_id AND nm.note_id = n.note_id),
         '{}') AS names
     FROM notifications n
     LEFT JOIN conversation_notes note ON note.workspace_id = n.workspace_id AND note.id = n.note_id
     LEFT JOIN users u ON u.id = note.author_id
     LEFT JOIN api_keys k ON k.workspace_id = n.workspace_id AND k.id = note.api_key_id
     LEFT JOIN contacts c ON c.workspace_id = n.workspace_id AND c.id = n.contact_id
     WHERE n.workspace_id = $1 AND n.user_id = $2
       AND ($3::bigint IS NULL OR ${MICROS} < $3::bigint OR (${MICROS} = $3::bigint AND n.id < $4::text))
     ORDER BY n.created_at DESC, n.id DESC LIMIT $5`,
    [workspaceId, userId, after?.micros ?? null, after?.id ?? null, limit + 1],
  );
  const last = rows[limit - 1];
  return {
    notifications: rows.slice(0, limit).map(({ micros: _, text, names, ...n }) => ({
      ...n,
      excerpt: excerpt(text ?? '', names),
    })),
    unread: await unreadCount(db, workspaceId, userId),
    next_cursor: rows.length > limit && last ? encodeCursor({ micros: last.micros, id: last.id }) : null,
  };
}

/** The text with its members' mentions as @names, cut to EXCERPT characters. */
function excerpt(text: string, names: Record<string, string>): string {
  const plain = text.replace(MENTION, (token, id: string) => (names[id] ? `@${names[id]}` : token));
  return plain.length > EXCERPT ? `${plain.slice(0, EXCERPT - 1)}…` : plain;
}

/** Marks the member's own notifications read (those named, or all); others' ids change nothing. */
export async function markNotificationsRead(
  db: Queryable,
  workspaceId: string,
  userId: string,
  which: { ids: string[] } | { all: true },
): Promise<number> {
  await db.query(
    `UPDATE notifications SET read_at = now()
     WHERE workspace_id = $1 AND user_id = $2 AND read_at IS NULL AND ($3::text[] IS NULL OR id = ANY ($3::text[]))`,
    [workspaceId, userId, 'ids' in which ? which.ids : null],
  );
  return unreadCount(db, workspaceId, userId);
}
