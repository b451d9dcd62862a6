import { type Static, Type } from 'typebox';
import { AnyKey, Text } from '../../http/schema.js';

export const TrackEventBody = Type.Object(
  {
    phone: Text({
      minLength: 1,
      maxLength: 32,
      description:
        'With country code (+ or 00 optional), or national when the workspace has a default country code',
    }),
    event: Text({
      minLength: 1,
      maxLength: 100,
      description: 'Matched against the triggers of published flows',
    }),
    properties: Type.Optional(
      Type.Record(AnyKey, Text({ maxLength: 1024 }), {
        maxProperties: 100,
        propertyNames: Text({ minLength: 1, maxLength: 64 }),
        description: 'Values are strings',
      }),
    ),
  },
  { additionalProperties: false },
);
export type TrackEventBody = Static<typeof TrackEventBody>;

export const TrackEventResult = Type.Object({
  result: Type.Literal(true),
  id: Type.String({ description: 'The event id' }),
  flows_started: Type.Integer({
    description: 'Published flows whose trigger matched; their runs start from the queue',
  }),
});
