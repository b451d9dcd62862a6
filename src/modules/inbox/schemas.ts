import { Type } from 'typebox';
import { Text } from '../../http/schema.js';
import { FIELD_LIMITS } from '../../lib/field-limits.js';

export const STATES = ['open', 'pending', 'resolved'] as const;
export type ConversationState = (typeof STATES)[number];

export const FILTERS = ['mine', 'unassigned', 'open', 'all'] as const;
export type InboxFilter = (typeof FILTERS)[number];

export const SEARCH_MAX = 100;
export const QUICK_REPLIES_MAX = 200;

const literals = <T extends readonly string[]>(values: T) => Type.Union(values.map((v) => Type.Literal(v)));

export const InboxQuery = Type.Object({
  filter: Type.Optional(literals(FILTERS)),
  q: Type.Optional(Text({ maxLength: SEARCH_MAX })),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
  offset: Type.Integer({ minimum: 0, maximum: 100_000, default: 0 }),
});

export const ConversationChange = Type.Object(
  {
    state: Type.Optional(literals(STATES)),
    assignee_id: Type.Optional(Type.Union([Text({ minLength: 1, maxLength: 64 }), Type.Null()])),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const NoteBody = Type.Object(
  { text: Text({ minLength: 1, maxLength: FIELD_LIMITS.conversationNote }) },
  { additionalProperties: false },
);

export const QuickReplyBody = Type.Object(
  {
    title: Text({ minLength: 1, maxLength: FIELD_LIMITS.quickReplyTitle }),
    text: Text({ minLength: 1, maxLength: FIELD_LIMITS.quickReplyText }),
  },
  { additionalProperties: false },
);

export const QuickRepliesQuery = Type.Object({
  contact_id: Type.Optional(Text({ minLength: 1, maxLength: 64 })),
});
