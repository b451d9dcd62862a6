import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { setPlan } from '../workspaces/plans.js';

const t = testAppForTests();

async function listAll(key: string) {
  const res = await t.api('GET', '/contacts?limit=200', key);
  expect(res.statusCode).toBe(200);
  return res.json().contacts as Array<Record<string, unknown>>;
}

describe('POST /contacts', () => {
  it('creates with 201, then updates the same phone with 200', async () => {
    const { key } = await t.workspace({ defaultCountryCode: '91' });
    const first = await t.api('POST', '/contacts', key, {
      phone: '98765 43210',
      name: 'Asha',
      email: 'asha@example.com',
    });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({ result: true, id: expect.stringMatching(/^ct_/), created: true });
    const again = await t.api('POST', '/contacts', key, { phone: '+91 98765-43210' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ result: true, id: first.json().id, created: false });
    const [contact] = await listAll(key);
    expect(contact).toMatchObject({ phone: '919876543210', name: 'Asha', email: 'asha@example.com' });
  });

  it('only adds tags, keeping their order and skipping ones the contact has', async () => {
    const { key } = await t.workspace();
    await t.api('POST', '/contacts', key, { phone: '+14155552671', tags: ['lead', 'vip', 'lead'] });
    await t.api('POST', '/contacts', key, { phone: '+14155552671', tags: ['new', 'vip', 'cold'] });
    await t.api('POST', '/contacts', key, { phone: '+14155552671', tags: [] });
    const [contact] = await listAll(key);
    expect(contact!.tags).toEqual(['lead', 'vip', 'new', 'cold']);
  });

  it('merges traits one level deep and replaces name and email only when given', async () => {
    const { key } = await t.workspace();
    await t.api('POST', '/contacts', key, {
      phone: '+14155552671',
      name: 'First',
      email: 'a@example.com',
      traits: { plan: 'free', seats: 3, active: true },
    });
    await t.api('POST', '/contacts', key, {
      phone: '+14155552671',
      name: 'Second',
      traits: { plan: 'pro', churn: null },
    });
    const [contact] = await listAll(key);
    expect(contact).toMatchObject({
      name: 'Second',
      email: 'a@example.com',
      traits: { plan: 'pro', seats: 3, active: true, churn: null },
    });
  });

  it('refuses a national number without a default country code, naming the fix', async () => {
    const { key } = await t.workspace({ defaultCountryCode: null });
    const res = await t.api('POST', '/contacts', key, { phone: '98765 43210' });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatchObject({
      code: 'validation_error',
      details: [{ field: 'phone', message: expect.stringMatching(/country code/) }],
    });
  });

  // JSON.parse reads 1e400 as Infinity, which jsonb would store as null.
  it.each(['1e400', '-1e400'])('refuses a trait number out of range (%s), naming the trait', async (n) => {
    const { key } = await t.workspace();
    const res = await t.api(
      'POST',
      '/contacts',
      key,
      `{"phone": "+14155552671", "traits": {"seats": ${n}}}`,
      { 'content-type': 'application/json' },
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().error.details).toEqual([{ field: 'traits.seats', message: 'Use a smaller number.' }]);
    expect(await listAll(key)).toEqual([]);
  });

  it('requires phone', async () => {
    const { key } = await t.workspace();
    const res = await t.api('POST', '/contacts', key, { name: 'No phone' });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.details).toEqual([{ field: 'phone', message: 'Fill this in.' }]);
  });

  it('answers 402 at the contact limit, still updates existing contacts, and stores nothing extra', async () => {
    await setPlan(t.ctx.db, 'tiny', { contacts: 2, monthlyLeads: 1, messagesPerMonth: 1 });
    const { key } = await t.workspace({ plan: 'tiny' });
    expect((await t.api('POST', '/contacts', key, { phone: '+14155552671' })).statusCode).toBe(201);
    expect((await t.api('POST', '/contacts', key, { phone: '+14155552672' })).statusCode).toBe(201);
    const over = await t.api('POST', '/contacts', key, { phone: '+14155552673' });
    expect(over.statusCode).toBe(402);
    expect(over.json().error.code).toBe('plan_limit_reached');
    expect(
      (await t.api('POST', '/contacts', key, { phone: '+14155552671', name: 'Still ok' })).statusCode,
    ).toBe(200);
    expect(await listAll(key)).toHaveLength(2);
  });

  // 40 is past the 16 counting slots, so creations start on the uncontended path and switch to the
  // exact count near the limit.
  it.each([5, 40])('never lets racing creations pass a contact limit of %i', async (limit) => {
    await setPlan(t.ctx.db, `race${limit}`, { contacts: limit, monthlyLeads: 1, messagesPerMonth: 1 });
    const { key } = await t.workspace({ plan: `race${limit}` });
    // 50 phones, past both limits: every request waits for a pool slot within the connect bound (5 s),
    // and 200 at once, serialised near the limit, ran past it on a slow disk's commits (503s).
    const phones = Array.from({ length: 50 }, (_, i) => `+1415555${String(2600 + i)}`);
    // Every phone twice, so some requests race to create the same contact.
    const results = await Promise.all(
      [...phones, ...phones].map((phone) => t.api('POST', '/contacts', key, { phone })),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(limit);
    expect(statuses.every((s) => s === 201 || s === 200 || s === 402)).toBe(true);
    expect(await listAll(key)).toHaveLength(limit);
  });
});

describe('GET /contacts', () => {
  it('pages oldest first with has_next_page', async () => {
    const { key } = await t.workspace();
    for (let i = 0; i < 5; i++) await t.api('POST', '/contacts', key, { phone: `+1415555270${i}` });
    const page1 = await t.api('GET', '/contacts?limit=2&offset=0', key);
    expect(page1.json()).toMatchObject({ result: true, limit: 2, offset: 0, has_next_page: true });
    const page3 = await t.api('GET', '/contacts?limit=2&offset=4', key);
    expect(page3.json()).toMatchObject({ limit: 2, offset: 4, has_next_page: false });
    const phones = [];
    for (const offset of [0, 2, 4]) {
      const res = await t.api('GET', `/contacts?limit=2&offset=${offset}`, key);
      phones.push(...res.json().contacts.map((c: { phone: string }) => c.phone));
    }
    expect(phones).toEqual(['14155552700', '14155552701', '14155552702', '14155552703', '14155552704']);
  });

  it('defaults to limit 50 and offset 0 and returns each contact in the documented shape', async () => {
    const { key } = await t.workspace();
    await t.api('POST', '/contacts', key, { phone: '+14155552671', tags: ['a'], traits: { n: 1 } });
    const res = await t.api('GET', '/contacts', key);
    expect(res.json()).toEqual({
      result: true,
      limit: 50,
      offset: 0,
      has_next_page: false,
      next_cursor: null,
      contacts: [
        {
          id: expect.stringMatching(/^ct_/),
          phone: '14155552671',
          name: null,
          email: null,
          tags: ['a'],
          traits: { n: 1 },
          opted_out: false,
          opted_out_at: null,
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          updated_at: expect.stringMatching(/Z$/),
        },
      ],
    });
  });
});
