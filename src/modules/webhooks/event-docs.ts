import { Type } from 'typebox';
import { broadcastExamples } from '../broadcasts/examples.js';
import { Broadcast } from '../broadcasts/schemas.js';
import { conversationWebhooks } from '../inbox/webhook-docs.js';
import type { WebhookEvent } from './endpoints.js';
import { webhookOperation } from './webhook-operation.js';

// What each outbound event's `data` holds, as its emitter builds it (webhooks/emit.ts's callers):
// test/webhook-events.test.ts makes the server send each one and checks it against these.
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description ? { description } : {});
const Str = Type.String();
const Moment = Type.String({ format: 'date-time' });
const Json = Type.Object({}, { additionalProperties: true });

const MessageStatus = Type.Object({
  id: Type.String({ description: 'The message (GET /messages/{id})' }),
  wamid: Nullable(Str, "The network's id; null until it took the message"),
  status: Type.Union(['accepted', 'sent', 'delivered', 'read', 'failed'].map((s) => Type.Literal(s))),
  callback_data: Nullable(Str, 'What POST /messages was given as `callback_data`'),
  error: Type.Optional(
    Type.Object(
      { code: Type.Integer(), reason: Str },
      { description: "Only on `failed`: the network's error code (0 when none) and reason" },
    ),
  ),
});

const MessageReceived = Type.Object({
  id: Str,
  wamid: Str,
  from: Type.String({ description: "The customer's phone, E.164 digits" }),
  contact_id: Str,
  type: Type.String({ description: 'text, image, button, interactive, location, reaction...' }),
  text: Nullable(
    Str,
    "A text message's body; for other types what a list shows (a caption, a button's title)",
  ),
  content: Nullable(Json, "The type's object in Meta's shape"),
  context: Nullable(Json, 'What it replies to and whether it was forwarded, as GET /messages/{id} shows'),
  referral: Nullable(Json, "The click-to-WhatsApp ad or post it came from, in Meta's shape"),
  received_at: Moment,
});

const LeadCreated = Type.Object({
  id: Str,
  contact_id: Nullable(Str, 'The contact made or matched from its phone; null without one'),
  name: Nullable(Str),
  email: Nullable(Str),
  phone: Nullable(Str, 'E.164 digits'),
  source: Type.Union([Type.Literal('form'), Type.Literal('webhook')]),
  source_id: Type.String({ description: 'The form, or the sequence whose webhook took it' }),
  status: Type.Literal('new'),
  fields: Type.Object({}, { additionalProperties: true, description: 'Every field as submitted' }),
});

const RunFinished = Type.Object({
  run_id: Str,
  automation_id: Str,
  status: Type.Union([Type.Literal('completed'), Type.Literal('failed'), Type.Literal('stopped')]),
  error: Nullable(Str, 'Why it failed or stopped'),
  contact_id: Nullable(Str),
  lead_id: Nullable(Str),
});

const ConsentChanged = Type.Object({
  contact_id: Str,
  phone: Str,
  opted_out: Type.Boolean(),
  at: Moment,
  source: Type.Union(
    ['keyword', 'payload', 'api', 'app', 'whatsapp'].map((s) => Type.Literal(s)),
    {
      description:
        "A keyword the customer wrote, a button's payload, REST v1, the app, or WhatsApp's own marketing preference",
    },
  ),
  message_id: Nullable(Str, "The customer's message that did it"),
  keyword: Nullable(Str),
});

const NumberFields = {
  number_id: Str,
  phone_number_id: Type.String({ description: "Meta's id of the number" }),
  display_phone: Str,
};
const NumberPaused = Type.Object({
  ...NumberFields,
  code: Type.Integer({ description: "Meta's error code that paused it" }),
  reason: Str,
  what_to_do: Type.String({ description: 'How to put it right' }),
  paused_at: Moment,
});
const NumberResumed = Type.Object({
  ...NumberFields,
  code: Nullable(Type.Integer()),
  paused_at: Moment,
  held_messages: Type.Integer({ description: 'Messages held while it was paused, now sent' }),
});

