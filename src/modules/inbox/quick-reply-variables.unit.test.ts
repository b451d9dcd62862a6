import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.js';
import { checkQuickReplyVariables, fillQuickReply } from './quick-reply-variables.js';

const meera = { name: '  Meera  Shah ', phone: '919820000000', email: 'meera@example.com' };

describe('quick reply variables', () => {
  it('fills each variable from the contact, spaces inside the braces allowed', () => {
    expect(fillQuickReply('Hi {{first_name}} ({{ name }}), we have {{phone}} and {{email}}.', meera)).toBe(
      'Hi Meera (Meera  Shah), we have +919820000000 and meera@example.com.',
    );
  });

  it('leaves a variable the contact lacks empty', () => {
    expect(fillQuickReply('Hi {{first_name}}!{{email}}', { name: null, phone: '1', email: null })).toBe(
      'Hi !',
    );
  });

  it('refuses a name that is not a variable, and accepts text without any', () => {
    expect(() => checkQuickReplyVariables('Hi {{nmae}}')).toThrow(ApiError);
    expect(() => checkQuickReplyVariables('Hi {{}}')).toThrow(/is not a variable/);
    expect(() => checkQuickReplyVariables('Hi {{name}}, {single} braces and }} stay')).not.toThrow();
  });
});
