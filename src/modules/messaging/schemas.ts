import { type Static, Type } from 'typebox';
import { MaybeTimestamp, Text, Timestamp } from '../../api/schema.js';

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

// A body value: text, or (extension) a parameter in Meta's shape, checked field by field in
// meta-parameter.ts so that each fault is named at its own field.
const BodyValue = Type.Union([
  Text({ maxLength: 1024 }),
  Type.Object(
    {},
    {
      additionalProperties: true,
      maxProperties: 4,
      description:
        'Extension: `{"type": "currency", "currency": {"fallback_value", "code", "amount_1000"}}`, `{"type": "date_time", "date_time": {"fallback_value"}}` or `{"type": "text", "text"}`',
    },
  ),
]);

/** A template to send: its name and language, and the body's values in order (the spec's shape). */
export const TemplateRef = Type.Object(
  {
    name: Text({ minLength: 1, maxLength: 512 }),
    language: Text({ minLength: 2, maxLength: 15 }),
    body: Type.Optional(
      Type.Union(
        [
          Type.Array(BodyValue, { maxItems: 100 }),
          Type.Record(Type.String({ pattern: '^[a-z_][a-z0-9_]*$' }), BodyValue, {
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

const media = (description: string, extra: Record<string, ReturnType<typeof Text>> = {}) =>
  Type.Object(
    {
      link: Type.Optional(Text({ maxLength: 2048, description: 'An http(s) URL the network fetches' })),
      id: Type.Optional(Text({ maxLength: 128, description: 'A media id uploaded to WhatsApp' })),
      ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, Type.Optional(v)])),
    },
    { additionalProperties: false, description: `Extension, Meta's shape: ${description}; {link} or {id}` },
  );
const caption = Text({ maxLength: 1024 });

const InteractiveText = (maxLength: number) =>
  Type.Object({ text: Text({ minLength: 1, maxLength }) }, { additionalProperties: false });

const Interactive = Type.Object(
  {
    type: Type.Union([Type.Literal('button'), Type.Literal('list'), Type.Literal('cta_url')]),
    header: Type.Optional(
      Type.Object(
        {
          type: Type.Union([
            Type.Literal('text'),
            Type.Literal('image'),
            Type.Literal('video'),
            Type.Literal('document'),
          ]),
          text: Type.Optional(Text({ minLength: 1, maxLength: 60 })),
          image: Type.Optional(media('image header')),
          video: Type.Optional(media('video header')),
          document: Type.Optional(media('document header', { filename: Text({ maxLength: 240 }) })),
        },
        { additionalProperties: false, description: 'A list takes a text header only' },
      ),
    ),
    body: InteractiveText(4096),
    footer: Type.Optional(InteractiveText(60)),
    action: Type.Object(
      {
        name: Type.Optional(Type.Literal('cta_url', { description: "cta_url: the action's name" })),
        parameters: Type.Optional(
          Type.Object(
            {
              display_text: Text({ minLength: 1, maxLength: 20, description: "The button's label" }),
              url: Text({ minLength: 1, maxLength: 2000, description: 'The http(s) URL the button opens' }),
            },
            { additionalProperties: false, description: 'cta_url: the button' },
          ),
        ),
        buttons: Type.Optional(
          Type.Array(
            Type.Object(
              {
                type: Type.Literal('reply'),
                reply: Type.Object(
                  {
                    id: Text({ minLength: 1, maxLength: 256 }),
                    title: Text({ minLength: 1, maxLength: 20 }),
                  },
                  { additionalProperties: false },
                ),
              },
              { additionalProperties: false },
            ),
            { minItems: 1, maxItems: 3, description: 'button: 1 to 3 reply buttons, ids and titles unique' },
          ),
        ),
        button: Type.Optional(
          Text({ minLength: 1, maxLength: 20, description: "list: the menu button's text" }),
        ),
        sections: Type.Optional(
          Type.Array(
            Type.Object(
              {
                title: Type.Optional(Text({ minLength: 1, maxLength: 24 })),
                rows: Type.Array(
                  Type.Object(
                    {
                      id: Text({ minLength: 1, maxLength: 200 }),
                      title: Text({ minLength: 1, maxLength: 24 }),
                      description: Type.Optional(Text({ maxLength: 72 })),
                    },
                    { additionalProperties: false },
                  ),
                  { minItems: 1, maxItems: 10 },
                ),
              },
              { additionalProperties: false },
            ),
            {
              minItems: 1,
              maxItems: 10,
              description: 'list: up to 10 rows in all; a title on each section when there are several',
            },
          ),
        ),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    description:
      "Extension, Meta's shape: reply buttons (`button`, body ≤ 1,024), a `list` message, or a call-to-action URL button (`cta_url`, body ≤ 1,024)",
  },
);

const field = (maxLength: number) => Type.Optional(Text({ maxLength }));
const typedList = <P extends Record<string, ReturnType<typeof Text>>>(value: P) =>
  Type.Optional(
    Type.Array(Type.Object({ ...value, type: field(32) }, { additionalProperties: false }), {
      maxItems: 20,
      description: 'HOME or WORK in `type`',
    }),
  );

/** One contact card, in Meta's shape: only the formatted name is required. */
const ContactCard = Type.Object(
  {
    name: Type.Object(
      {
        formatted_name: Text({ minLength: 1, maxLength: 512, description: 'The name shown on the card' }),
        first_name: field(256),
        last_name: field(256),
        middle_name: field(256),
        suffix: field(64),
        prefix: field(64),
      },
      { additionalProperties: false },
    ),
    phones: Type.Optional(
      Type.Array(
        Type.Object(
          {
            phone: Text({ minLength: 1, maxLength: 64 }),
            type: field(32),
            wa_id: Type.Optional(
              Type.String({ pattern: '^[0-9]{1,20}$', description: "The contact's WhatsApp id" }),
            ),
          },
          { additionalProperties: false },
        ),
        { maxItems: 20, description: 'HOME, WORK, CELL, MAIN, IPHONE in `type`' },
      ),
    ),
    emails: typedList({ email: Text({ minLength: 1, maxLength: 320 }) }),
    urls: typedList({ url: Text({ minLength: 1, maxLength: 2000 }) }),
    addresses: Type.Optional(
      Type.Array(
        Type.Object(
          {
            street: field(512),
            city: field(256),
            state: field(256),
            zip: field(32),
            country: field(256),
            country_code: field(8),
            type: field(32),
          },
          { additionalProperties: false },
        ),
        { maxItems: 20 },
      ),
    ),
    org: Type.Optional(
      Type.Object(
        { company: field(256), department: field(256), title: field(256) },
        { additionalProperties: false },
      ),
    ),
    birthday: Type.Optional(
      Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'YYYY-MM-DD' }),
    ),
  },
  { additionalProperties: false },
);

export type RichType = Exclude<NonNullable<SendMessageBody['type']>, 'template' | 'text'>;

export const SendMessageBody = Type.Object(
  {
    to: Text({ minLength: 1, maxLength: 32, description: 'Recipient phone, with or without country code' }),
    type: Type.Optional(
      Type.Union(
        [
          Type.Literal('template'),
          Type.Literal('text'),
          Type.Literal('image'),
          Type.Literal('video'),
          Type.Literal('audio'),
          Type.Literal('document'),
          Type.Literal('sticker'),
          Type.Literal('interactive'),
          Type.Literal('location'),
          Type.Literal('reaction'),
          Type.Literal('contacts'),
        ],
        {
          default: 'template',
          description: 'Extension: the types besides template and text, inside the 24-hour window only',
        },
      ),
    ),
    template: Type.Optional(TemplateRef),
    text: Type.Optional(Text({ minLength: 1, maxLength: 4096, description: 'The text of a `text` message' })),
    image: Type.Optional(media('image (JPEG, PNG; 5 MB)', { caption })),
    video: Type.Optional(media('video (MP4, 3GPP; 16 MB)', { caption })),
    audio: Type.Optional(media('audio (AAC, AMR, MP3, MP4 audio, OGG; 16 MB)')),
    document: Type.Optional(media('document (100 MB)', { caption, filename: Text({ maxLength: 240 }) })),
    sticker: Type.Optional(media('sticker (WebP; 100 KB static, 500 KB animated)')),
    interactive: Type.Optional(Interactive),
    location: Type.Optional(
      Type.Object(
        {
          latitude: Type.Number({ minimum: -90, maximum: 90 }),
          longitude: Type.Number({ minimum: -180, maximum: 180 }),
          name: Type.Optional(Text({ maxLength: 1024 })),
          address: Type.Optional(Text({ maxLength: 1024 })),
        },
        { additionalProperties: false, description: "Extension, Meta's shape" },
      ),
    ),
    reaction: Type.Optional(
      Type.Object(
        {
          message_id: Text({
            minLength: 1,
            maxLength: 256,
            description: 'The wamid of a message in this conversation',
          }),
          emoji: Text({ maxLength: 16, description: 'An emoji; empty removes the reaction' }),
        },
        { additionalProperties: false, description: "Extension, Meta's shape" },
      ),
    ),
    contacts: Type.Optional(
      Type.Array(ContactCard, {
        minItems: 1,
        maxItems: 20,
        description: "Extension, Meta's shape: contact cards (name.formatted_name required)",
      }),
    ),
    callback_data: Type.Optional(Text({ maxLength: 512 })),
  },
  { additionalProperties: false },
);
export type SendMessageBody = Static<typeof SendMessageBody>;

export const MessageStatusSchema = Type.Union([
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
  status: MessageStatusSchema,
});

export const MessageView = Type.Object({
  result: Type.Literal(true),
  id: Type.String(),
  direction: Type.String(),
  to: Type.String(),
  type: Type.String(),
  wamid: Type.Union([Type.String(), Type.Null()]),
  status: MessageStatusSchema,
  callback_data: Type.Union([Type.String(), Type.Null()]),
  error: Type.Union([Type.Object({ code: Type.Integer(), reason: Type.String() }), Type.Null()]),
  text: Type.Union([Type.String(), Type.Null()], {
    description:
      "Extension: a text message's body; for other inbound types what a list shows (a button's title, a caption...)",
  }),
  content: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], {
    description:
      "Extension: the type's object in Meta's shape — for an inbound message as the network sent it (`button` {payload, text}, " +
      '`interactive` {button_reply | list_reply}, media {id, mime_type, caption, filename}, `location`, `reaction`, ' +
      '`{contacts: [...]}`, `{errors}` for `unsupported`); for an outbound media, interactive, location or reaction message as sent, and contacts as `{contacts: [...]}`',
  }),
  context: Type.Union(
    [
      Type.Object(
        {
          wamid: Type.Union([Type.String(), Type.Null()], {
            description: 'The network id of the message replied or reacted to',
          }),
          message_id: Type.Union([Type.String(), Type.Null()], {
            description: "Parley's id for that message, when Parley has it",
          }),
          forwarded: Type.Boolean(),
          frequently_forwarded: Type.Boolean(),
          referred_product: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], {
            description: 'The catalog item asked about: {catalog_id, product_retailer_id}',
          }),
        },
        { additionalProperties: false },
      ),
      Type.Null(),
    ],
    { description: 'Extension, inbound only: what the message replies to and whether it was forwarded' },
  ),
  referral: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], {
    description:
      "Extension, inbound only: the click-to-WhatsApp ad or post the customer came from, in Meta's shape (source_url, source_type, source_id, headline, body, ctwa_clid...)",
  }),
  created_at: Type.String(),
  updated_at: Type.String(),
});

