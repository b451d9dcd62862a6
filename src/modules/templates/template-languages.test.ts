import { describe, expect, it } from 'vitest';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { simState, simulatorAppForTests } from '../../../test/support/messaging.js';
import { TEMPLATE_LANGUAGES } from '../../lib/template-languages.js';

const t = simulatorAppForTests({ statusDelaysMs: [-1, -1, -1] });
const template = (language: string, name = 'lang_check') => ({
  name,
  language,
  category: 'UTILITY',
  body: 'Your code is ready',
});

describe("a new template's language is one of Meta's", () => {
  it('refuses a well-formed code Meta does not list, with 422 at language in plain words, submitting nothing', async () => {
    const ws = await t.connectedWorkspace();
    const before = simState(t).templates.get(ws.number.businessAccountId)!.length;
    for (const code of ['xx_YY', 'en_us', 'pt']) {
      const res = await t.api('POST', '/templates', ws.key, template(code));
      expectRestError(res, 422, 'validation_error');
      expect(res.json().error.details).toEqual([
        {
          field: 'language',
          message: "not one of WhatsApp's template languages, such as en, en_US or pt_BR",
        },
      ]);
    }
    expect(simState(t).templates.get(ws.number.businessAccountId)!.length).toBe(before);
  });

  it('takes every listed code', async () => {
    const ws = await t.connectedWorkspace();
    for (const { code } of TEMPLATE_LANGUAGES) {
      const res = await t.api('POST', '/templates', ws.key, template(code));
      expect(res.statusCode, `${code}: ${res.body}`).toBe(201);
    }
    const submitted = simState(t).templates.get(ws.number.businessAccountId)!;
    expect(
      submitted
        .filter((x) => x.name === 'lang_check')
        .map((x) => x.language)
        .sort(),
    ).toEqual(TEMPLATE_LANGUAGES.map((l) => l.code).sort());
  });

  it('keeps and lists a template synced from Meta in a language the list does not have', async () => {
    const ws = await t.connectedWorkspace();
    const account = simState(t).templates.get(ws.number.businessAccountId)!;
    account.push({
      name: 'regional_hello',
      language: 'en_IN',
      category: 'UTILITY',
      body: 'Namaste from Parley',
      status: 'APPROVED',
      id: '4000000000077',
    });
    expect((await t.api('POST', '/templates/sync', ws.key)).statusCode).toBe(200);
    const listed = (await t.api('GET', '/templates', ws.key)).json().templates as {
      name: string;
      language: string;
    }[];
    expect(listed).toContainEqual(expect.objectContaining({ name: 'regional_hello', language: 'en_IN' }));
    const sent = await t.api('POST', '/messages', ws.key, {
      to: '+14155552671',
      template: { name: 'regional_hello', language: 'en_IN' },
    });
    expect(sent.statusCode, sent.body).toBe(201);
  });
});
