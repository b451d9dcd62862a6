import { type Static, Type } from 'typebox';
import { AnyKey, MaybeText, MaybeTimestamp, Timestamp } from '../../api/schema.js';
import { ConversationNote, ConversationStateView } from './schemas.js';

/** Meta's objects as the network sent them (or Parley sent them): every field may be missing. */
const Json = Type.Record(AnyKey, Type.Unknown());
const maybeJson = (description: string) => Type.Union([Json, Type.Null()], { description });
const maybeJsonList = (description: string) => Type.Union([Type.Array(Json), Type.Null()], { description });

const Direction = Type.Union([Type.Literal('inbound'), Type.Literal('outbound')]);

/** A message of a conversation with what the page draws it from (inbox/conversation.ts). */
export const ConversationMessage = Type.Object({
  id: Type.String(),
  direction: Direction,
  contact_id: Type.String(),
  phone: Type.String(),
  type: Type.String(),
  template_name: MaybeText,
  template_language: MaybeText,
  template_values: Type.Union([Type.Array(Type.String()), Type.Null()]),
  text: MaybeText,
  status: Type.String(),
  error_code: Type.Union([Type.Integer(), Type.Null()]),
  error_reason: MaybeText,
  created_at: Timestamp,
  updated_at: Timestamp,
  wamid: MaybeText,
  content: maybeJson(
    "The type's object in Meta's shape: as received (inbound), or as sent (outbound media, interactive...)",
  ),
  context_wamid: MaybeText,
  reply_to: MaybeText,
  context: maybeJson("Inbound: Meta's context (forwarded, frequently_forwarded, referred_product)"),
  referral: maybeJson('Inbound: the click-to-WhatsApp ad the customer came from'),
  team_read_at: MaybeTimestamp,
  content_removed_at: Type.Union([Timestamp, Type.Null()], {
    description: "When data retention removed the message's content (Settings › Workspace › Data retention)",
  }),
  template_components: maybeJsonList(
    'The values it was sent with, as Graph send components (header, body, button parameters)',
  ),
  template_body: MaybeText,
  template_definition: maybeJsonList(
    "The template as created: HEADER, BODY, FOOTER, BUTTONS in Meta's shape",
  ),
  sent_via: Type.Union(
    [
      Type.Literal('teammate'),
      Type.Literal('api'),
      Type.Literal('flow'),
      Type.Literal('bot'),
      Type.Literal('survey'),
      Type.Literal('automatic'),
      Type.Null(),
    ],
    {
      description:
        'Outbound: how it was sent (bot: by the automation answering the conversation; survey: the satisfaction survey; automatic: the away message or greeting)',
    },
  ),
  sent_by: MaybeText,
  sender_name: MaybeText,
  quoted: Type.Union(
    [
      Type.Object({
        id: Type.String(),
        direction: Direction,
        type: Type.String(),
        text: MaybeText,
        template_name: MaybeText,
        content: maybeJson("The type's object in Meta's shape"),
      }),
      Type.Null(),
    ],
    { description: 'The message this one replies to, when Parley has it' },
  ),
  media_status: Type.Union(
    [
      Type.Literal('pending'),
      Type.Literal('stored'),
      Type.Literal('refused'),
      Type.Literal('removed'),
      Type.Null(),
    ],
    {
      description:
        'Inbound media: pending while Parley downloads it, stored once GET /messages/{id}/media serves it, refused when it never will, removed when data retention took it; null for a message without a download',
    },
  ),
  media_size: Type.Union([Type.Number(), Type.Null()], { description: 'Bytes of the stored file' }),
});
export type ConversationMessage = Static<typeof ConversationMessage>;

export const ConversationContact = Type.Object({
  id: Type.String(),
  phone: Type.String(),
  name: MaybeText,
  email: MaybeText,
  window_open: Type.Boolean(),
  window_closes_at: MaybeTimestamp,
  opted_out: Type.Boolean({ description: 'Opted out of marketing templates' }),
  opted_out_at: MaybeTimestamp,
  opt_out_source: Type.Union(
    [
      Type.Literal('keyword'),
      Type.Literal('payload'),
      Type.Literal('api'),
      Type.Literal('app'),
      Type.Literal('whatsapp'),
      Type.Null(),
    ],
    {
      description:
        "How the contact opted out: keyword (wrote STOP or the workspace's word, in opt_out_keyword), payload (tapped a button), api, app (a teammate), whatsapp (WhatsApp's marketing preference); null when opted in",
    },
  ),
  opt_out_keyword: MaybeText,
});
export type ConversationContact = Static<typeof ConversationContact>;

/** GET /api/app/conversations/:id: the contact, its conversation's state, messages and notes. */
export const ConversationResult = Type.Object({
  result: Type.Literal(true),
  contact: ConversationContact,
  conversation: ConversationStateView,
  messages: Type.Array(ConversationMessage),
  notes: Type.Array(ConversationNote),
  number_connected: Type.Boolean(),
  window: Type.Object({ open: Type.Boolean(), closes_at: MaybeTimestamp }),
});
