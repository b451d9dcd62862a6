/** The broadcasts API's shapes (/api/app/broadcasts, as /api/v1/broadcasts). */
export type Period = { from?: string; to?: string };

export type TraitRule = { key: string; equals: string | number | boolean } | { key: string; exists: boolean };

export interface Audience {
  tags_all?: string[];
  tags_any?: string[];
  tags_none?: string[];
  traits?: TraitRule[];
  created?: Period;
  last_inbound?: Period;
  import_id?: string;
}

export type ValueSource =
  | { from: 'text'; text: string }
  | { from: 'contact'; field: 'name' | 'phone' | 'email'; fallback?: string }
  | { from: 'trait'; key: string; fallback?: string };

export interface Values {
  body?: ValueSource[] | Record<string, ValueSource>;
  header?: ValueSource | { link: string };
  buttons?: { index: number; value: ValueSource }[];
}

export type BroadcastStatus =
  | 'draft'
  | 'scheduled'
  | 'sending'
  | 'paused'
  | 'waiting_for_limit'
  | 'completed'
  | 'cancelled';

export type PausedReason = 'no_connected_number' | 'plan_limit_reached';

/** Why a broadcast paused itself, in the words the page shows. */
export const PAUSED_REASON: Record<PausedReason, string> = {
  no_connected_number:
    'Paused by itself: the WhatsApp number was disconnected. Connect a number in Settings, then resume.',
  plan_limit_reached:
    "Paused by itself: the plan's message limit is reached. Raise the plan or wait for the next period, then resume.",
};

export interface Counts {
  audience: number;
  queued: number;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
  skipped: number;
  replied: number;
}

export interface Broadcast {
  id: string;
  name: string;
  status: BroadcastStatus;
  paused_reason: PausedReason | null;
  template: { name: string; language: string; category: string };
  audience: Audience;
  values: Values;
  send_at: string | null;
  time_zone: string;
  reply_window_hours: number;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  cancelled_at: string | null;
  counts: Counts;
  failed_by_reason: { code: number | null; reason: string; count: number }[];
  limit: { tier: string | null; used_24h: number; max_24h: number | null };
}

export interface Recipient {
  contact_id: string;
  phone: string;
  name: string | null;
  status: string;
  message_id: string | null;
  error: { code: number | null; title: string } | null;
  sent_at: string | null;
  delivered_at: string | null;
  read_at: string | null;
  replied_at: string | null;
}

export interface TimelinePoint {
  at: string;
  sent: number;
  delivered: number;
  read: number;
  failed: number;
}

export interface SampleContact {
  id: string;
  phone: string;
  name: string | null;
}

export const STATUS_LABEL: Record<BroadcastStatus, string> = {
  draft: 'draft',
  scheduled: 'scheduled',
  sending: 'sending',
  paused: 'paused',
  waiting_for_limit: 'waiting for limit',
  completed: 'completed',
  cancelled: 'cancelled',
};

/** The live events a broadcast's figures move with: statuses, replies, its own state, and a refresh. */
export const BROADCAST_EVENTS = ['status', 'message', 'broadcast', 'refresh'] as const;
