import { Type } from 'typebox';

const Day = Type.String({ description: 'A UTC day, YYYY-MM-DD' });

export const DashboardResult = Type.Object({
  result: Type.Literal(true),
  period: Type.Object({ days: Type.Integer(), from: Day, to: Day, time_zone: Type.String() }),
  messages: Type.Array(
    Type.Object({
      day: Day,
      sent: Type.Integer(),
      delivered: Type.Integer(),
      read: Type.Integer(),
      failed: Type.Integer(),
      replied: Type.Integer(),
    }),
  ),
  leads: Type.Array(
    Type.Object({
      form_id: Type.String(),
      form_name: Type.Union([Type.String(), Type.Null()]),
      points: Type.Array(Type.Object({ day: Day, count: Type.Integer() })),
    }),
  ),
  runs: Type.Array(Type.Object({ day: Day, completed: Type.Integer(), failed: Type.Integer() })),
});
