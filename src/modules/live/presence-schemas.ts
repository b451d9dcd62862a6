import { type Static, Type } from 'typebox';
import { Text } from '../../api/schema.js';
import { PRESENCE_STATES } from './presence.js';

export const PresenceBody = Type.Object(
  {
    contact_id: Text({ minLength: 1, maxLength: 64 }),
    state: Type.Union(PRESENCE_STATES.map((s) => Type.Literal(s))),
  },
  { additionalProperties: false },
);

export const PresenceList = Type.Object({
  result: Type.Literal(true),
  presence: Type.Array(
    Type.Object({
      user_id: Type.String(),
      name: Type.String(),
      contact_id: Type.String(),
      state: Type.Union([Type.Literal('viewing'), Type.Literal('replying')]),
      ttl_ms: Type.Integer(),
    }),
  ),
});
export type PresenceList = Static<typeof PresenceList>;
