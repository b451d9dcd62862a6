import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors.js';
import type { ListenHandlers } from '../../db/db.js';
import type { LiveEventRow } from './live-event-feed.js';
import { LiveHub, type LiveLimits, SSE_REFRESH } from './live-hub.js';

const quiet = { warn: () => {}, info: () => {} };
const LIMITS: LiveLimits = {
  perSession: 2,
  perUser: 3,
  perWorkspace: 5,
  total: 8,
  heartbeatMs: 20,
  maxAgeMs: 60_000,
  pollMs: 1,
};

/**
 * A hub on a fake live_events and LISTEN: `notify` commits a row and resolves once the hub read it;
 * `rows` are the table's, `watches` the workspaces it marked watched.
 */
async function hub(limits = LIMITS) {
  let handlers: ListenHandlers | undefined;
  const watches: unknown[] = [];
  const rows: LiveEventRow[] = [];
  let read = 0;
  const h = new LiveHub(quiet, limits);
  await h.start({
    listen: async (_channel, given) => {
      handlers = given;
      given.listening();
      return async () => {};
    },
    query: async <R extends object>(text: string, params: unknown[] = []) => {
      if (text.includes('live_watchers')) {
        watches.push(params[0]);
        const newest = Math.max(0, ...rows.map((r) => Number(r.id)));
        return { rows: [{ newest: String(newest), committed: rows.map((r) => r.id) }] as R[] };
      }
      const [after, gaps] = params as [number, number[]];
      const found = rows.filter((r) => Number(r.id) > after || gaps.includes(Number(r.id)));
      read = Math.max(read, ...found.map((r) => Number(r.id)));
      return { rows: found as R[] };
    },
  });
  const notify = async (
    w: string,
    kind = 'message',
    c = 'ct_1',
    m: string | null = 'msg_1',
    only: string | null = null,
  ) => {
    const id = rows.push({
      id: String(rows.length + 1),
      workspace_id: w,
      kind,
      contact_id: c,
      message_id: m,
      direction: 'inbound',
      user_id: only,
    });
    while (read < id) await sleep(1);
    await sleep(0);
  };
  return { h, notify, handlers: handlers!, watches, rows };
}

const row = (id: number): LiveEventRow => ({
  id: String(id),
  workspace_id: 'ws_a',
  kind: 'message',
  contact_id: 'c',
  message_id: `msg_${id}`,
  direction: null,
  user_id: null,
});

afterEach(() => {
  vi.useRealTimers();
});

function stream(
  h: LiveHub,
  workspaceId: string,
  sessionKey = `s-${Math.random()}`,
  userId = `u-${sessionKey}`,
) {
  const written: string[] = [];
  let ended = false;
  const close = h.open({
    workspaceId,
    sessionKey,
    userId,
    write: (t) => written.push(t),
    end: () => (ended = true),
  });
  return { written, close, ended: () => ended };
}

