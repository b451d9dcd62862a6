import { describe, expect, it } from 'vitest';
import { withMentionTokens } from './mention-text';

describe('withMentionTokens', () => {
  it("writes each picked teammate's @name as their token, the longer name first", () => {
    const picked = [
      { id: 'usr_tara', shown: 'Tara' },
      { id: 'usr_taras', shown: 'Tara Singh' },
    ];
    expect(withMentionTokens('@Tara Singh and @Tara, call back', picked)).toBe(
      '<@usr_taras> and <@usr_tara>, call back',
    );
  });

  it('leaves an @name nobody picked, and a picked name no longer in the text, as they are', () => {
    expect(withMentionTokens('Ask @Ben', [{ id: 'usr_tara', shown: 'Tara' }])).toBe('Ask @Ben');
  });
});
