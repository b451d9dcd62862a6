import { useEffect, useState } from 'react';
import type { PresenceList } from '../../../../src/modules/live/presence-schemas';
import { api } from '../../api';
import { useLiveEvents } from '../../live';
import { useSession } from '../../session';
import './mentions.css';

type Presence = PresenceList['presence'][number];
type Held = Presence & { until: number };

// How often an open conversation says "viewing" again (the server holds it 30 s: live/presence.ts).
const SAY_EVERY_MS = 10_000;
// Typing within this long counts as replying.
const REPLYING_FOR_MS = 15_000;

// One board for the page: the list's markers and the open conversation read the same.
const held = new Map<string, Held>();
const listeners = new Set<() => void>();
const changed = () => {
  for (const l of listeners) l();
};
let loaded = false;

function hear(p: Presence | (Omit<Presence, 'state'> & { state: 'left' })): void {
  const key = `${p.user_id}|${p.contact_id}`;
  if (p.state === 'left') held.delete(key);
  else held.set(key, { ...p, until: Date.now() + p.ttl_ms });
  changed();
}

let sweep: ReturnType<typeof setInterval> | undefined;
let lastHeard: unknown;

/** The teammates (not oneself) viewing or replying, per conversation, kept live. */
function usePresenceBoard(): Held[] {
  const { session } = useSession();
  const [, setTick] = useState(0);
  useEffect(() => {
    const l = () => setTick((n) => n + 1);
    listeners.add(l);
    if (!loaded) {
      loaded = true;
      api<PresenceList>('GET', '/presence').then(
        (r) => r.presence.forEach(hear),
        () => {
          loaded = false;
        },
      );
    }
    // Expired presences go without a word from the server: look again every few seconds.
    sweep ??= setInterval(changed, 5_000);
    return () => {
      listeners.delete(l);
      if (listeners.size > 0) return;
      clearInterval(sweep);
      sweep = undefined;
    };
  }, []);
  // Every board on the page gets the same event: it is heard once. A stream (re)opened is told
  // who is there by the server, so a reconnection needs no reload.
  useLiveEvents(['presence'], (e) => {
    if (e === lastHeard || !e.data) return;
    lastHeard = e;
    hear(e.data as unknown as Presence);
  });
  const now = Date.now();
  return [...held.values()].filter((p) => p.until > now && p.user_id !== session.user.id);
}

let replyingAt = 0;
let replyingTo = '';
let lastSaid = { contactId: '', state: '', at: 0 };

type Said = { contactId: string; state: 'viewing' | 'replying' | 'left' };
// Posts leave at most one every POST_GAP_MS (under the server's 60 a minute): what waits is the
// newest state per conversation, and a "left" for a conversation never announced is not sent.
const POST_GAP_MS = 1_200;
let waiting: Said[] = [];
const announced = new Set<string>();
let lastPostAt = 0;
let flushTimer: ReturnType<typeof setTimeout> | undefined;

function flush(): void {
  flushTimer = undefined;
  const next = waiting.shift();
  if (!next) return;
  lastPostAt = Date.now();
  if (next.state === 'left') announced.delete(next.contactId);
  else announced.add(next.contactId);
  // Presence is a courtesy: a refusal (the rate limit, a conversation gone) is not the page's concern.
  api('POST', '/presence', { contact_id: next.contactId, state: next.state }).catch(() => {});
  if (waiting.length > 0) flushTimer = setTimeout(flush, POST_GAP_MS);
}

function post(said: Said): void {
  waiting = waiting.filter((w) => w.contactId !== said.contactId);
  if (said.state !== 'left' || announced.has(said.contactId)) waiting.push(said);
  if (flushTimer) return;
  flushTimer = setTimeout(flush, Math.max(0, lastPostAt + POST_GAP_MS - Date.now()));
}

function say(contactId: string, state: Said['state'], force = false): void {
  const now = Date.now();
  const same = lastSaid.contactId === contactId && lastSaid.state === state;
  if (same && !force && now - lastSaid.at < SAY_EVERY_MS) return;
  lastSaid = { contactId, state, at: now };
  post({ contactId, state });
}

/** Called as the teammate types in the reply box: "is replying", said at most every 10 s. */
export function typingReply(contactId: string): void {
  replyingAt = Date.now();
  replyingTo = contactId;
  say(contactId, 'replying');
}

const current = (contactId: string) =>
  replyingTo === contactId && Date.now() - replyingAt < REPLYING_FOR_MS ? 'replying' : 'viewing';

/**
 * "Tara is viewing" / "Tara is replying" for the open conversation; while shown, it tells the
 * others this teammate is viewing it (or replying), and that they left when it goes.
 */
export function PresenceNote({ contactId }: { contactId: string }) {
  const others = usePresenceBoard().filter((p) => p.contact_id === contactId);
  useEffect(() => {
    say(contactId, current(contactId), true);
    const every = setInterval(() => say(contactId, current(contactId)), SAY_EVERY_MS / 2);
    return () => {
      clearInterval(every);
      say(contactId, 'left', true);
    };
  }, [contactId]);
  return (
    <p className="presence-note small" role="status">
      {others.map((p) => (
        <span key={p.user_id} className={`presence ${p.state}`}>
          <span className="presence-dot" aria-hidden="true" />
          {p.name} is {p.state}
        </span>
      ))}
    </p>
  );
}

/** A small marker on a conversation's row while a teammate has it open. */
export function PresenceMarker({ contactId }: { contactId: string }) {
  const here = usePresenceBoard().filter((p) => p.contact_id === contactId);
  if (here.length === 0) return null;
  const words = here.map((p) => `${p.name} is ${p.state}`).join(', ');
  return (
    <span className="presence-marker" title={words}>
      <span className="presence-dot" aria-hidden="true" />
      <span className="sr-only">{words}</span>
    </span>
  );
}
