import { type Static, Type } from 'typebox';
import { Text } from '../../http/schema.js';

const HeaderValue = Type.Union(
  [
    Text({ maxLength: 1024, description: "A TEXT header's variable" }),
    Type.Object(
      {
        link: Type.Optional(Text({ maxLength: 2048, description: 'An http(s) URL of the media' })),
        id: Type.Optional(Text({ maxLength: 128, description: 'A media id uploaded to WhatsApp' })),
        filename: Type.Optional(Text({ maxLength: 240, description: 'DOCUMENT headers only' })),
        latitude: Type.Optional(Type.Number({ minimum: -90, maximum: 90 })),
        longitude: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
        name: Type.Optional(Text({ maxLength: 1024 })),
        address: Type.Optional(Text({ maxLength: 1024 })),
      },
      {
        additionalProperties: false,
        description:
          'IMAGE, VIDEO, DOCUMENT: {link} or {id} (and filename for a document); LOCATION: {latitude, longitude, name?, address?}',
      },
    ),
  ],
  { description: "Extension: the header's value, when the template's header takes one" },
);

const ButtonValue = Type.Object(
  {
    index: Type.Integer({ minimum: 0, maximum: 9, description: "The button's position in the template" }),
    payload: Type.Optional(
      Text({ maxLength: 1000, description: 'QUICK_REPLY: what the reply webhook carries' }),
    ),
    text: Type.Optional(Text({ maxLength: 2000, description: 'URL: the suffix for {{1}}; OTP: the code' })),
    coupon_code: Type.Optional(Text({ maxLength: 15, description: 'COPY_CODE: the code to copy' })),
  },
  { additionalProperties: false },
);

/** A template to send: its name and language, and the body's values in order (the spec's shape). */
export const TemplateRef = Type.Object(
  {
    name: Text({ minLength: 1, maxLength: 512 }),
    language: Text({ minLength: 2, maxLength: 15 }),
    body: Type.Optional(
      Type.Union(
        [
          Type.Array(Text({ maxLength: 1024 }), { maxItems: 100 }),
          Type.Record(Type.String({ pattern: '^[a-z_][a-z0-9_]*$' }), Text({ maxLength: 1024 }), {
            maxProperties: 100,
          }),
        ],
        {
          description:
            "The body's values in order; for a NAMED template, also an object keyed by parameter name (extension)",
        },
      ),
    ),
    header: Type.Optional(HeaderValue),
    buttons: Type.Optional(
      Type.Array(ButtonValue, {
        maxItems: 10,
        description: 'Extension: values for the buttons that take one, by index',
      }),
    ),
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
