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
    expect((await next()).data).toEqual({ contact_id: id, message_id: null, direction: null });

    // Nothing the pages show changed: no event (a customer's message moves last_inbound_at only). Events
    // come in commit order: once a later contact's is in, one of these would be too.
    const seen = stream.events.length;
    expect((await t.api('POST', '/contacts', a.apiKey, { phone: number, name: 'Ana' })).statusCode).toBe(200);
    await t.ctx.db.query('UPDATE contacts SET last_inbound_at = now() WHERE workspace_id = $1', [
      a.workspaceId,
    ]);
    const later = (await t.api('POST', '/contacts', a.apiKey, { phone: phone() })).json().id as string;
    await stream.next((e) => contact(e) && e.data.contact_id === later);
    expect(stream.events.slice(seen).filter(contact)).toEqual([
      expect.objectContaining({ data: { contact_id: later, message_id: null, direction: null } }),
    ]);

    expect((await a.client.call('PATCH', `/contacts/${id}`, { name: 'Ana Lima' })).statusCode).toBe(200);
    expect((await next()).data.contact_id).toBe(id);

    next = nextAfter(stream, lead);
    const send = await formOf(a.client);
    expect((await send({ name: 'Ana Lima', phone: number })).statusCode).toBe(201);
    expect((await next()).data).toEqual({ contact_id: null, message_id: null, direction: null });
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

  it('announces a note added to a lead, so the lead’s open page shows it', async () => {
    const a = await workspaceWithOwner(t);
    expect((await (await formOf(a.client))({ name: 'Dev', phone: phone() })).statusCode).toBe(201);
    const leadId = (await a.client.call('GET', '/leads')).json().leads[0].id as string;
    const stream = await openLiveStream(t.base, a.client.cookie);
    const next = nextAfter(stream, (e) => e.event === 'lead');
    const note = await a.client.call('POST', `/leads/${leadId}/notes`, { body: 'Called, wants a quote' });
    expect(note.statusCode).toBe(201);
    expect((await next()).data).toEqual({ contact_id: null, message_id: null, direction: null });
    stream.close();
  });

  it('records no contact or lead of a workspace no browser follows', async () => {
    const quiet = await workspaceWithOwner(t);
    const followed = await workspaceWithOwner(t);
    const stream = await openLiveStream(t.base, followed.client.cookie);
    expect((await t.api('POST', '/contacts', quiet.apiKey, { phone: phone() })).statusCode).toBe(201);
    expect((await (await formOf(quiet.client))({ name: 'Cy', phone: phone() })).statusCode).toBe(201);
    const leadId = (await quiet.client.call('GET', '/leads')).json().leads[0].id as string;
    const note = await quiet.client.call('POST', `/leads/${leadId}/notes`, { body: 'Unfollowed' });
    expect(note.statusCode).toBe(201);
    expect((await t.api('POST', '/contacts', followed.apiKey, { phone: phone() })).statusCode).toBe(201);
    await stream.next((e) => e.event === 'contact');
    const { rows } = await t.ctx.db.query('SELECT kind FROM live_events WHERE workspace_id = $1', [
      quiet.workspaceId,
    ]);
    expect(rows).toEqual([]);
    stream.close();
  });

  it('sends no NOTIFY for a followed workspace’s contact, lead or lead note (a notifying commit waits on every other)', async () => {
    const a = await workspaceWithOwner(t);
    const heard: string[] = [];
    // Its own connection on PostgreSQL, as another instance's hub would listen.
    const unlisten = await t.ctx.db.listen(LIVE_CHANNEL, {
      notice: (payload) => heard.push(payload),
      listening: () => {},
      lost: () => {},
    });
    const stream = await openLiveStream(t.base, a.client.cookie);
    expect((await t.api('POST', '/contacts', a.apiKey, { phone: phone(), name: 'Noor' })).statusCode).toBe(
      201,
    );
    expect((await (await formOf(a.client))({ name: 'Noor', phone: phone() })).statusCode).toBe(201);
    const leadId = (await a.client.call('GET', '/leads')).json().leads[0].id as string;
    expect((await a.client.call('POST', `/leads/${leadId}/notes`, { body: 'Hi' })).statusCode).toBe(201);
    // The contact, then the lead and its note: recorded as events, not notices.
    await expect
      .poll(() => stream.events.map((e) => e.event).filter((k) => k !== 'contact'))
      .toEqual(['lead', 'lead']);
    expect(stream.events[0]?.event).toBe('contact');
    // Notices arrive in commit order: once this one is heard, any the writes above sent would be.
    await t.ctx.db.query('SELECT pg_notify($1, $2)', [LIVE_CHANNEL, 'last']);
    await until(async () => heard.includes('last'));
    expect(heard).toEqual(['last']);
    await unlisten();
    stream.close();
  });
});
