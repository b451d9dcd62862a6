import { describe, expect, it } from 'vitest';
import { consentKeyword } from './consent-keywords.js';

const none = { optOut: [], optIn: [] };

describe('consentKeyword', () => {
  it.each(['STOP', 'stop', ' Stop! ', '*STOP*', '«stop»', 'Unsubscribe.', 'STOP 🛑', '\tstop\n'])(
    'reads %j as an opt-out',
    (text) => expect(consentKeyword(text, none)).toEqual({ optedOut: true, keyword: expect.any(String) }),
  );

  it.each(['START', 'start', 'Start!'])('reads %j as an opt-in', (text) =>
    expect(consentKeyword(text, none)?.optedOut).toBe(false),
  );

  it.each(['please stop the offers', 'stopwatch', 'st op', '', '!!!', null])('leaves %j alone', (text) =>
    expect(consentKeyword(text, none)).toBeNull(),
  );

  it("takes the workspace's own words, in any case and spacing", () => {
    const words = { optOut: ['NO MORE', 'baja'], optIn: ['ALTA'] };
    expect(consentKeyword('no   more!', words)).toEqual({ optedOut: true, keyword: 'NO MORE' });
    expect(consentKeyword('Baja', words)?.optedOut).toBe(true);
    expect(consentKeyword('alta', words)?.optedOut).toBe(false);
    expect(consentKeyword('no more', none)).toBeNull();
  });
});
