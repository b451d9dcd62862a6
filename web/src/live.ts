import { useEffect, useRef, useState } from 'react';
import type { LiveKind as Announced } from '../../src/modules/live/live-kinds';
import { api, invalidate } from './api';
import type { UnreadCount } from './server-types';

/**
 * What the server announces (GET /api/app/events), `presence` (who is viewing or replying where,
 * pages/inbox/Presence.tsx) and `refresh`: load everything again, notices may have been missed.
 */
export type LiveKind = Announced | 'presence' | 'refresh';

export interface LiveEvent {
  kind: LiveKind;
  contact_id: string | null;
  message_id: string | null;
  direction: 'inbound' | 'outbound' | null;
  /** The event's data as sent (a presence's fields). */
  data?: Record<string, unknown>;
}

type Handler = (e: LiveEvent) => void;

const handlers = new Set<{ kinds: readonly LiveKind[]; fn: Handler }>();
let source: EventSource | null = null;
let retry: ReturnType<typeof setTimeout> | undefined;
// Past the first connection, every reopening may have missed something the server could not replay.
let opened = false;

// One listener per kind: the Record holds this to the server's list (a kind missing or unknown fails to compile).
const KINDS = Object.keys({
  message: 1,
  status: 1,
  conversation: 1,
  note: 1,
  broadcast: 1,
  contact: 1,
  lead: 1,
  notification: 1,
  presence: 1,
  refresh: 1,
} satisfies Record<LiveKind, 1>) as LiveKind[];
const RETRY_MS = 10_000;

function deliver(e: LiveEvent): void {
  for (const h of handlers) if (h.kinds.includes(e.kind)) h.fn(e);
}

/**
 * One EventSource for the whole page, open while anything listens. The browser reconnects by itself
 * with Last-Event-ID; when the server closed it for good (a refusal: too many tabs, signed out) it is
 * opened again later, and the page told to refresh.
 */
function connect(): void {
  if (source || typeof EventSource === 'undefined') return;
  const s = new EventSource('/api/app/events');
  source = s;
  for (const kind of KINDS) {
    s.addEventListener(kind, (m) => {
      const data = JSON.parse((m as MessageEvent<string>).data || '{}') as Partial<LiveEvent> &
        Record<string, unknown>;
      deliver({
        kind,
        contact_id: data.contact_id ?? null,
        message_id: data.message_id ?? null,
        direction: data.direction ?? null,
        data,
      });
    });
  }
  s.addEventListener('open', () => {
    if (opened) deliver({ kind: 'refresh', contact_id: null, message_id: null, direction: null });
    opened = true;
  });
  s.addEventListener('error', () => {
    if (s.readyState !== EventSource.CLOSED) return;
    source = null;
    clearTimeout(retry);
    retry = setTimeout(() => handlers.size > 0 && connect(), RETRY_MS);
  });
}

function disconnect(): void {
  clearTimeout(retry);
  source?.close();
  source = null;
  opened = false;
}

/** Calls `handler` for each live event of one of `kinds` while the component is shown. */
export function useLiveEvents(kinds: readonly LiveKind[], handler: Handler): void {
  const latest = useRef(handler);
  latest.current = handler;
  const key = kinds.join(',');
  useEffect(() => {
    const entry = { kinds: key.split(',') as LiveKind[], fn: (e: LiveEvent) => latest.current(e) };
    handlers.add(entry);
    connect();
    return () => {
      handlers.delete(entry);
      if (handlers.size === 0) disconnect();
    };
  }, [key]);
}

/**
 * Runs `load` when one of `kinds` arrives, at most once per `everyMs` (a bulk send announces every
 * message: a page reloads once for the lot, not once each).
 */
export function useLiveReload(kinds: readonly LiveKind[], load: () => void, everyMs = 1_000): void {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const pending = useRef(false);
  const latest = useRef(load);
  latest.current = load;
  useEffect(() => () => clearTimeout(timer.current), []);
  const quiet = () => {
    timer.current = setTimeout(() => {
      timer.current = undefined;
      if (!pending.current) return;
      pending.current = false;
      latest.current();
      quiet();
    }, everyMs);
  };
  useLiveEvents(kinds, () => {
    if (timer.current !== undefined) {
      pending.current = true;
      return;
    }
    latest.current();
    quiet();
  });
}

/**
 * Marks the cached answers under `prefix` stale when one of `kinds` arrives, at most once a second:
 * those on screen fetch again, the rest when next shown. Held by the shell, not a page, so a list
 * visited again within the cache's 30 s is not shown as it was before the change.
 */
export function useLiveInvalidation(kinds: readonly LiveKind[], prefix: string): void {
  useLiveReload(kinds, () => void invalidate(prefix));
}

/** How many conversations hold customer messages nobody in the team has read, kept live. */
export function useUnreadConversations(): number {
  const [count, setCount] = useState(0);
  const load = () => {
    api<UnreadCount>('GET', '/inbox/unread').then(
      (r) => setCount(r.unread_conversations),
      () => {},
    );
  };
  useEffect(load, []);
  useLiveReload(['message', 'conversation', 'refresh'], load);
  return count;
}
