import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';

const t = testAppForTests();

const fields = (res: { json(): unknown }) =>
  (res.json() as { error: { details: { field: string }[] } }).error.details.map((d) => d.field);

describe('REST v1 quick replies', () => {
  it('creates, lists (filled for a contact), replaces and deletes a quick reply', async () => {
    const { key } = await t.workspace();
    const made = await t.api('POST', '/quick-replies', key, { title: ' Hours ', text: 'Hi {{name}}' });
    expect(made.statusCode, made.body).toBe(201);
    const reply = made.json().quick_reply;
    expect(reply).toMatchObject({ id: expect.stringMatching(/^qr_/), title: 'Hours', text: 'Hi {{name}}' });
    expect((await t.api('GET', '/quick-replies', key)).json()).toEqual({
      result: true,
      quick_replies: [reply],
    });

    const contact = await t.api('POST', '/contacts', key, { phone: '+14155552671', name: 'Asha' });
    const filled = await t.api('GET', `/quick-replies?contact_id=${contact.json().id}`, key);
    expect(filled.json().quick_replies[0].filled).toBe('Hi Asha');
    expectRestError(await t.api('GET', '/quick-replies?contact_id=ct_nothing', key), 404, 'not_found');

    const changed = await t.api('PUT', `/quick-replies/${reply.id}`, key, {
      title: 'Opening',
      text: 'From 9',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().quick_reply).toMatchObject({ id: reply.id, title: 'Opening', text: 'From 9' });

    const gone = await t.api('DELETE', `/quick-replies/${reply.id}`, key);
    expect(gone.statusCode).toBe(204);
    expectRestError(await t.api('DELETE', `/quick-replies/${reply.id}`, key), 404, 'not_found');
    expectRestError(
      await t.api('PUT', `/quick-replies/${reply.id}`, key, { title: 'x', text: 'y' }),
      404,
      'not_found',
    );
    expect((await t.api('GET', '/quick-replies', key)).json().quick_replies).toEqual([]);
  });

  it('refuses a title in use, an unknown variable and a blank title with 422 at the field', async () => {
    const { key } = await t.workspace();
    await t.api('POST', '/quick-replies', key, { title: 'Hours', text: 'x' });
    const taken = await t.api('POST', '/quick-replies', key, { title: 'Hours', text: 'y' });
    expectRestError(taken, 422, 'validation_error');
    expect(fields(taken)).toEqual(['title']);
    const unknown = await t.api('POST', '/quick-replies', key, { title: 'Other', text: 'Hi {{nope}}' });
    expectRestError(unknown, 422, 'validation_error');
    expect(fields(unknown)).toEqual(['text']);
    expect(fields(await t.api('POST', '/quick-replies', key, { title: '  ', text: 'y' }))).toEqual(['title']);
    expect((await t.api('GET', '/quick-replies', key)).json().quick_replies).toHaveLength(1);
  });

  it("answers a retried create with the first answer; another workspace's id is 404", async () => {
    const { key } = await t.workspace();
    const other = await t.workspace();
    const headers = { 'idempotency-key': 'qr-1' };
    const first = await t.api('POST', '/quick-replies', key, { title: 'Hours', text: 'x' }, headers);
    const again = await t.api('POST', '/quick-replies', key, { title: 'Hours', text: 'x' }, headers);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const id = first.json().quick_reply.id;
    expectRestError(
      await t.api('PUT', `/quick-replies/${id}`, other.key, { title: 'B', text: 'b' }),
      404,
      'not_found',
    );
    expectRestError(await t.api('DELETE', `/quick-replies/${id}`, other.key), 404, 'not_found');
    expect((await t.api('GET', '/quick-replies', key)).json().quick_replies).toHaveLength(1);
  });
});
