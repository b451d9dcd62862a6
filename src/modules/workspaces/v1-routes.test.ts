import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { fieldsNamed } from '../../../test/support/hostile-pages.js';

const t = testAppForTests();

describe('GET and PATCH /api/v1/workspace', () => {
  it('reads the workspace and changes only the fields given, answering it as it now is', async () => {
    const ws = await t.workspace();
    const before = (await t.api('GET', '/workspace', ws.key)).json().workspace;
    expect(before).toMatchObject({ id: ws.id, time_zone: expect.any(String) });

    const res = await t.api('PATCH', '/workspace', ws.key, {
      name: 'Acme Support',
      time_zone: 'Asia/Kolkata',
      opt_out_keywords: ['STOP', 'Unsubscribe!'],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().workspace).toEqual({
      ...before,
      name: 'Acme Support',
      time_zone: 'Asia/Kolkata',
      opt_out_keywords: ['STOP', 'UNSUBSCRIBE'],
    });
    expect((await t.api('GET', '/workspace', ws.key)).json().workspace).toEqual(res.json().workspace);
  });

  it.each([
    ['a time zone that is none', { time_zone: 'Mars/Olympus' }, 'time_zone'],
    ['a calling code that is none', { default_country_code: '999' }, 'default_country_code'],
    ['a keyword with no letter or digit', { opt_out_keywords: ['!!'] }, 'opt_out_keywords'],
    ['an empty name', { name: '' }, 'name'],
    ['a field the settings do not have', { plan: 'enterprise' }, 'plan'],
    ['a name that is a number', { name: 7 }, 'name'],
  ])('refuses %s with 422 naming the field, changing nothing', async (_what, body, field) => {
    const ws = await t.workspace();
    const before = (await t.api('GET', '/workspace', ws.key)).json();
    const res = await t.api('PATCH', '/workspace', ws.key, body);
    expectRestError(res, 422, 'validation_error');
    expect(fieldsNamed(res).join(' ')).toContain(field);
    expect((await t.api('GET', '/workspace', ws.key)).json()).toEqual(before);
  });
});

describe('GET and PATCH /api/v1/workspace/retention', () => {
  it('reads the retention settings and changes only those given', async () => {
    const ws = await t.workspace();
    const before = (await t.api('GET', '/workspace/retention', ws.key)).json().retention;
    const res = await t.api('PATCH', '/workspace/retention', ws.key, { media_days: 90 });
    expect(res.statusCode).toBe(200);
    expect(res.json().retention).toEqual({ ...before, media_days: 90 });
    const cleared = await t.api('PATCH', '/workspace/retention', ws.key, { media_days: null });
    expect(cleared.json().retention).toEqual({ ...before, media_days: null });
  });

  it.each([
    [{ media_days: 0 }, 'media_days'],
    [{ media_days: 1.5 }, 'media_days'],
    [{ finished_runs_days: '30' }, 'finished_runs_days'],
    [{ forever: true }, 'forever'],
  ])('refuses %j with 422 naming the field', async (body, field) => {
    const ws = await t.workspace();
    const res = await t.api('PATCH', '/workspace/retention', ws.key, body);
    expectRestError(res, 422, 'validation_error');
    expect(fieldsNamed(res).join(' ')).toContain(field);
  });
});
