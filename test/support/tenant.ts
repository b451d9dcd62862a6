import { randomBytes } from 'node:crypto';
import { addMember } from '../../src/modules/accounts/users.js';
import { saveTemplate } from '../../src/modules/templates/save-template.js';
import type { TestApp } from './app.js';
import { createTestUser, workspaceWithOwner } from './app-session.js';
import { connectSimulator, SIM_TEMPLATES } from './messaging.js';
import type { Call } from './tenant-wall.js';

type Row = { id: string };

/** A sequence started by a webhook: it has a secret, and its one step needs no network. */
export const SEQUENCE = (name: string) => ({
  name,
  trigger: { type: 'webhook' },
  steps: [{ id: 's', type: 'update_lead_status', status: 'contacted' }],
});

/** A CSV file as a multipart form's `file` part, as a browser or curl -F sends it. */
export function csvForm(csv: string): FormData {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'contacts.csv');
  return form;
}

/**
 * A workspace with a signed-in owner and an API key, whose rows are made on first ask, through the
 * APIs where they can be (each builder runs once per tenant). Every name and phone carries the
 * tenant's own tag, so an answer that shows one of its rows can be told by a string.
 */
export class Tenant {
  readonly tag = `t${randomBytes(4).toString('hex')}`;
  private readonly made = new Map<string, Promise<unknown>>();
  constructor(
    private readonly t: TestApp,
    /** The server's own address: the in-process simulator posts its webhooks back to it. */
    private readonly base: string,
  ) {}

  private once<T>(what: string, make: () => Promise<T>): Promise<T> {
    if (!this.made.has(what)) this.made.set(what, make());
    return this.made.get(what) as Promise<T>;
  }

  /** The owner's session is written as sign-in writes it: sign-in is tested on its own, and its scrypt is slow. */
  owner() {
    return this.once('owner', () => workspaceWithOwner(this.t, 'owner', { session: 'direct' }));
  }
  async workspaceId(): Promise<string> {
    return (await this.owner()).workspaceId;
  }

  /** A call through the web app's API with the owner's session (and its CSRF token). */
  readonly app: Call = async (method, path, body) => (await this.owner()).client.call(method, path, body);

  /** A call through REST v1 with the workspace's API key. */
  readonly rest: Call = async (method, path, body) =>
    this.t.api(method, path, (await this.owner()).apiKey, body);

  /** A call that must succeed; its JSON answer. */
  private async succeed(call: Call, method: string, path: string, body?: unknown) {
    const res = await call(method, path, body);
    if (res.statusCode >= 300)
      throw new Error(`${method} ${path} for a fixture: ${res.statusCode} ${res.body}`);
    return res.json();
  }

  /** The number, connected to the in-process simulator, with its templates synced. */
  number() {
    return this.once('number', async () => connectSimulator(this.t, this.base, await this.workspaceId()));
  }

  /** A phone number of its own: four digits from the tag. */
  phone(): string {
    return `+1415555${2000 + (Number.parseInt(this.tag.slice(1, 5), 16) % 1000)}`;
  }

  contact() {
    return this.once('contact', async (): Promise<Row & { phone: string; name: string }> => {
      const name = `Contact ${this.tag}`;
      const { id } = await this.succeed(this.rest, 'POST', '/contacts', { phone: this.phone(), name });
      return { id, phone: this.phone().slice(1), name };
    });
  }

  /** A CSV import of one contact named with the tenant's tag. */
  contactImport() {
    return this.once('import', async (): Promise<Row> => {
      const csv = `phone,name\n${this.phone()},Imported ${this.tag}\n`;
      const started = await this.succeed(this.rest, 'POST', '/contacts/import', csvForm(csv));
      return { id: started.import.id };
    });
  }

  /** A template message sent to the contact through the simulator (accepted). */
  message() {
    return this.once('message', async (): Promise<Row> => {
      await this.number();
      await this.contact();
      const welcome = SIM_TEMPLATES[0]!;
      const sent = await this.succeed(this.rest, 'POST', '/messages', {
        to: this.phone(),
        template: { name: welcome.name, language: welcome.language, body: ['Ann', this.tag] },
      });
      return { id: sent.id };
    });
  }

