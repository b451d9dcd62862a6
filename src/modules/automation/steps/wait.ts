import type { StepOutcome } from './step.js';

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A wait ends at a time: its next step is queued to start then, so a restart loses nothing. */
export function waitUntil(step: { duration?: string; until?: string }): StepOutcome {
  let until: Date;
  if (step.until) until = new Date(step.until);
  else {
    const amount = Number.parseInt(step.duration!, 10);
    const unit = step.duration!.slice(-1) as keyof typeof UNIT_MS;
    until = new Date(Date.now() + amount * UNIT_MS[unit]);
  }
  return { status: 'done', outcome: { until: until.toISOString() }, waitUntil: until };
}