const number = {
  number_id: 'pn_1Rf4',
  phone_number_id: '106540352242922',
  display_phone: '+1 555-000-1111',
};
const contact = { contact_id: 'ct_2bXk9q', phone: '919876543210' };
// The broadcast of GET /broadcasts/{id}'s example, finished: every recipient sent, failed or skipped.
const broadcastExample = {
  ...broadcastExamples.one.broadcast,
  status: 'completed',
  completed_at: '2026-11-28T09:42:10.000Z',
  counts: {
    audience: 1200,
    queued: 0,
    sent: 1185,
    delivered: 1160,
    read: 802,
    failed: 12,
    skipped: 3,
    replied: 57,
  },
  limit: { tier: 'TIER_10K', used_24h: 1197, max_24h: 10000 },
};

/** Every outbound event, for the OpenAPI document's `webhooks`, in the order endpoints list them. */
export const webhookEvents = {
  'message.status': webhookOperation(
    'message.status',
    'messageStatusWebhook',
    'A message sent through Parley moved on: accepted, sent, delivered, read or failed',
    MessageStatus,
    {
      id: 'msg_5rT2kq',
      wamid: 'wamid.HBgMOTE5ODc2NTQzMjEwFQIAERgS',
      status: 'delivered',
      callback_data: 'order-1042',
    },
  ),
  'message.received': webhookOperation(
    'message.received',
    'messageReceivedWebhook',
    'A customer wrote to the number',
    MessageReceived,
    {
      id: 'msg_7Hq1Ze',
      wamid: 'wamid.HBgMOTE5ODc2NTQzMjEwFQIAEhgg',
      from: '919876543210',
      ...{ contact_id: 'ct_2bXk9q' },
      type: 'text',
      text: 'Where is my order?',
      content: null,
      context: null,
      referral: null,
      received_at: '2026-11-28T10:15:02.000Z',
    },
  ),
  'lead.created': webhookOperation(
    'lead.created',
    'leadCreatedWebhook',
    "A form or a sequence's webhook took a lead",
    LeadCreated,
    {
      id: 'ld_0Pq3Ws',
      contact_id: 'ct_2bXk9q',
      name: 'Asha',
      email: 'asha@example.com',
      phone: '919876543210',
      source: 'form',
      source_id: 'fm_8Jt2',
      status: 'new',
      fields: { name: 'Asha', email: 'asha@example.com', budget: '10-20k' },
    },
  ),
  'flow.run.finished': webhookOperation(
    'flow.run.finished',
    'flowRunFinishedWebhook',
    "A flow's or sequence's run ended: completed, failed or stopped",
    RunFinished,
    {
      run_id: 'run_3Xc7',
      automation_id: 'fl_3Lm8Qe',
      status: 'completed',
      error: null,
      contact_id: 'ct_2bXk9q',
      lead_id: null,
    },
  ),
  'contact.opted_out': webhookOperation(
    'contact.opted_out',
    'contactOptedOutWebhook',
    'A contact opted out of marketing messages',
    ConsentChanged,
    {
      ...contact,
      opted_out: true,
      at: '2026-11-28T10:20:00.000Z',
      source: 'keyword',
      message_id: 'msg_2Nd8',
      keyword: 'STOP',
    },
  ),
  'contact.opted_in': webhookOperation(
    'contact.opted_in',
    'contactOptedInWebhook',
    'A contact opted back in to marketing messages',
    ConsentChanged,
    {
      ...contact,
      opted_out: false,
      at: '2026-11-28T10:25:00.000Z',
      source: 'keyword',
      message_id: 'msg_2Nd9',
      keyword: 'START',
    },
  ),
  'broadcast.completed': webhookOperation(
    'broadcast.completed',
    'broadcastCompletedWebhook',
    'A broadcast finished sending, or was cancelled (`status` says which): as GET /broadcasts/{id} shows it',
    Broadcast,
    broadcastExample,
  ),
  'number.paused': webhookOperation(
    'number.paused',
    'numberPausedWebhook',
    "Meta refuses to send from the workspace's number: its sends are held until it is put right",
    NumberPaused,
    {
      ...number,
      code: 131031,
      reason: 'Business account locked',
      what_to_do:
        'Meta locked the WhatsApp Business Account: resolve it in Business Manager, then check again.',
      paused_at: '2026-11-28T11:02:00.000Z',
    },
  ),
  'number.resumed': webhookOperation(
    'number.resumed',
    'numberResumedWebhook',
    'The number was put right: the messages it held are sent',
    NumberResumed,
    { ...number, code: 131031, paused_at: '2026-11-28T11:02:00.000Z', held_messages: 4 },
  ),
  ...conversationWebhooks,
} satisfies Record<WebhookEvent, unknown>;
