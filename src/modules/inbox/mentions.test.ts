import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, secondInstance, type TestApp } from '../../../test/support/app.js';
import { type AppClient, PASSWORD, signIn, workspaceWithOwner } from '../../../test/support/app-session.js';
import { TEST_DB } from '../../../test/support/database.js';
import { expectRestError } from '../../../test/support/endpoint-security.js';
import { openLiveStream } from '../../../test/support/live.js';
import { listen } from '../../../test/support/messaging.js';
import { startSmtp, type TestSmtp } from '../../../test/support/smtp.js';
import { until } from '../../../test/support/until.js';
import { addMember, createUser } from '../accounts/users.js';

let t: TestApp;
let base: string;
let smtp: TestSmtp;

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({
    queue: true,
    env: { SMTP_URL: smtp.url, MAIL_FROM: 'Parley <parley@example.com>' },
  });
  base = await listen(t);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

let n = 0;
/** A workspace with its owner and a member (Tara), both signed in, and a conversation with a customer. */
async function team() {
  const owner = await workspaceWithOwner(t);
  const email = `tara-${++n}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const taraId = await createUser(t.ctx.db, email, PASSWORD, `Tara ${n}`);
  await addMember(t.ctx.db, owner.workspaceId, taraId, 'member');
  const tara = await signIn(t, email);
  const contact = await t.api('POST', '/contacts', owner.apiKey, { phone: `+1415555${String(1000 + n)}` });
  const contactId = contact.json().id as string;
  await t.ctx.db.query('INSERT INTO conversations (workspace_id, contact_id) VALUES ($1, $2)', [
    owner.workspaceId,
    contactId,
  ]);
  return { ...owner, owner: owner.client, tara, taraId, taraEmail: email, contactId };
}

const note = async (client: AppClient, contactId: string, text: string) => {
  const res = await client.call('POST', `/conversations/${contactId}/notes`, { text });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
};
const notices = async (client: AppClient, query = '') =>
  (await client.call('GET', `/notifications${query}`)).json();

describe('mentions in notes', () => {
  it('notify the mentioned member only: never the author, nor a user of another workspace, nor an @name', async () => {
    const a = await team();
    const b = await team();
    const text = `Can you call back, <@${a.taraId}>? cc <@${a.owner.userId}> <@${b.taraId}> @Tara`;
    const noteId = await note(a.owner, a.contactId, text);

    const tara = await notices(a.tara);
    expect(tara.unread).toBe(1);
    expect(tara.notifications).toEqual([
      expect.objectContaining({
        kind: 'mention',
        contact_id: a.contactId,
        author_name: 'Owner',
        read_at: null,
        excerpt: `Can you call back, @Tara ${n - 1}? cc @Owner <@${b.taraId}> @Tara`,
      }),
    ]);
    // The author named themselves: shown as a name, not a notice.
    expect((await notices(a.owner)).notifications).toEqual([]);
    // B's member, named by id in A's note, hears nothing, in either workspace.
    const { rows } = await t.ctx.db.query('SELECT 1 FROM notifications WHERE user_id = $1', [b.taraId]);
    expect(rows).toEqual([]);

    const conv = (await a.owner.call('GET', `/conversations/${a.contactId}`)).json();
    const shown = conv.notes.find((x: { id: string }) => x.id === noteId);
    expect(shown.text).toBe(text);
    expect(shown.mentions.map((m: { user_id: string }) => m.user_id).sort()).toEqual(
      [a.taraId, a.owner.userId].sort(),
    );
  });

  it('from a REST v1 note notify the member, keeping its answer as it was', async () => {
    const a = await team();
    const res = await t.api('POST', `/conversations/${a.contactId}/notes`, a.apiKey, {
      text: `Order bot: <@${a.taraId}> please check the refund`,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(Object.keys(res.json()).sort()).toEqual(['created_at', 'id', 'result']);
    const tara = await notices(a.tara);
    expect(tara.notifications).toHaveLength(1);
    expect(tara.notifications[0].author_name).toMatch(/^API key /);
  });

  it('are listed newest first a page at a time, and marked read by id (only one’s own) or all', async () => {
    const a = await team();
    for (const i of [1, 2, 3]) await note(a.owner, a.contactId, `Note ${i} for <@${a.taraId}>`);
    const first = await notices(a.tara, '?limit=2');
    expect(first.unread).toBe(3);
    expect(first.notifications.map((x: { excerpt: string }) => x.excerpt.slice(0, 6))).toEqual([
      'Note 3',
      'Note 2',
    ]);
    const second = await notices(a.tara, `?limit=2&cursor=${first.next_cursor}`);
    expect(second.notifications.map((x: { excerpt: string }) => x.excerpt.slice(0, 6))).toEqual(['Note 1']);
    expect(second.next_cursor).toBeNull();
    expectRestError(await a.tara.call('GET', '/notifications?cursor=nonsense'), 422, 'validation_error');

    // The owner marking Tara's notice read changes nothing: it is not theirs.
    const id = first.notifications[0].id as string;
    expect((await a.owner.call('POST', '/notifications/read', { ids: [id] })).json().unread).toBe(0);
    expect((await notices(a.tara)).unread).toBe(3);

    expect((await a.tara.call('POST', '/notifications/read', { ids: [id] })).json().unread).toBe(2);
    const after = await notices(a.tara);
    expect(after.notifications[0].read_at).not.toBeNull();
    expect(after.notifications[1].read_at).toBeNull();
    expect((await a.tara.call('POST', '/notifications/read', { all: true })).json().unread).toBe(0);
    expectRestError(await a.tara.call('POST', '/notifications/read', { ids: [] }), 422, 'validation_error');
  });

  it('e-mail the mentioned member a link to the conversation, without the note, once in ten minutes', async () => {
    const a = await team();
    await note(a.owner, a.contactId, `Secret refund code 4411 for <@${a.taraId}>`);
    const mail = await until(() => smtp.mails.find((m) => m.to.includes(a.taraEmail)));
    expect(mail.raw).toContain('Owner mentioned you');
    expect(mail.raw).toContain(`/messages/${a.contactId}`);
    expect(mail.raw).not.toContain('4411');
    expect(smtp.mails.some((m) => m.to.includes(a.owner.email))).toBe(false);

    await note(a.owner, a.contactId, `And again, <@${a.taraId}>`);
    expect((await notices(a.tara)).unread).toBe(2);
    await new Promise((r) => setTimeout(r, 500));
    expect(smtp.mails.filter((m) => m.to.includes(a.taraEmail))).toHaveLength(1);
  });

  it("reach the mentioned member's live stream only", async () => {
    const a = await team();
    const b = await team();
    const taraStream = await openLiveStream(base, a.tara.cookie);
    const ownerStream = await openLiveStream(base, a.owner.cookie);
    const otherStream = await openLiveStream(base, b.tara.cookie);
    await note(a.owner, a.contactId, `Look, <@${a.taraId}>`);
    const event = await taraStream.next((e) => e.event === 'notification', 10_000);
    expect(event.data.contact_id).toBe(a.contactId);
    // The owner's stream has the note itself, never Tara's notice.
    await ownerStream.next((e) => e.event === 'note', 10_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(ownerStream.events.filter((e) => e.event === 'notification')).toEqual([]);
    expect(otherStream.events).toEqual([]);
    for (const s of [taraStream, ownerStream, otherStream]) s.close();
  });
});

describe('presence', () => {
  it("reaches the workspace's members only, and clears when the teammate leaves", async () => {
    const a = await team();
    const b = await team();
    const ownerStream = await openLiveStream(base, a.owner.cookie);
    const otherStream = await openLiveStream(base, b.owner.cookie);
    const post = (state: string) => a.tara.call('POST', '/presence', { contact_id: a.contactId, state });
    expect((await post('viewing')).statusCode).toBe(200);
    const seen = await ownerStream.next((e) => e.event === 'presence', 5_000);
    expect(seen.data).toMatchObject({
      user_id: a.taraId,
      name: `Tara ${n - 1}`,
      contact_id: a.contactId,
      state: 'viewing',
    });
    await post('replying');
    await ownerStream.next((e) => e.event === 'presence' && e.data.state === 'replying');
    expect((await a.owner.call('GET', '/presence')).json().presence).toEqual([
      expect.objectContaining({ user_id: a.taraId, contact_id: a.contactId, state: 'replying' }),
    ]);
    expect((await b.owner.call('GET', '/presence')).json().presence).toEqual([]);
    // A stream opened now is told who is already there.
    const late = await openLiveStream(base, a.owner.cookie);
    await late.next((e) => e.event === 'presence' && e.data.state === 'replying');

    await post('left');
    await ownerStream.next((e) => e.event === 'presence' && e.data.state === 'left');
    expect((await a.owner.call('GET', '/presence')).json().presence).toEqual([]);
    await new Promise((r) => setTimeout(r, 300));
    expect(otherStream.events).toEqual([]);
    for (const s of [ownerStream, otherStream, late]) s.close();
  });

  it.runIf(TEST_DB === 'postgres')('reaches streams on another instance, and a notice too', async () => {
    const second = await secondInstance(t);
    try {
      const a = await team();
      const secondBase = await listen(second);
      const elsewhere = await openLiveStream(secondBase, a.owner.cookie);
      const taraElsewhere = await openLiveStream(secondBase, a.tara.cookie);
      await a.tara.call('POST', '/presence', { contact_id: a.contactId, state: 'viewing' });
      const seen = await elsewhere.next((e) => e.event === 'presence', 5_000);
      expect(seen.data).toMatchObject({ user_id: a.taraId, state: 'viewing' });
      await note(a.owner, a.contactId, `Over there, <@${a.taraId}>`);
      await taraElsewhere.next((e) => e.event === 'notification', 10_000);
      expect(elsewhere.events.filter((e) => e.event === 'notification')).toEqual([]);
      elsewhere.close();
      taraElsewhere.close();
    } finally {
      await second.close();
    }
  });

  it("refuses another workspace's conversation with 404, announcing nothing", async () => {
    const a = await team();
    const b = await team();
    const ownerStream = await openLiveStream(base, a.owner.cookie);
    const res = await b.tara.call('POST', '/presence', { contact_id: a.contactId, state: 'viewing' });
    expectRestError(res, 404, 'not_found');
    await new Promise((r) => setTimeout(r, 300));
    expect(ownerStream.events).toEqual([]);
    expect((await a.owner.call('GET', '/presence')).json().presence).toEqual([]);
    ownerStream.close();
  });

  it('takes 60 posts a minute from one member, then 429, while another member still posts', async () => {
    const a = await team();
    const post = (client: AppClient) =>
      client.call('POST', '/presence', { contact_id: a.contactId, state: 'viewing' });
    for (let i = 0; i < 60; i++) expect((await post(a.tara)).statusCode).toBe(200);
    const refused = await post(a.tara);
    expectRestError(refused, 429, 'rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await post(a.owner)).statusCode).toBe(200);
  });
});