/** The workspace's connected number as the app and REST v1 show it; never its access token or app secret. */
export const ConnectedNumberView = Type.Object({
  id: Type.String(),
  display_phone: Type.String(),
  phone_number_id: Type.String({ description: "Meta's id of the phone number" }),
  business_account_id: Type.String({ description: "Meta's id of the WhatsApp Business Account" }),
  provider: Type.Union([Type.Literal('simulator'), Type.Literal('whatsapp_cloud_api')]),
  status: Type.Union([Type.Literal('connected'), Type.Literal('paused')]),
  paused: Type.Union(
    [
      Type.Object({
        at: Timestamp,
        code: Type.Integer({ description: "Meta's error code" }),
        reason: Type.String({ description: "Meta's words" }),
        what_to_do: Type.Union([Type.String(), Type.Null()]),
      }),
      Type.Null(),
    ],
    {
      description:
        'Meta refuses to send from the number (its token, account or payment): its sends are held and its broadcasts paused until it is put right (a new access token saved, or POST /number/check)',
    },
  ),
  webhook_url: Type.String(),
  verified_name: Type.Union([Type.String(), Type.Null()]),
  quality_rating: Type.Union([Type.String(), Type.Null()]),
  messaging_limit_tier: Type.Union([Type.String(), Type.Null()]),
  templates_synced_at: MaybeTimestamp,
  connected_at: Timestamp,
});

