import { Type } from 'typebox';
import { Text, Timestamp } from '../../api/schema.js';
import { FIELD_LIMITS } from '../../lib/field-limits.js';
import { CountryCode, WorkspaceName } from '../accounts/schemas.js';

const Nullable = Type.Union([Type.String(), Type.Null()]);

/** Settings › General: the workspace as its owner edits it. */
export const WorkspaceSettings = Type.Object({
  id: Type.String(),
  name: Type.String(),
  default_country_code: Nullable,
  plan: Type.String(),
  mark_read: Type.Boolean(),
  created_at: Timestamp,
  opt_out_keywords: Type.Array(Type.String()),
  opt_in_keywords: Type.Array(Type.String()),
  opt_out_confirmation: Nullable,
  opt_in_confirmation: Nullable,
  time_zone: Type.String({
    description: 'IANA time zone: broadcasts scheduled by local time are read in it',
  }),
});

export const WorkspaceResult = Type.Object(
  { result: Type.Literal(true), workspace: WorkspaceSettings },
  {
    examples: [
      {
        result: true,
        workspace: {
          id: 'ws_4kT9qLm2',
          name: 'Acme Support',
          default_country_code: '91',
          plan: 'growth',
          mark_read: true,
          created_at: '2026-03-02T09:15:00.000Z',
          opt_out_keywords: ['stop', 'unsubscribe'],
          opt_in_keywords: ['start'],
          opt_out_confirmation: 'You will get no more messages from us. Reply START to join again.',
          opt_in_confirmation: null,
          time_zone: 'Asia/Kolkata',
        },
      },
    ],
  },
);

const Used = Type.Object({ used: Type.Integer(), limit: Type.Integer() });

/** Plan & usage: the plan's limits beside what was used (messages and leads in this UTC month). */
export const UsageResult = Type.Object(
  {
    result: Type.Literal(true),
    plan: Type.String(),
    contacts: Used,
    messages_this_month: Used,
    leads_this_month: Used,
  },
  {
    examples: [
      {
        result: true,
        plan: 'growth',
        contacts: { used: 1840, limit: 10000 },
        messages_this_month: { used: 5210, limit: 50000 },
        leads_this_month: { used: 96, limit: 2000 },
      },
    ],
  },
);

// A bound on what is read; update-workspace.ts says in words what is too long or too many.
const Keywords = Type.Array(Text({ maxLength: 1000 }), { maxItems: 200 });
const Confirmation = Type.Union([Text({ maxLength: FIELD_LIMITS.consentReply }), Type.Null()]);

/** A change to Settings › General: only the fields given change. */
export const WorkspaceBody = Type.Object(
  {
    name: Type.Optional(WorkspaceName),
    default_country_code: Type.Optional(CountryCode),
    opt_out_keywords: Type.Optional(Keywords),
    opt_in_keywords: Type.Optional(Keywords),
    opt_out_confirmation: Type.Optional(Confirmation),
    opt_in_confirmation: Type.Optional(Confirmation),
    time_zone: Type.Optional(
      Text({
        minLength: 1,
        maxLength: 64,
        description: 'IANA time zone, such as Asia/Kolkata: broadcast times are read in it',
      }),
    ),
    mark_read: Type.Optional(
      Type.Boolean({ description: 'Opening a conversation marks its customer messages read on WhatsApp' }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      { name: 'Acme Support', default_country_code: '91', time_zone: 'Asia/Kolkata', mark_read: true },
    ],
  },
);
