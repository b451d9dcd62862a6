import { type Static, Type } from 'typebox';
import { AnyKey, MaybeText, PageFields, Timestamp } from '../../api/schema.js';
import { AUDITED_ENTITIES, type AuditedEntity } from './record-audit.js';

export const AuditQuery = Type.Object({
  entity: Type.Optional(Type.Unsafe<AuditedEntity>({ type: 'string', enum: [...AUDITED_ENTITIES] })),
  limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  offset: Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0 }),
});

/** One change: who made it (a teammate, an API key or Parley itself), to what, and what it changed. */
const AuditEntry = Type.Object({
  id: Type.String(),
  actor_type: Type.Union([Type.Literal('user'), Type.Literal('api_key'), Type.Literal('system')]),
  actor_id: MaybeText,
  actor_name: Type.Union([Type.String(), Type.Null()], {
    description: "The teammate's or key's name; null for Parley itself or a teammate who has left",
  }),
  action: Type.String(),
  entity_type: Type.String(),
  entity_id: Type.String(),
  changes: Type.Record(AnyKey, Type.Unknown(), {
    description: 'The fields named, and small values such as a role',
  }),
  created_at: Timestamp,
});
export type AuditEntry = Static<typeof AuditEntry>;

export const AuditListResult = Type.Object({
  result: Type.Literal(true),
  entries: Type.Array(AuditEntry),
  ...PageFields,
});