/** What Meta's app settings need: the callback URL, and the verify token for those who may connect a number. */
export const NumberWebhook = Type.Object({
  callback_url: Type.String(),
  verify_token: Type.Optional(Type.String({ description: 'Only to those who may connect a number' })),
});

/** Settings › Connected number: the number (null until one is connected) and what Meta's app settings need. */
export const NumberResult = Type.Object({
  result: Type.Literal(true),
  simulator_available: Type.Boolean(),
  webhook: NumberWebhook,
  number: Type.Union([ConnectedNumberView, Type.Null()]),
});

// Meta's ids are numbers; tokens and secrets are opaque, printable and short.
const GraphId = Type.String({ pattern: '^[0-9]{1,32}$' });
const Opaque = Type.String({ minLength: 1, maxLength: 1024, pattern: '^[\\x21-\\x7e]+$' });

/** A real WhatsApp Cloud API number to connect (the app's form and REST v1's PUT /number). */
export const ConnectNumberBody = Type.Object(
  { phone_number_id: GraphId, business_account_id: GraphId, access_token: Opaque, app_secret: Opaque },
  { additionalProperties: false },
);

/** A message as REST v1 shows it, for the documents' examples. */
export const MESSAGE_EXAMPLE = {
  id: 'msg_7Hq1Ze',
  direction: 'inbound',
  to: '15550001111',
  type: 'text',
  wamid: 'wamid.HBgMOTE5ODc2NTQzMjEwFQIAEhgg',
  status: 'read',
  callback_data: null,
  error: null,
  text: 'Where is my order?',
  content: null,
  context: null,
  referral: null,
  created_at: '2026-11-28T10:15:02.000Z',
  updated_at: '2026-11-28T10:15:30.000Z',
} as const;
