import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/db.js';
import type { ChangeVia, ConversationState } from '../inbox/schemas.js';

/** What a flow triggered by `message.received` reads as `event.properties`. */
export interface ReceivedMessage {
  message_id: string;
  type: string;
  text: string | null;
  /** A quick-reply button's payload ("STOP"), or the id of the interactive button or list row tapped. */
  button_payload: string | null;
  /** Parley's id of the message this one replies or reacts to, when Parley sent it. */
  reply_to: string | null;
}

/** A customer's message, stored once (a redelivered webhook publishes nothing), its consent keywords applied. */
export interface MessageReceived {
  workspaceId: string;
  contactId: string;
  /** When the network says the customer sent it (whole seconds). */
  at: Date;
  message: ReceivedMessage;
  /** What the message did to the contact's consent (STOP, START or the workspace's own words). */
  consent: 'opted_out' | 'opted_in' | null;
}

/** A teammate's message to the contact from the web app's conversation, stored (queued, not yet sent). */
export interface TeammateReplied {
  workspaceId: string;
  contactId: string;
  userId: string;
  messageId: string;
}

/** A conversation moved (open, pending, resolved) or was given to someone (or no one): by a teammate, a bot, an API key or routing. */
export interface ConversationChanged {
  workspaceId: string;
  contactId: string;
  /** The teammate who changed it; null for a bot's `assign` or `resolve` step. */
  userId: string | null;
  via: ChangeVia;
  state: ConversationState;
  assigneeId: string | null;
  /** As it stood before (open and unassigned when it had no row yet). */
  was: { state: ConversationState; assigneeId: string | null };
}

/** The workspace's number: paused, resumed, or given a new messaging limit tier. */
export interface NumberChanged {
  workspaceId: string;
}

/** What messaging publishes, by name: each published in the transaction that made it happen. */
export interface MessagingEvents {
  'message.received': MessageReceived;
  'teammate.replied': TeammateReplied;
  /** Published by the inbox (inbox/change-conversation.ts). */
  'conversation.changed': ConversationChanged;
  'number.paused': NumberChanged;
  'number.resumed': NumberChanged;
  /** Published after the tier was stored, on the database itself (no transaction). */
  'number.limit_changed': NumberChanged;
}

/** What a subscriber asks for once the publishing transaction committed: a queue's workers woken, deliveries queued. */
export type AfterCommit = () => unknown;

/** Runs in the publishing transaction (`tx`): its failure rolls back what was published. */
export type Subscriber<E> = (
  ctx: AppContext,
  tx: Queryable,
  event: E,
) => Promise<void> | Promise<AfterCommit | undefined>;

/**
 * Messages whose status just changed, as SQL: `rows`, a query giving their workspace_id, id,
 * source_key, status, error_code and error_reason; `keys`, an expression giving the array of their
 * source keys. A status change is one statement (a broadcast's thousand a second, docs/benchmarks.md),
 * so a subscriber to it gives a statement that runs inside it, as a data-modifying CTE.
 */
export interface ChangedMessages {
  rows: string;
  keys: string;
}
export type StatusSubscriber = (changed: ChangedMessages) => string;

export interface Subscriptions {
  on: { readonly [K in keyof MessagingEvents]: readonly Subscriber<MessagingEvents[K]>[] };
  statusChanged: readonly StatusSubscriber[];
}

let subscriptions: Subscriptions = {
  on: {
    'message.received': [],
    'teammate.replied': [],
    'conversation.changed': [],
    'number.paused': [],
    'number.resumed': [],
    'number.limit_changed': [],
  },
  statusChanged: [],
};
let statements = new Map<FollowedStatement, string>();

/** Sets who hears what messaging publishes: once, at start-up (modules/subscriptions.ts). */
export function subscribe(to: Subscriptions): void {
  subscriptions = to;
  statements = new Map();
}

/**
 * Tells the subscribers to `name`, in order, inside `tx`; answers what they ask for after the commit,
 * for the publisher to run (runAfterCommit) once `tx` committed.
 */
export async function publish<K extends keyof MessagingEvents>(
  ctx: AppContext,
  tx: Queryable,
  name: K,
  event: MessagingEvents[K],
): Promise<AfterCommit[]> {
  const after: AfterCommit[] = [];
  for (const subscriber of subscriptions.on[name]) {
    const then = await subscriber(ctx, tx, event);
    if (then) after.push(then);
  }
  return after;
}

export async function runAfterCommit(after: readonly AfterCommit[]): Promise<void> {
  for (const then of after) await then();
}

/**
 * A statement that changes messages' statuses, with its subscribers' statements on the messages it
 * changed (`changed`): `sql` writes it given their CTEs, each led by a comma, to follow another of
 * its CTEs. Declared once, as a constant, and built once (followed).
 */
export interface FollowedStatement {
  changed: ChangedMessages;
  sql(followers: string): string;
}

/** The statement's SQL with the status subscribers in it: built on first use, then the same string. */
export function followed(statement: FollowedStatement): string {
  let sql = statements.get(statement);
  if (sql === undefined) {
    const followers = subscriptions.statusChanged.map(
      (s, i) => `,\n  followed_${i + 1} AS (${s(statement.changed)})`,
    );
    sql = statement.sql(followers.join(''));
    statements.set(statement, sql);
  }
  return sql;
}
