import { Type } from 'typebox';
import { MaybeTimestamp, Timestamp } from '../../api/schema.js';

/** Settings › Developer: live keys first; never the key itself, only its first characters. */
export const ApiKeyListResult = Type.Object({
  result: Type.Literal(true),
  api_keys: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      display_prefix: Type.String(),
      created_at: Timestamp,
      last_used_at: MaybeTimestamp,
      revoked_at: MaybeTimestamp,
    }),
  ),
});

/** Answered once, when the key is made: only its hash is kept. */
export const NewApiKeyResult = Type.Object({
  result: Type.Literal(true),
  id: Type.String(),
  key: Type.String(),
  display_prefix: Type.String(),
});
