import { describe, expect, it } from 'vitest';
import { PresenceBoard } from './presence.js';

/** A board on a clock the test moves, and what it wrote to each workspace's streams. */
function board(ttlMs = 30_000) {
  let now = 1_000;
  const written: { w: string; text: string }[] = [];
  const b = new PresenceBoard(
    (w, text) => written.push({ w, text }),
    ttlMs,
    () => now,
  );
  return { b, written, pass: (ms: number) => (now += ms) };
}

const heard = (s: string, u = 'usr_tara', w = 'ws_a') => ({ w, u, n: 'Tara', c: 'ct_1', s });

describe('PresenceBoard', () => {
  it('holds a presence for its TTL unless said again, then drops it', () => {
    const { b, pass } = board();
    b.heard(heard('viewing'));
    pass(20_000);
    expect(b.of('ws_a')).toEqual([
      { user_id: 'usr_tara', name: 'Tara', contact_id: 'ct_1', state: 'viewing', ttl_ms: 10_000 },
    ]);
    b.heard(heard('replying'));
    pass(29_999);
    expect(b.of('ws_a').map((p) => p.state)).toEqual(['replying']);
    pass(1);
    expect(b.of('ws_a')).toEqual([]);
  });

  it("writes to the presence's workspace only, and ignores what is malformed", () => {
    const { b, written } = board();
    b.heard(heard('viewing', 'usr_ben', 'ws_b'));
    for (const bad of [
      { ...heard('viewing'), s: 'typing' },
      { ...heard('viewing'), w: 1 },
      { ...heard('viewing'), n: null },
      { ...heard('viewing'), c: undefined },
    ])
      b.heard(bad);
    expect(written).toEqual([
      {
        w: 'ws_b',
        text: 'event: presence\ndata: {"user_id":"usr_ben","name":"Tara","contact_id":"ct_1","ttl_ms":30000,"state":"viewing"}\n\n',
      },
    ]);
    expect(b.of('ws_a')).toEqual([]);
  });

  it('clears a presence when the teammate leaves, telling the workspace', () => {
    const { b, written } = board();
    b.heard(heard('viewing'));
    b.heard(heard('left'));
    expect(b.of('ws_a')).toEqual([]);
    expect(written.at(-1)?.text).toContain('"state":"left"');
  });
});
