import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { workspaceWithOwner } from '../../../test/support/app-session.js';

const t = testAppForTests();

type Listed = { phone: string; name: string | null; last_inbound_at: string | null; created_at: string };

/** The web app's contacts page: the same listing as REST v1's, newest first, searched and filtered. */
describe('GET /api/app/contacts', () => {
  it('lists newest first, searches name, e-mail or phone digits, filters by tag, and pages', async () => {
    const { client, apiKey } = await workspaceWithOwner(t);
    const add = async (body: object) =>
      expect((await t.api('POST', '/contacts', apiKey, body)).statusCode).toBe(201);
    await add({ phone: '+14155552601', name: 'Ravi Kumar', email: 'ravi@example.com', tags: ['vip'] });
    await add({ phone: '+14155552602', name: 'Asha', email: 'asha@shop.example', tags: ['vip', 'new'] });
    await add({ phone: '+447911123456', name: '100% Real_Name', tags: ['new'] });
    const phones = async (query: string) => {
      const res = await client.call('GET', `/contacts${query}`);
      expect(res.statusCode).toBe(200);
      return res.json().contacts.map((c: Listed) => c.phone);
    };

    expect(await phones('')).toEqual(['447911123456', '14155552602', '14155552601']);
    expect(await phones('?q=RAVI')).toEqual(['14155552601']);
    expect(await phones('?q=shop.example')).toEqual(['14155552602']);
    expect(await phones('?q=%2B1%20(415)%20555-2602')).toEqual(['14155552602']);
    expect(await phones('?tag=vip')).toEqual(['14155552602', '14155552601']);
    expect(await phones('?tag=new&q=asha')).toEqual(['14155552602']);
    // LIKE's wildcards in the search are taken literally.
    expect(await phones('?q=100%25')).toEqual(['447911123456']);
    expect(await phones('?q=_')).toEqual(['447911123456']);
    expect(await phones('?q=%25')).toEqual(['447911123456']);

    const page = (await client.call('GET', '/contacts?limit=2&offset=1')).json();
    expect(page).toMatchObject({ result: true, limit: 2, offset: 1, has_next_page: false });
    expect(page.contacts.map((c: Listed) => c.phone)).toEqual(['14155552602', '14155552601']);
    const first = (await client.call('GET', '/contacts?limit=1')).json();
    expect(first.has_next_page).toBe(true);
    expect(first.contacts[0]).toMatchObject({
      last_inbound_at: null,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
  });

  it("never lists or shows another workspace's contacts", async () => {
    const mine = await workspaceWithOwner(t);
    const theirs = await workspaceWithOwner(t);
    await t.api('POST', '/contacts', theirs.apiKey, { phone: '+14155552699', name: 'Theirs' });
    const theirId = (await theirs.client.call('GET', '/contacts')).json().contacts[0].id;
    expect((await mine.client.call('GET', '/contacts?q=Theirs')).json().contacts).toEqual([]);
    expect((await mine.client.call('GET', '/contacts')).json().contacts).toEqual([]);
    expect((await mine.client.call('GET', `/contacts/${theirId}`)).statusCode).toBe(404);
  });
});

/** The broadcast audience's tag picker: each tag once, with its contacts, only the workspace's own. */
describe('GET /api/app/contacts/tags', () => {
  it("lists the workspace's tags by name with how many contacts carry each, none of another's", async () => {
    const mine = await workspaceWithOwner(t);
    const theirs = await workspaceWithOwner(t);
    await t.api('POST', '/contacts', mine.apiKey, { phone: '+14155552701', tags: ['vip', 'new'] });
    await t.api('POST', '/contacts', mine.apiKey, { phone: '+14155552702', tags: ['vip'] });
    await t.api('POST', '/contacts', mine.apiKey, { phone: '+14155552703' });
    await t.api('POST', '/contacts', theirs.apiKey, { phone: '+14155552704', tags: ['secret', 'vip'] });
    const res = await mine.client.call('GET', '/contacts/tags');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      result: true,
      tags: [
        { tag: 'new', contacts: 1 },
        { tag: 'vip', contacts: 2 },
      ],
    });
  });
});
