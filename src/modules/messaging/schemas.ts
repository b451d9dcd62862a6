import { type Static, Type } from 'typebox';
import { Text } from '../../http/schema.js';

/** A template to send: its name and language, and the body's values in order. */
export const TemplateRef = Type.Object(
  {
    name: Text({ minLength: 1, maxLength: 512 }),
    language: Text({ minLength: 2, maxLength: 15 }),
    body: Type.Optional(Type.Array(Text({ maxLength: 1024 }), { maxItems: 100 })),
  },
  { additionalProperties: false },
);

export const SendMessageBody = Type.Object(
  {
    to: Text({ minLength: 1, maxLength: 32, description: 'Recipient phone, with or without country code' }),
    type: Type.Optional(
      Type.Union([Type.Literal('template'), Type.Literal('text')], { default: 'template' }),
    ),
    template: Type.Optional(TemplateRef),
    text: Type.Optional(Text({ minLength: 1, maxLength: 4096, description: 'The text of a `text` message' })),
    callback_data: Type.Optional(Text({ maxLength: 512 })),
  },
  { additionalProperties: false },
);
export type SendMessageBody = Static<typeof SendMessageBody>;

const Status = Type.Union([
  Type.Literal('queued'),
  Type.Literal('accepted'),
  Type.Literal('sent'),
  Type.Literal('delivered'),
  Type.Literal('read'),
  Type.Literal('failed'),
]);

export const SendMessageResult = Type.Object({
  result: Type.Literal(true),
  id: Type.String(),
  wamid: Type.Union([Type.String(), Type.Null()]),
  status: Status,
});

export const MessageView = Type.Object({
  result: Type.Literal(true),
  id: Type.String(),
  direction: Type.String(),
  to: Type.String(),
  type: Type.String(),
  wamid: Type.Union([Type.String(), Type.Null()]),
  status: Status,
  callback_data: Type.Union([Type.String(), Type.Null()]),
  error: Type.Union([Type.Object({ code: Type.Integer(), reason: Type.String() }), Type.Null()]),
  created_at: Type.String(),
  updated_at: Type.String(),
});
