import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { workspaceWithOwner } from '../../../test/support/app-session.js';
import { submit } from '../../../test/support/intake.js';
import { type LiveStream, openLiveStream, type ReceivedEvent } from '../../../test/support/live.js';
import { simulatorAppForTests } from '../../../test/support/messaging.js';
import { until } from '../../../test/support/until.js';
import { LIVE_CHANNEL } from './live-hub.js';

// A queue: a CSV import runs as a job.
const t = simulatorAppForTests({ queue: true });

let n = 0;
const phone = () => `+9198${String(10_000_000 + ++n)}`;

/** The next event after those already seen that `match` accepts. */
function nextAfter(stream: LiveStream, match: (e: ReceivedEvent) => boolean) {
  const seen = stream.events.length;
  return (ms?: number) => stream.next((e) => stream.events.indexOf(e) >= seen && match(e), ms);
}

/** A form of the workspace, live, to submit leads to. */
async function formOf(client: Awaited<ReturnType<typeof workspaceWithOwner>>['client']) {
  const form = (await client.call('POST', '/forms', { name: 'Site', active: true })).json();
  return (fields: Record<string, string>) => submit(t, { token: form.token, ...fields });
}

describe('contacts and leads on GET /api/app/events', () => {
  it('announces a contact created, changed and erased, and a lead created and changed, to its workspace only', async () => {
    const a = await workspaceWithOwner(t);
    const b = await workspaceWithOwner(t);
    const stream = await openLiveStream(t.base, a.client.cookie);
    const other = await openLiveStream(t.base, b.client.cookie);
    const contact = (e: ReceivedEvent) => e.event === 'contact';
    const lead = (e: ReceivedEvent) => e.event === 'lead';

    const number = phone();
    let next = nextAfter(stream, contact);
    const created = await t.api('POST', '/contacts', a.apiKey, { phone: number, name: 'Ana' });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as string;
    expect((await next(1_000)).data).toEqual({ contact_id: id, message_id: null, direction: null });

    // Nothing the pages show changed: no notice (a customer's message moves last_inbound_at only).
    next = nextAfter(stream, contact);
    expect((await t.api('POST', '/contacts', a.apiKey, { phone: number, name: 'Ana' })).statusCode).toBe(200);
    await t.ctx.db.query('UPDATE contacts SET last_inbound_at = now() WHERE workspace_id = $1', [
      a.workspaceId,
    ]);
    await expect(next(300)).rejects.toThrow(/no matching event/);

    expect((await a.client.call('PATCH', `/contacts/${id}`, { name: 'Ana Lima' })).statusCode).toBe(200);
    expect((await next()).data.contact_id).toBe(id);

    next = nextAfter(stream, lead);
    const send = await formOf(a.client);
    expect((await send({ name: 'Ana Lima', phone: number })).statusCode).toBe(201);
    await next(1_000);
    const leadId = (await a.client.call('GET', '/leads')).json().leads[0].id as string;
    next = nextAfter(stream, lead);
    expect((await a.client.call('PATCH', `/leads/${leadId}`, { status: 'contacted' })).statusCode).toBe(200);
    await next();

    // Erased: the contact goes and its lead is emptied, each announced.
    const erased = nextAfter(stream, contact);
    const emptied = nextAfter(stream, lead);
    expect((await a.client.call('DELETE', `/contacts/${id}`)).statusCode).toBe(200);
    expect((await erased()).data.contact_id).toBe(id);
    await emptied();

    await sleep(200);
    expect(other.events).toEqual([]);
    stream.close();
    other.close();
  });

  it('announces a statement touching many contacts once, without an id', async () => {
    const a = await workspaceWithOwner(t);
    const stream = await openLiveStream(t.base, a.client.cookie);
    const seen = stream.events.length;
    await t.ctx.db.query(
      `INSERT INTO contacts (workspace_id, id, phone) SELECT $1, 'ct_bulk' || g, '9198200000' || g
       FROM generate_series(1, 5) g`,
      [a.workspaceId],
    );
    const event = await stream.next((e) => e.event === 'contact');
    expect(event.data.contact_id).toBeNull();
    await sleep(300);
    expect(stream.events.slice(seen).filter((e) => e.event === 'contact')).toHaveLength(1);
    stream.close();
  });

  it('announces a CSV import of 300 contacts once, not per row', async () => {
    const a = await workspaceWithOwner(t);
    const stream = await openLiveStream(t.base, a.client.cookie);
    const rows = Array.from({ length: 300 }, (_, i) => `+9198300${String(10_000 + i)},Customer ${i}`);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/contacts/import',
      headers: { authorization: `Bearer ${a.apiKey}`, 'content-type': 'text/csv' },
      payload: `phone,name\n${rows.join('\n')}\n`,
    });
    expect(res.statusCode).toBe(202);
    await until(async () => {
      const answer = await t.api('GET', `/contacts/imports/${res.json().import.id}`, a.apiKey);
      return answer.json().import.status === 'completed';
    });
    await stream.next((e) => e.event === 'contact');
    await sleep(300);
    expect(stream.events.filter((e) => e.event === 'contact')).toEqual([
      expect.objectContaining({ data: { contact_id: null, message_id: null, direction: null } }),
    ]);
    stream.close();
  });

  it('announces no contact or lead of a workspace no browser follows', async () => {
    const quiet = await workspaceWithOwner(t);
    const followed = await workspaceWithOwner(t);
    const heard: string[] = [];
    const unlisten = await t.ctx.db.listen(LIVE_CHANNEL, {
      notice: (payload) => heard.push(payload),
      listening: () => {},
      lost: () => {},
    });
    const stream = await openLiveStream(t.base, followed.client.cookie);
    expect((await t.api('POST', '/contacts', quiet.apiKey, { phone: phone() })).statusCode).toBe(201);
    expect((await (await formOf(quiet.client))({ name: 'Cy', phone: phone() })).statusCode).toBe(201);
    // Notices arrive in commit order: once the followed workspace's is heard, any earlier one would be.
    expect((await t.api('POST', '/contacts', followed.apiKey, { phone: phone() })).statusCode).toBe(201);
    await until(async () => heard.some((p) => p.includes(followed.workspaceId)));
    expect(heard.filter((p) => p.includes(quiet.workspaceId))).toEqual([]);
    await unlisten();
    stream.close();
  });
});
