import { type Static, Type } from 'typebox';
import {
  MaybeText,
  MaybeTimestamp,
  NameText,
  PageCursor,
  PageLimit,
  Text,
  Timestamp,
} from '../../api/schema.js';
import { FIELD_LIMITS } from '../../lib/field-limits.js';
import { ConversationTags } from './label-schemas.js';

export const STATES = ['open', 'pending', 'resolved'] as const;
export type ConversationState = (typeof STATES)[number];
/** Who moved a conversation: a teammate in the app, a bot's step, an API key (REST v1) or routing (auto-assignment). */
export type ChangeVia = 'member' | 'bot' | 'api' | 'routing';

export const FILTERS = ['mine', 'unassigned', 'open', 'snoozed', 'all'] as const;
export type InboxFilter = (typeof FILTERS)[number];

export const SEARCH_MAX = 100;
export const QUICK_REPLIES_MAX = 200;

// Typed as the values' union: a Union of a mapped array's literals is typed never.
const literals = <T extends readonly string[]>(values: T, options?: { description: string }) =>
  Type.Unsafe<T[number]>(
    Type.Union(
      values.map((v) => Type.Literal(v)),
      options,
    ),
  );

export const InboxQuery = Type.Object({
  filter: Type.Optional(literals(FILTERS)),
  q: Type.Optional(Text({ maxLength: SEARCH_MAX })),
  label: Type.Optional(
    Text({ minLength: 1, maxLength: 64, description: "A label's id: only conversations carrying it" }),
  ),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
  cursor: Type.Optional(PageCursor),
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
    title: NameText({ minLength: 1, maxLength: FIELD_LIMITS.quickReplyTitle }),
    text: Text({ minLength: 1, maxLength: FIELD_LIMITS.quickReplyText }),
  },
  { additionalProperties: false },
);

export const QuickRepliesQuery = Type.Object({
  contact_id: Type.Optional(Text({ minLength: 1, maxLength: 64 })),
});

/** A row of the inbox: a contact's conversation with its last message. */
const InboxRow = Type.Object({
  contact_id: Type.String(),
  name: MaybeText,
  phone: Type.String(),
  state: literals(STATES),
  assignee_id: MaybeText,
  assignee_name: MaybeText,
  team_id: MaybeText,
  team_name: MaybeText,
  last_message_at: Timestamp,
  team_read_at: MaybeTimestamp,
  last_id: MaybeText,
  last_direction: Type.Union([Type.Literal('inbound'), Type.Literal('outbound'), Type.Null()]),
  last_type: MaybeText,
  last_text: MaybeText,
  last_template_name: MaybeText,
  last_status: MaybeText,
  last_content_removed: Type.Boolean({ description: "Data retention removed the last message's content" }),
  unread: Type.Integer({ description: 'Customer messages since the team last read it, at most 100' }),
  bot_name: Type.Union([Type.String(), Type.Null()], {
    description: "The bot answering the conversation (its automation's name), or null when none is",
  }),
  ...ConversationTags.properties,
  match: Type.Union([Type.String(), Type.Null()], {
    description:
      "With a search: the newest of the contact's messages whose text matched, or null when the name or phone did",
  }),
});
export type InboxRow = Static<typeof InboxRow>;

const count = Type.Integer({ description: 'At most 1,000 (read as "1,000 or more")' });
const InboxCounts = Type.Object(
  { open: count, mine: count, unassigned: count, snoozed: count, all: count },
  { description: 'How many conversations each filter holds, whatever the search' },
);

export const InboxResult = Type.Object({
  result: Type.Literal(true),
  conversations: Type.Array(InboxRow),
  unread_conversations: Type.Integer(),
  counts: Type.Union([InboxCounts, Type.Null()], { description: 'On the first page (no cursor) only' }),
  wakes_at: Type.Union([Timestamp, Type.Null()], {
    description:
      'When the next snoozed conversation wakes (on the first page only): read the list again then',
  }),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
  limit: Type.Integer(),
});

export const UnreadResult = Type.Object({ result: Type.Literal(true), unread_conversations: Type.Integer() });

export const ConversationStateView = Type.Object({
  state: literals(STATES),
  assignee_id: MaybeText,
  assignee_name: MaybeText,
  team_id: MaybeText,
  team_name: Type.Union([Type.String(), Type.Null()], {
    description: 'The team the conversation belongs to',
  }),
  team_read_at: MaybeTimestamp,
  bot: Type.Union([
    Type.Object(
      {
        run_id: Type.String(),
        automation_id: Type.String(),
        name: Type.String(),
        waiting_for_answer: Type.Boolean(),
      },
      { description: 'The bot answering the conversation; a reply from the team stops it' },
    ),
    Type.Null(),
  ]),
  bot_waiting: Type.Union([
    Type.Object(
      { run_id: Type.String(), name: Type.String() },
      { description: 'A bot that handed the conversation to the team and takes it back when handed back' },
    ),
    Type.Null(),
  ]),
  ...ConversationTags.properties,
});
export type ConversationStateView = Static<typeof ConversationStateView>;

export const ConversationStateResult = Type.Object({
  result: Type.Literal(true),
  conversation: ConversationStateView,
});

/** An internal note of a conversation, with its author's name. */
export const ConversationNote = Type.Object({
  id: Type.String(),
  text: Type.String(),
  author_id: MaybeText,
  author_name: MaybeText,
  created_at: Timestamp,
  /** The members its text mentions as `<@usr_…>`: the page shows their names there. */
  mentions: Type.Array(Type.Object({ user_id: Type.String(), name: Type.String() })),
});
export type ConversationNote = Static<typeof ConversationNote>;

