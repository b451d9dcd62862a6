import { type Static, Type } from 'typebox';
import { NameText, Text } from '../../api/schema.js';

// Times and dates are read as loose text here and checked in business-hours-settings.ts, which says
// in plain words what is wrong with one ("Write times as HH:MM, such as 09:00").
const Clock = Type.String({
  maxLength: 16,
  description: 'HH:MM in the workspace time zone; "24:00" as an end',
});
const Interval = Type.Object({ from: Clock, to: Clock }, { additionalProperties: false });
const Day = Type.Array(Interval, {
  maxItems: 10,
  description: 'up to 3 open intervals; empty: closed all day',
});

export const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type DayName = (typeof DAYS)[number];

const Schedule = Type.Object(
  {
    mon: Type.Optional(Day),
    tue: Type.Optional(Day),
    wed: Type.Optional(Day),
    thu: Type.Optional(Day),
    fri: Type.Optional(Day),
    sat: Type.Optional(Day),
    sun: Type.Optional(Day),
  },
  { additionalProperties: false, description: 'a day left out is closed all day' },
);
export type Schedule = Static<typeof Schedule>;

const Holiday = Type.Object(
  {
    date: Type.String({ maxLength: 32, description: 'YYYY-MM-DD in the workspace time zone' }),
    name: NameText({ maxLength: 100 }),
  },
  { additionalProperties: false },
);
export type Holiday = Static<typeof Holiday>;

const AutoMessage = (what: string) =>
  Type.Object(
    { enabled: Type.Boolean(), text: Text({ maxLength: 4096, description: what }) },
    { additionalProperties: false },
  );

const Fields = {
  schedule: Type.Union([Schedule, Type.Null()], { description: 'null: always inside business hours' }),
  holidays: Type.Array(Holiday, { maxItems: 200, description: 'closed all day; at most 100' }),
  away: AutoMessage('sent outside business hours, once per contact in 12 hours'),
  greeting: AutoMessage("sent for a contact's first message ever, inside business hours"),
};

/** PUT /api/app/business-hours: the whole setting. */
export const BusinessHoursBody = Type.Object(Fields, { additionalProperties: false });
export type BusinessHoursBody = Static<typeof BusinessHoursBody>;

/** Settings › Business hours, as stored, with the zone it is read in and whether now is inside. */
export const BusinessHours = Type.Object({
  ...Fields,
  time_zone: Type.String({ description: "the workspace's time zone (Settings › General)" }),
  inside_now: Type.Boolean(),
});
export type BusinessHours = Static<typeof BusinessHours>;

export const BusinessHoursResult = Type.Object({ result: Type.Literal(true), business_hours: BusinessHours });
export type BusinessHoursResult = Static<typeof BusinessHoursResult>;
