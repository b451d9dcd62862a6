import type { StepOutcome } from './step.js';

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A duration such as `30s`, `10m`, `2h` or `3d` (checked by the definition's schema), in ms. */
export function durationMs(duration: string): number {
  return Number.parseInt(duration, 10) * UNIT_MS[duration.slice(-1) as keyof typeof UNIT_MS];
}

/** A wait ends at a time: its next step is queued to start then, so a restart loses nothing. */
export function waitUntil(step: { duration?: string; until?: string }): StepOutcome {
  let until: Date;
  if (step.until) until = new Date(step.until);
  else until = new Date(Date.now() + durationMs(step.duration!));
  return { status: 'done', outcome: { until: until.toISOString() }, waitUntil: until };
}
