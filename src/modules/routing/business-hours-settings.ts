import { ApiError } from '../../api/errors.js';
import type { Db, Queryable } from '../../db/db.js';
import { type Actor, recordAudit } from '../audit/record-audit.js';
import { type Hours, insideBusinessHours } from './business-hours.js';
import { type BusinessHours, type BusinessHoursBody, DAYS } from './business-hours-schemas.js';

export const DEFAULT_AWAY =
  "Thanks for your message! We're closed right now; we'll reply as soon as we're back.";
export const DEFAULT_GREETING = 'Hi! Thanks for getting in touch. A teammate will be with you shortly.';
const MAX_INTERVALS = 3;
const MAX_HOLIDAYS = 100;

interface Row {
  schedule: BusinessHoursBody['schedule'];
  holidays: BusinessHoursBody['holidays'];
  away_enabled: boolean;
  away_text: string;
  greeting_enabled: boolean;
  greeting_text: string;
  time_zone: string;
}

/** The workspace's business hours and time zone; none set: no schedule, both messages off. */
async function settingsRow(db: Queryable, workspaceId: string): Promise<Row> {
  const { rows } = await db.query<Row>(
    `SELECT b.schedule, COALESCE(b.holidays, '[]'::jsonb) AS holidays,
       COALESCE(b.away_enabled, false) AS away_enabled, COALESCE(b.away_text, $2) AS away_text,
       COALESCE(b.greeting_enabled, false) AS greeting_enabled, COALESCE(b.greeting_text, $3) AS greeting_text,
       w.time_zone
     FROM workspaces w LEFT JOIN business_hours b ON b.workspace_id = w.id
     WHERE w.id = $1`,
    [workspaceId, DEFAULT_AWAY, DEFAULT_GREETING],
  );
  if (!rows[0]) throw new ApiError('not_found', 'No workspace with that id');
  return rows[0];
}

export async function businessHoursOf(
  db: Queryable,
  workspaceId: string,
  now = new Date(),
): Promise<BusinessHours> {
  const r = await settingsRow(db, workspaceId);
  return {
    schedule: r.schedule,
    holidays: r.holidays,
    away: { enabled: r.away_enabled, text: r.away_text },
    greeting: { enabled: r.greeting_enabled, text: r.greeting_text },
    time_zone: r.time_zone,
    inside_now: insideBusinessHours(r, r.time_zone, now),
  };
}

/** What the away and greeting subscriber reads: the hours, the zone and both messages. */
export async function hoursSettings(db: Queryable, workspaceId: string) {
  const r = await settingsRow(db, workspaceId);
  return {
    hours: r as Hours,
    timeZone: r.time_zone,
    away: r.away_enabled ? r.away_text : null,
    greeting: r.greeting_enabled ? r.greeting_text : null,
  };
}

/** Whether the workspace is inside its business hours at `at`. */
export async function insideHoursAt(db: Queryable, workspaceId: string, at: Date): Promise<boolean> {
  const r = await settingsRow(db, workspaceId);
  return insideBusinessHours(r, r.time_zone, at);
}

const CLOCK = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

function isRealDate(date: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return false;
  const d = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === date;
}

type Problem = { field: string; message: string };

/** Everything wrong with the setting, each at its field (`schedule.mon.0.to`), in plain words. */
function problemsOf(body: BusinessHoursBody): Problem[] {
  const problems: Problem[] = [];
  const at = (field: string, message: string) => problems.push({ field, message });
  for (const day of DAYS) {
    const intervals = body.schedule?.[day] ?? [];
    if (intervals.length > MAX_INTERVALS)
      at(`schedule.${day}`, `Use at most ${MAX_INTERVALS} opening times a day.`);
    intervals.forEach((i, n) => {
      const field = `schedule.${day}.${n}`;
      const fromOk = CLOCK.test(i.from);
      const toOk = CLOCK.test(i.to) || i.to === '24:00';
      if (!fromOk) at(`${field}.from`, 'Write times as HH:MM, such as 09:00.');
      if (!toOk) at(`${field}.to`, 'Write times as HH:MM, such as 17:30 (24:00 for midnight).');
      if (fromOk && toOk && i.from >= i.to)
        at(`${field}.to`, 'End after the start; for hours past midnight, open the next day at 00:00.');
    });
    const sorted = intervals
      .map((i, n) => ({ ...i, n }))
      .filter((i) => CLOCK.test(i.from) && i.from < i.to)
      .sort((a, b) => a.from.localeCompare(b.from));
    for (let k = 1; k < sorted.length; k++) {
      if (sorted[k]!.from < sorted[k - 1]!.to)
        at(`schedule.${day}.${sorted[k]!.n}.from`, 'This overlaps another opening time of the same day.');
    }
  }
  if (body.holidays.length > MAX_HOLIDAYS) at('holidays', `Keep at most ${MAX_HOLIDAYS} holidays.`);
  const dates = new Set<string>();
  body.holidays.forEach((h, n) => {
    if (!isRealDate(h.date)) at(`holidays.${n}.date`, 'Enter a date as YYYY-MM-DD, such as 2026-12-25.');
    else if (dates.has(h.date)) at(`holidays.${n}.date`, 'Another holiday has this date.');
    dates.add(h.date);
    if (!h.name.trim()) at(`holidays.${n}.name`, 'Give the holiday a name.');
  });
  for (const kind of ['away', 'greeting'] as const) {
    if (body[kind].enabled && !body[kind].text.trim())
      at(`${kind}.text`, `Write the ${kind === 'away' ? 'away message' : 'greeting'} to turn it on.`);
  }
  return problems;
}

/** Replaces the workspace's business hours (Settings › Business hours); refuses with every problem named. */
export async function saveBusinessHours(
  db: Db,
  workspaceId: string,
  body: BusinessHoursBody,
  actor: Actor,
): Promise<BusinessHours> {
  const problems = problemsOf(body);
  if (problems.length > 0)
    throw new ApiError(
      'validation_error',
      problems.map((p) => `${p.field}: ${p.message}`).join('; '),
      problems,
    );
  const schedule = body.schedule
    ? Object.fromEntries(
        DAYS.map((d) => [d, [...(body.schedule?.[d] ?? [])].sort((a, b) => a.from.localeCompare(b.from))]),
      )
    : null;
  const holidays = [...body.holidays]
    .map((h) => ({ date: h.date, name: h.name.trim() }))
    .sort((a, b) => a.date.localeCompare(b.date));
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO business_hours (workspace_id, schedule, holidays, away_enabled, away_text, greeting_enabled,
       greeting_text)
     VALUES ($1, $2::jsonb, $3::jsonb, $4, $5, $6, $7)
     ON CONFLICT (workspace_id) DO UPDATE SET schedule = EXCLUDED.schedule, holidays = EXCLUDED.holidays,
       away_enabled = EXCLUDED.away_enabled, away_text = EXCLUDED.away_text,
       greeting_enabled = EXCLUDED.greeting_enabled, greeting_text = EXCLUDED.greeting_text, updated_at = now()`,
      [
        workspaceId,
        schedule === null ? null : JSON.stringify(schedule),
        JSON.stringify(holidays),
        body.away.enabled,
        body.away.text.trim(),
        body.greeting.enabled,
        body.greeting.text.trim(),
      ],
    );
    const changes = { schedule: schedule !== null, away: body.away.enabled, greeting: body.greeting.enabled };
    await recordAudit(tx, {
      workspaceId,
      actor,
      action: 'update',
      entityType: 'business_hours',
      entityId: workspaceId,
      changes,
    });
  });
  return businessHoursOf(db, workspaceId);
}