describe('LiveHub', () => {
  it('writes an event to the streams of its workspace only, ignoring malformed ones', async () => {
    const { h, notify, handlers } = await hub();
    await h.watch('ws_a');
    const a = stream(h, 'ws_a');
    const b = stream(h, 'ws_b');
    await notify('ws_a');
    await notify('ws_a', 'drop_table');
    for (const bad of [
      '',
      'null',
      'not json',
      '{"w": 1, "k": "message"}',
      '{"w": "ws_a", "k": "drop"}',
      '{"k": "session_ended"}',
      '{"k": "member_changed", "w": "ws_a"}',
      // Contacts and leads are rows of live_events since migrations/0029, no longer notices.
      '{"w": "ws_a", "k": "contact", "c": "ct_2"}',
    ])
      handlers.notice(bad);
    const events = (s: { written: string[] }) => s.written.filter((t) => !t.startsWith(':'));
    expect(events(a)).toHaveLength(1);
    expect(a.ended()).toBe(false);
    expect(events(a)[0]).toMatch(
      /^id: \w+-1\nevent: message\ndata: \{"contact_id":"ct_1","message_id":"msg_1","direction":"inbound"\}\n\n$/,
    );
    expect(events(b)).toEqual([]);
    await notify('ws_a', 'contact', 'ct_2', null);
    expect(events(a)[1]).toMatch(
      /^id: \w+-2\nevent: contact\ndata: \{"contact_id":"ct_2","message_id":null,/,
    );
    await h.stop();
  });

  it("writes a member's own event (a notice) to that member's streams only, and replays it to them only", async () => {
    const { h, notify } = await hub();
    await h.watch('ws_a');
    const tara = stream(h, 'ws_a', 's-tara', 'usr_tara');
    const ben = stream(h, 'ws_a', 's-ben', 'usr_ben');
    const elsewhere = stream(h, 'ws_b', 's-tara-b', 'usr_tara');
    await notify('ws_a', 'notification', 'ct_1', null, 'usr_tara');
    const events = (s: { written: string[] }) => s.written.filter((t) => !t.startsWith(':'));
    expect(events(tara)).toHaveLength(1);
    expect(events(tara)[0]).toMatch(/^id: \w+-1\nevent: notification\ndata: \{"contact_id":"ct_1"/);
    expect(events(ben)).toEqual([]);
    expect(events(elsewhere)).toEqual([]);
    await notify('ws_a');
    const first = events(tara)[0]!.slice(4, events(tara)[0]!.indexOf('\n'));
    expect(h.recent('ws_a', 'usr_tara').map((e) => e.kind)).toEqual(['notification', 'message']);
    expect(h.recent('ws_a', 'usr_ben').map((e) => e.kind)).toEqual(['message']);
    expect(h.since('ws_a', first, 'usr_ben')?.map((e) => e.kind)).toEqual(['message']);
    await h.stop();
  });

  it('reads each event once, one committed after a later one included', async () => {
    const { h, notify, rows } = await hub();
    await h.watch('ws_a');
    const a = stream(h, 'ws_a');
    // Row 2 is taken by a transaction still in flight when row 3 commits.
    rows.push(row(1), row(3));
    await sleep(20);
    rows.splice(1, 0, row(2));
    await notify('ws_a', 'message', 'c', 'msg_4');
    await sleep(20);
    expect(h.recent('ws_a').map((e) => e.message_id)).toEqual(['msg_1', 'msg_3', 'msg_2', 'msg_4']);
    expect(a.written.filter((t) => !t.startsWith(':'))).toHaveLength(4);
    await h.stop();
  });

  it('starts after the events committed before its first watch, and reads one in flight then', async () => {
    const { h, notify, rows } = await hub();
    rows.push(row(1), row(3));
    await h.watch('ws_a');
    rows.splice(1, 0, row(2));
    await notify('ws_a', 'message', 'c', 'msg_4');
    await sleep(20);
    expect(h.recent('ws_a').map((e) => e.message_id)).toEqual(['msg_2', 'msg_4']);
    await h.stop();
  });

  it('replays what a reconnecting stream missed, or says to refresh when it cannot tell', async () => {
    const { h, notify, handlers } = await hub();
    await h.watch('ws_a');
    await h.watch('ws_b');
    await notify('ws_a', 'message', 'ct_1', 'msg_1');
    const [first] = h.recent('ws_a');
    await notify('ws_a', 'status', 'ct_1', 'msg_2');
    await notify('ws_b', 'message', 'ct_9', 'msg_9');
    expect(h.since('ws_a', first!.id)?.map((e) => e.message_id)).toEqual(['msg_2']);
    expect(h.since('ws_b', first!.id)?.map((e) => e.message_id)).toEqual(['msg_9']);
    expect(h.since('ws_a', 'other-1')).toBeNull();
    expect(h.since('ws_a', `${first!.id.split('-')[0]}-1000`)).toBeNull();
    // Past the 200 kept, the oldest are gone: a stream that saw only them must refresh.
    for (let i = 0; i < 200; i++) await notify('ws_a');
    expect(h.since('ws_a', first!.id)).toBeNull();
    // Only ended sessions come as notices: losing them loses no event, so nothing is refreshed.
    const s = stream(h, 'ws_a');
    const last = h.recent('ws_a').at(-1)!;
    handlers.lost(new Error('gone'));
    await notify('ws_a', 'message', 'ct_1', 'msg_3');
    expect(h.since('ws_a', last.id)?.map((e) => e.message_id)).toEqual(['msg_3']);
    handlers.listening();
    expect(s.written).not.toContain(SSE_REFRESH);
    await h.stop();
  });

  it('marks a workspace watched once a minute at most, and says to refresh after its watch lapsed', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { h, notify, watches } = await hub();
    await h.watch('ws_a');
    await h.watch('ws_a');
    expect(watches).toEqual(['ws_a']);
    await notify('ws_a', 'message', 'ct_1', 'msg_1');
    const [first] = h.recent('ws_a');
    expect(h.since('ws_a', first!.id)).toEqual([]);
    expect(h.since('ws_never', first!.id)).toBeNull();
    vi.setSystemTime(Date.now() + 61_000);
    await h.watch('ws_a');
    expect(watches).toEqual(['ws_a', 'ws_a']);
    expect(h.since('ws_a', first!.id)).toEqual([]);
    // Ten minutes without a browser: changes were not announced, so what was missed cannot be told.
    vi.setSystemTime(Date.now() + 11 * 60_000);
    await h.watch('ws_a');
    expect(h.since('ws_a', first!.id)).toBeNull();
    await h.stop();
  });

  it('bounds the streams of a session and of the instance, and ends them when stopped', async () => {
    const { h } = await hub({ ...LIMITS, total: 3 });
    const one = stream(h, 'ws_a', 'session-1');
    stream(h, 'ws_a', 'session-1');
    expect(() => stream(h, 'ws_a', 'session-1')).toThrow(ApiError);
    one.close();
    const again = stream(h, 'ws_a', 'session-1');
    stream(h, 'ws_b', 'session-2');
    expect(() => stream(h, 'ws_c', 'session-3')).toThrow(/as many live connections/);
    await h.stop();
    expect(again.ended()).toBe(true);
    expect(h.openStreams).toBe(0);
    expect(() => stream(h, 'ws_a')).toThrow(/shutting down/);
  });

  it('bounds the streams of a user and of a workspace, so one workspace never denies another', async () => {
    const { h } = await hub();
    // One user over two sessions, to the user's bound.
    stream(h, 'ws_a', 's-1', 'u-1');
    stream(h, 'ws_a', 's-1', 'u-1');
    stream(h, 'ws_a', 's-2', 'u-1');
    expect(() => stream(h, 'ws_a', 's-3', 'u-1')).toThrow(/At most 3 live connections per person/);
    // A teammate still connects, up to the workspace's bound.
    stream(h, 'ws_a', 's-4', 'u-2');
    const teammate = stream(h, 'ws_a', 's-4', 'u-2');
    expect(() => stream(h, 'ws_a', 's-5', 'u-3')).toThrow(/This workspace holds as many live connections/);
    // Another workspace's members connect regardless.
    stream(h, 'ws_b', 's-6', 'u-4');
    stream(h, 'ws_b', 's-6', 'u-4');
    stream(h, 'ws_b', 's-7', 'u-5');
    expect(h.openStreams).toBe(8);
    teammate.close();
    stream(h, 'ws_a', 's-5', 'u-3');
    await h.stop();
  });

  it('ends a changed member’s streams of that workspace only, whatever their session', async () => {
    const { h, handlers } = await hub();
    const theirs = stream(h, 'ws_a', 's-1', 'u-1');
    const elsewhere = stream(h, 'ws_b', 's-1', 'u-1');
    const teammate = stream(h, 'ws_a', 's-2', 'u-2');
    handlers.notice('{"w": "ws_a", "k": "member_changed", "u": "u-1"}');
    expect(theirs.ended()).toBe(true);
    expect(elsewhere.ended()).toBe(false);
    expect(teammate.ended()).toBe(false);
    expect(h.openStreams).toBe(2);
    await h.stop();
  });

  it('sends heartbeats, and ends a stream past its age', async () => {
    const { h } = await hub({ ...LIMITS, maxAgeMs: 100 });
    const s = stream(h, 'ws_a');
    await sleep(60);
    expect(s.written).toContain(': ping\n\n');
    await sleep(150);
    expect(s.ended()).toBe(true);
    expect(h.openStreams).toBe(0);
    await h.stop();
  });
});