  /** The contact's conversation (its id is the contact's), begun by the template message sent to it. */
  conversation() {
    return this.once('conversation', async (): Promise<Row> => {
      await this.message();
      return { id: (await this.contact()).id };
    });
  }

  /** An approved template only this workspace has. */
  template() {
    return this.once('template', async () => {
      const template = { name: `offer_${this.tag}`, language: 'en', category: 'MARKETING', body: 'Hi {{1}}' };
      await saveTemplate(this.t.ctx.db, await this.workspaceId(), { ...template, status: 'APPROVED' });
      return template;
    });
  }

  /** A draft broadcast of the simulator's welcome template to every contact, named with the tag. */
  broadcast() {
    return this.once('broadcast', async (): Promise<Row> => {
      await this.number();
      await this.contact();
      const { broadcast } = await this.succeed(this.rest, 'POST', '/broadcasts', {
        name: `Broadcast ${this.tag}`,
        template: { name: 'welcome', language: 'en' },
        audience: {},
        values: {
          body: [
            { from: 'contact', field: 'name', fallback: 'there' },
            { from: 'text', text: this.tag },
          ],
        },
        draft: true,
      });
      return { id: broadcast.id };
    });
  }

  apiKey() {
    return this.once(
      'apiKey',
      (): Promise<Row> => this.succeed(this.app, 'POST', '/api-keys', { name: this.tag }),
    );
  }

  /** An outbound webhook endpoint; `.invalid` never resolves, so a test delivery fails at once. */
  webhook() {
    return this.once(
      'webhook',
      (): Promise<Row> =>
        this.succeed(this.app, 'POST', '/webhooks', { url: `https://${this.tag}.example.invalid/hook` }),
    );
  }

  invitation() {
    return this.once(
      'invitation',
      (): Promise<Row> =>
        this.succeed(this.app, 'POST', '/invitations', {
          email: `invited-${this.tag}@example.com`,
          role: 'member',
        }),
    );
  }

  /** A second member (role member) besides the owner. */
  member() {
    return this.once('member', async () => {
      const email = `member-${this.tag}@example.com`;
      const userId = await createTestUser(this.t.ctx.db, email, 'Member');
      await addMember(this.t.ctx.db, await this.workspaceId(), userId, 'member');
      return { userId, email };
    });
  }

  /** A form switched on (a new form is a draft), taking submissions. */
  form() {
    return this.once(
      'form',
      (): Promise<Row & { token: string }> =>
        this.succeed(this.app, 'POST', '/forms', { name: `Form ${this.tag}`, active: true }),
    );
  }

  /** A published sequence started by a webhook, with a secret. */
  sequence() {
    return this.once('sequence', async (): Promise<Row & { secret: string }> => {
      const { id } = await this.succeed(this.app, 'POST', '/automations', {
        kind: 'sequence',
        definition: SEQUENCE(`Sequence ${this.tag}`),
        publish: true,
      });
      const { automation } = await this.succeed(this.app, 'GET', `/automations/${id}`);
      return { id, secret: automation.webhook.secret };
    });
  }

  /** A published flow started by an event of its own name. */
  flow() {
    return this.once('flow', async (): Promise<Row & { event: string }> => {
      const event = `signup_${this.tag}`;
      const definition = {
        name: `Flow ${this.tag}`,
        trigger: { type: 'event', event },
        steps: [{ id: 'tag', type: 'add_tag', tag: 'signed-up' }],
      };
      const { id } = await this.succeed(this.app, 'POST', '/automations', {
        kind: 'flow',
        definition,
        publish: true,
      });
      return { id, event };
    });
  }

  /** A lead posted to the sequence's webhook, and the run that enrolled it. */
  lead() {
    return this.once('lead', async () => {
      const { id, secret } = await this.sequence();
      const res = await this.t.app.inject({
        method: 'POST',
        url: `/api/automation/webhooks/${id}/${secret}`,
        payload: { name: `Lead ${this.tag}`, email: `lead-${this.tag}@example.com` },
      });
      if (res.statusCode !== 202)
        throw new Error(`webhook intake for a fixture: ${res.statusCode} ${res.body}`);
      const { lead_id, run_id } = res.json();
      return { id: lead_id as string, runId: run_id as string };
    });
  }
}
