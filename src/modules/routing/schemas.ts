import { type Static, Type } from 'typebox';
import { NameText, Text, Timestamp } from '../../api/schema.js';

export const AVAILABILITIES = ['online', 'away'] as const;
export type Availability = (typeof AVAILABILITIES)[number];

export const TEAM_MEMBERS_MAX = 200;
/** Teams a workspace may have: its list is one page, read on every conversation. */
export const TEAMS_MAX = 100;
export const IDLE_MINUTES_DEFAULT = 15;

const Id = Text({ minLength: 1, maxLength: 64 });
const Cap = Type.Union([Type.Integer({ minimum: 1, maximum: 1000 }), Type.Null()], {
  description:
    'Open and pending conversations a member may hold before round robin passes them by; null: no cap',
});
const AvailabilityValue = Type.Unsafe<Availability>(Type.Union(AVAILABILITIES.map((a) => Type.Literal(a))));

export const TeamBody = Type.Object(
  {
    name: NameText({ minLength: 1, maxLength: 80 }),
    max_open_per_member: Type.Optional(Cap),
    member_ids: Type.Optional(Type.Array(Id, { maxItems: TEAM_MEMBERS_MAX, uniqueItems: true })),
  },
  { additionalProperties: false },
);
export type TeamBody = Static<typeof TeamBody>;

export const TeamPatch = Type.Partial(TeamBody, { additionalProperties: false, minProperties: 1 });
export type TeamPatch = Static<typeof TeamPatch>;

const TeamMember = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  availability: AvailabilityValue,
  available: Type.Boolean({
    description: 'Online and seen within the idle limit: round robin may pick them',
  }),
  last_seen_at: Type.Union([Timestamp, Type.Null()]),
  open_count: Type.Integer({ description: 'Open and pending conversations assigned to them' }),
  last_assigned_at: Type.Union([Timestamp, Type.Null()]),
});

export const Team = Type.Object({
  id: Type.String(),
  name: Type.String(),
  max_open_per_member: Type.Union([Type.Integer(), Type.Null()]),
  members: Type.Array(TeamMember),
  created_at: Timestamp,
});
export type Team = Static<typeof Team>;

export const TeamResult = Type.Object({ result: Type.Literal(true), team: Team });
export const TeamListResult = Type.Object({ result: Type.Literal(true), teams: Type.Array(Team) });

export const RoutingSettings = Type.Object({
  auto_assign_team_id: Type.Union([Id, Type.Null()], {
    description: "New conversations go round robin to this team's available members; null: off",
  }),
  idle_minutes: Type.Integer({
    minimum: 1,
    maximum: 1440,
    description: 'An online member not seen for this long counts as away',
  }),
});
export type RoutingSettings = Static<typeof RoutingSettings>;

export const RoutingBody = Type.Object(RoutingSettings.properties, { additionalProperties: false });
export const RoutingResult = Type.Object({ result: Type.Literal(true), routing: RoutingSettings });

export const AvailabilityBody = Type.Object(
  { availability: AvailabilityValue },
  { additionalProperties: false },
);
export const AvailabilityResult = Type.Object({
  result: Type.Literal(true),
  availability: AvailabilityValue,
  available: Type.Boolean(),
  idle_minutes: Type.Integer(),
});

export const ConversationTeamBody = Type.Object({ team_id: Id }, { additionalProperties: false });
export const ConversationTeamResult = Type.Object({
  result: Type.Literal(true),
  team_id: Type.String(),
  assignee_id: Type.Union([Type.String(), Type.Null()], {
    description:
      'The member round robin picked; null: nobody was available, the conversation waits in the team',
  }),
});
