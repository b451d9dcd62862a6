import { Type } from 'typebox';
import { Timestamp } from '../../api/schema.js';

const Nullable = Type.Union([Type.String(), Type.Null()]);

/** Settings › General: the workspace as its owner edits it. */
export const WorkspaceSettings = Type.Object({
  id: Type.String(),
  name: Type.String(),
  default_country_code: Nullable,
  plan: Type.String(),
  mark_read: Type.Boolean(),
  created_at: Timestamp,
  opt_out_keywords: Type.Array(Type.String()),
  opt_in_keywords: Type.Array(Type.String()),
  opt_out_confirmation: Nullable,
  opt_in_confirmation: Nullable,
  time_zone: Type.String({
    description: 'IANA time zone: broadcasts scheduled by local time are read in it',
  }),
});

export const WorkspaceResult = Type.Object({ result: Type.Literal(true), workspace: WorkspaceSettings });

const Used = Type.Object({ used: Type.Integer(), limit: Type.Integer() });

/** Plan & usage: the plan's limits beside what was used (messages and leads in this UTC month). */
export const UsageResult = Type.Object(
  {
    result: Type.Literal(true),
    plan: Type.String(),
    contacts: Used,
    messages_this_month: Used,
    leads_this_month: Used,
  },
  {
    examples: [
      {
        result: true,
        plan: 'growth',
        contacts: { used: 1840, limit: 10000 },
        messages_this_month: { used: 5210, limit: 50000 },
        leads_this_month: { used: 96, limit: 2000 },
      },
    ],
  },
);