export const NewNoteResult = Type.Object({
  result: Type.Literal(true),
  id: Type.String(),
  created_at: Timestamp,
});

const QuickReply = Type.Object({
  id: Type.String(),
  title: Type.String(),
  text: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
  filled: Type.Optional(
    Type.String({ description: "The text with the contact's values, when one is given" }),
  ),
});
export type QuickReply = Static<typeof QuickReply>;

export const QuickReplyListResult = Type.Object({
  result: Type.Literal(true),
  quick_replies: Type.Array(QuickReply),
});

export const NewQuickReplyResult = Type.Object({ result: Type.Literal(true), id: Type.String() });

// REST v1 conversations (v1-routes.ts): a conversation's id is its contact's id.

export const API_STATUSES = ['open', 'resolved', 'all'] as const;

export const ApiConversationQuery = Type.Object({
  status: Type.Optional(
    literals(API_STATUSES, {
      description: '`open` covers open and pending conversations; `all` (the default) every one',
    }),
  ),
  assignee: Type.Optional(
    Text({
      minLength: 1,
      maxLength: 64,
      description: "A member's user id (their conversations), or `unassigned`",
    }),
  ),
  label: Type.Optional(
    Text({ minLength: 1, maxLength: 64, description: "A label's id: only conversations carrying it" }),
  ),
  limit: PageLimit,
  cursor: Type.Optional(PageCursor),
});

export const ApiPageQuery = Type.Object({
  limit: PageLimit,
  cursor: Type.Optional(PageCursor),
});

const NextCursor = Type.Union([Type.String(), Type.Null()], {
  description: 'Send it back as `cursor` for the next page; null on the last page',
});

/** A conversation as REST v1 shows it, for the OpenAPI examples. */
export const CONVERSATION_EXAMPLE = {
  id: 'ct_2bXk9q',
  contact: { id: 'ct_2bXk9q', phone: '919876543210', name: 'Asha' },
  status: 'open',
  assignee: { id: 'usr_7Qm2', name: 'Ravi' },
  team: { id: 'team_4Hs1', name: 'Sales' },
  unread_count: 2,
  window: { open: true, closes_at: '2026-11-29T10:15:02.000Z' },
  last_message_at: '2026-11-28T10:15:02.000Z',
  created_at: '2026-11-27T08:01:44.120Z',
  bot: null,
  bot_waiting: null,
  labels: [{ id: 'lbl_8Kp2', name: 'VIP', colour: 'purple' }],
  snoozed_until: null,
  snoozed_until_reply: false,
};

export const ApiConversation = Type.Object(
  {
    id: Type.String({ description: "The conversation's id: its contact's id" }),
    contact: Type.Object({ id: Type.String(), phone: Type.String(), name: MaybeText }),
    status: literals(STATES),
    assignee: Type.Union([Type.Object({ id: Type.String(), name: Type.String() }), Type.Null()], {
      description: 'The member who has it, or null when no one has',
    }),
    team: Type.Union([Type.Object({ id: Type.String(), name: Type.String() }), Type.Null()], {
      description:
        'The team it was given to (POST .../assign with team_id, automatic assignment, a bot), or null',
    }),
    unread_count: Type.Integer({ description: 'Customer messages since the team last read it, at most 100' }),
    window: Type.Object(
      {
        open: Type.Boolean({ description: 'A text or media message may be sent now' }),
        closes_at: Type.Union([Timestamp, Type.Null()], {
          description: "24 hours after the customer's last message; null if they never wrote",
        }),
      },
      {
        description:
          "WhatsApp's customer service window: free-form messages while it is open, templates only after",
      },
    ),
    last_message_at: MaybeTimestamp,
    created_at: Timestamp,
    bot: Type.Union([Type.Object({ automation_id: Type.String(), name: Type.String() }), Type.Null()], {
      description: 'The bot answering the conversation (a reply from the team stops it), or null',
    }),
    bot_waiting: Type.Union(
      [Type.Object({ automation_id: Type.String(), name: Type.String() }), Type.Null()],
      {
        description:
          'The bot that handed the conversation to the team and waits to take it back (POST .../bot/resume), or null',
      },
    ),
    ...ConversationTags.properties,
  },
  { examples: [CONVERSATION_EXAMPLE] },
);
export type ApiConversation = Static<typeof ApiConversation>;

export const ApiConversationList = Type.Object({
  result: Type.Literal(true),
  conversations: Type.Array(ApiConversation),
  next_cursor: NextCursor,
});

export const ApiConversationResult = Type.Object({
  result: Type.Literal(true),
  conversation: ApiConversation,
});

export const ApiAssignBody = Type.Object(
  {
    member_id: Type.Optional(
      Type.Union([Text({ minLength: 1, maxLength: 64 }), Type.Null()], {
        description: "A member's user id, or null to leave it to no one",
      }),
    ),
    team_id: Type.Optional(
      Text({
        minLength: 1,
        maxLength: 64,
        description: "A team's id: round robin among its available members",
      }),
    ),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    maxProperties: 1,
    examples: [{ member_id: 'usr_7Qm2' }, { team_id: 'team_4Hs1' }, { member_id: null }],
  },
);

export const ApiNoteBody = Type.Object(
  { text: Text({ minLength: 1, maxLength: FIELD_LIMITS.conversationNote }) },
  {
    additionalProperties: false,
    examples: [{ text: 'Refund approved by the order bot; waiting for the courier.' }],
  },
);
