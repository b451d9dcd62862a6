import { createParleyClient } from '@parley/client';
import { expect, it } from 'vitest';
import { connectSimulator, simControl, simulatorAppForTests } from './support/messaging.js';

// Issue 31's "done when": the generated client drives a contact through create, read, change and
// delete and a template through create and review.
const t = simulatorAppForTests();

async function client() {
  const ws = await t.workspace({ defaultCountryCode: '91' });
  const number = await connectSimulator(t, t.base, ws.id);
  return {
    api: createParleyClient({ baseUrl: `${t.base}/api/v1`, apiKey: ws.key }),
    number,
  };
}

it('drives a contact through create, read, change and delete', async () => {
  const { api } = await client();
  const created = await api.POST('/contacts', {
    body: { phone: '+919876500001', name: 'Asha', tags: ['lead'], traits: { city: 'Pune' } },
  });
  expect(created.response.status).toBe(201);
  const id = created.data?.id as string;

  const read = await api.GET('/contacts/{id}', { params: { path: { id } } });
  expect(read.response.status).toBe(200);
  expect(read.data?.contact).toMatchObject({
    id,
    phone: '919876500001',
    name: 'Asha',
    tags: ['lead'],
    traits: { city: 'Pune' },
    opted_out: false,
  });
  const byPhone = await api.GET('/contacts', { params: { query: { phone: '9876500001' } } });
  expect(byPhone.data?.contacts.map((c) => c.id)).toEqual([id]);

  const changed = await api.PATCH('/contacts/{id}', {
    params: { path: { id } },
    body: {
      name: 'Asha Rao',
      email: 'asha@example.com',
      tags: { add: ['customer'], remove: ['lead'] },
      traits: { city: null, plan: 'gold' },
      opted_out: true,
    },
  });
  expect(changed.response.status).toBe(200);
  const after = (await api.GET('/contacts/{id}', { params: { path: { id } } })).data?.contact;
  expect(after).toMatchObject({
    name: 'Asha Rao',
    email: 'asha@example.com',
    tags: ['customer'],
    traits: { plan: 'gold' },
    opted_out: true,
  });
  expect(after?.traits).not.toHaveProperty('city');

  const deleted = await api.DELETE('/contacts/{id}', { params: { path: { id } } });
  expect(deleted.response.status).toBe(204);
  expect((await api.GET('/contacts/{id}', { params: { path: { id } } })).response.status).toBe(404);
  expect((await api.DELETE('/contacts/{id}', { params: { path: { id } } })).response.status).toBe(404);
});

it('drives a template through create and review', async () => {
  const { api, number } = await client();
  const created = await api.POST('/templates', {
    body: {
      name: 'order_ready',
      language: 'en',
      category: 'UTILITY',
      body: 'Hi {{1}}, your order {{2}} is ready for pickup.',
      examples: ['Asha', 'ORD-1042'],
    },
  });
  expect(created.response.status).toBe(201);
  const template = created.data?.template;
  expect(template).toMatchObject({ name: 'order_ready', language: 'en', status: 'PENDING' });
  const id = template?.id as string;

  await simControl(
    t.base,
    `/templates/order_ready/en/approve?business_account_id=${number.businessAccountId}`,
  );
  const reviewed = await api.GET('/templates/{id}', { params: { path: { id } } });
  expect(reviewed.response.status).toBe(200);
  expect(reviewed.data?.template).toMatchObject({ id, status: 'APPROVED', rejected_reason: null });

  const pending = await api.POST('/templates', {
    body: { name: 'too_pushy', language: 'en', category: 'MARKETING', body: 'Buy now!' },
  });
  const pushy = pending.data?.template.id as string;
  await simControl(t.base, `/templates/too_pushy/en/reject?business_account_id=${number.businessAccountId}`);
  const rejected = await api.GET('/templates/{id}', { params: { path: { id: pushy } } });
  expect(rejected.data?.template).toMatchObject({
    status: 'REJECTED',
    rejected_reason: expect.any(String),
  });
});
