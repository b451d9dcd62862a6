import type { Audience, AudienceCount, Broadcast, Values } from '../../server-types';

/** The broadcasts API's shapes (/api/app/broadcasts, as /api/v1/broadcasts), from the server's schemas. */
export type { Audience, Values };
export type Period = NonNullable<Audience['created']>;
export type ValueSource = Extract<NonNullable<Values['header']>, { from: string }>;

export type BroadcastStatus = Broadcast['status'];

export type PausedReason = NonNullable<Broadcast['paused_reason']>;

/** Why a broadcast paused itself, in the words the page shows. */
export const PAUSED_REASON: Record<PausedReason, string> = {
  no_connected_number:
    'Paused by itself: the WhatsApp number was disconnected. Connect a number in Settings, then resume.',
  plan_limit_reached:
    "Paused by itself: the plan's message limit is reached. Raise the plan or wait for the next period, then resume.",
  number_paused:
    'Paused by itself: Meta refuses to send from the WhatsApp number. Settings › Connected number says why and what to do; the broadcast goes on by itself once the number is put right.',
};

export type { Broadcast };
export type SampleContact = AudienceCount['sample'][number];

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
