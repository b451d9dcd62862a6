// No imports: the web app takes its LiveKind type from here (a type-only import, erased by its build).
/** What the live stream announces, one SSE event name each (migrations 0021, 0025, 0028, 0029, 0044). */
export const LIVE_KINDS = [
  'message',
  'status',
  'conversation',
  'note',
  'broadcast',
  'contact',
  'lead',
  'notification',
] as const;
export type LiveKind = (typeof LIVE_KINDS)[number];
