import { describe, expect, it } from 'vitest';
import {
  type connectedWorkspace,
  simControl,
  simState,
  simulatorAppForTests,
} from '../../../test/support/messaging.js';
import { until } from '../../../test/support/until.js';
import { ApiError } from '../../api/errors.js';
import { getRun, listRuns } from './list-runs.js';
import { runStep } from './run-step.js';
import { createAutomation } from './save-automation.js';

// send_message: a media, reply-buttons or location message from a flow, inside the 24-hour window.

const t = simulatorAppForTests({ queue: true, statusDelaysMs: [-1, -1, -1] });

const IMAGE = {
  id: 'photo',
  type: 'send_message',
  message: {
    type: 'image',
    image: { link: '{{event.properties.image}}', caption: 'For you, {{contact.name | "friend"}}' },
  },
  not_sent: 'missed',
};
const BUTTONS = {
  id: 'ask',
  type: 'send_message',
  message: {
    type: 'interactive',
    interactive: {
      type: 'button',
      body: { text: 'Keep your booking, {{contact.name}}?' },
      action: {
        buttons: [
          { type: 'reply', reply: { id: 'keep', title: 'Keep it' } },
          { type: 'reply', reply: { id: 'move', title: 'Move it' } },
        ],
      },
    },
  },
  next: null,
};
const MISSED = { id: 'missed', type: 'add_tag', tag: 'missed', next: null };

async function flowOf(workspaceId: string, event: string, steps: unknown[]) {
  return createAutomation(
    t.ctx,
    workspaceId,
    { name: event, trigger: { type: 'event', event }, steps },
    { publish: true },
  );
}

async function runOf(workspaceId: string, automationId: string) {
  const run = await until(async () => {
    const [r] = await listRuns(t.ctx, workspaceId, { automationId });
    return (r?.status === 'completed' || r?.status === 'failed') && r;
  });
  return (await getRun(t.ctx, workspaceId, run.id))!;
}

const sentTo = (phone: string) => simState(t).messages.filter((m) => m.to === phone);

async function contactWithWindow(ws: Awaited<ReturnType<typeof connectedWorkspace>>, phone: string) {
  await t.api('POST', '/contacts', ws.key, { phone: `+${phone}`, name: 'Ravi' });
  await simControl(t.base, '/inbound', { from: phone, text: 'hi', phone_number_id: ws.number.phoneNumberId });
}

describe('a send_message step', () => {
  it("sends an image with a filled caption, then reply buttons, in Meta's shapes", async () => {
    const ws = await t.connectedWorkspace();
    const f = await flowOf(ws.id, 'booked', [IMAGE, BUTTONS, MISSED]);
    await contactWithWindow(ws, '14155556001');
    await t.api('POST', '/events', ws.key, {
      phone: '+14155556001',
      event: 'booked',
      properties: { image: 'https://cdn.example/room.jpg' },
    });
    const run = await runOf(ws.id, f.id);
    expect(run.steps.map((s) => [s.step_id, s.status])).toEqual([
      ['photo', 'done'],
      ['ask', 'done'],
    ]);
    expect(sentTo('14155556001').map((m) => m.payload)).toMatchObject([
      {
        type: 'image',
        image: { link: 'https://cdn.example/room.jpg', caption: 'For you, Ravi' },
      },
      {
        type: 'interactive',
        interactive: { ...BUTTONS.message.interactive, body: { text: 'Keep your booking, Ravi?' } },
      },
    ]);
  });

  it('sends a call-to-action URL button and a contact card, filled from the run', async () => {
    const ws = await t.connectedWorkspace();
    const cta = {
      type: 'cta_url',
      body: { text: 'Your order, {{contact.name}}' },
      action: {
        name: 'cta_url',
        parameters: { display_text: 'Track it', url: 'https://shop.example/o/{{event.properties.order}}' },
      },
    };
    const card = {
      name: { formatted_name: 'Front desk' },
      phones: [{ phone: '+14155550100', type: 'WORK' }],
    };
    const f = await flowOf(ws.id, 'shipped', [
      { id: 'link', type: 'send_message', message: { type: 'interactive', interactive: cta }, next: 'card' },
      { id: 'card', type: 'send_message', message: { type: 'contacts', contacts: [card] }, next: null },
    ]);
    await contactWithWindow(ws, '14155556005');
    await t.api('POST', '/events', ws.key, {
      phone: '+14155556005',
      event: 'shipped',
      properties: { order: 'A17' },
    });
    const run = await runOf(ws.id, f.id);
    expect(run.steps.map((s) => [s.step_id, s.status])).toEqual([
      ['link', 'done'],
      ['card', 'done'],
    ]);
    expect(sentTo('14155556005').map((m) => m.payload)).toMatchObject([
      {
        type: 'interactive',
        interactive: {
          ...cta,
          body: { text: 'Your order, Ravi' },
          action: {
            name: 'cta_url',
            parameters: { display_text: 'Track it', url: 'https://shop.example/o/A17' },
          },
        },
      },
      { type: 'contacts', contacts: [card] },
    ]);
  });

  it('takes not_sent outside the 24-hour window and sends nothing', async () => {
    const ws = await t.connectedWorkspace();
    const f = await flowOf(ws.id, 'late', [IMAGE, BUTTONS, MISSED]);
    await t.api('POST', '/events', ws.key, {
      phone: '+14155556002',
      event: 'late',
      properties: { image: 'https://cdn.example/room.jpg' },
    });
    const run = await runOf(ws.id, f.id);
    expect(run.steps.map((s) => [s.step_id, s.status, s.outcome.sent ?? null])).toEqual([
      ['photo', 'skipped', false],
      ['missed', 'done', null],
    ]);
    expect(sentTo('14155556002')).toEqual([]);
  });

  it('fails with a plain reason naming the part that is too long once filled', async () => {
    const ws = await t.connectedWorkspace();
    const long = {
      ...IMAGE,
      message: {
        type: 'image',
        image: {
          link: 'https://x.example/a.jpg',
          caption: '{{event.properties.blurb}} {{event.properties.blurb}}',
        },
      },
    };
    const f = await flowOf(ws.id, 'long', [long, MISSED]);
    await contactWithWindow(ws, '14155556003');
    await t.api('POST', '/events', ws.key, {
      phone: '+14155556003',
      event: 'long',
      properties: { blurb: 'x'.repeat(600) },
    });
    const run = await runOf(ws.id, f.id);
    expect(run.status).toBe('failed');
    expect(run.error).toBe(
      'step "photo": once its placeholders are filled, message.image.caption: Use at most 1,024 characters.',
    );
    expect(sentTo('14155556003')).toEqual([]);
  });

  it('sends once when its job runs again after a crash', async () => {
    const ws = await t.connectedWorkspace();
    const f = await flowOf(ws.id, 'again', [{ ...BUTTONS, not_sent: null }]);
    await contactWithWindow(ws, '14155556004');
    await t.api('POST', '/events', ws.key, { phone: '+14155556004', event: 'again' });
    const run = await runOf(ws.id, f.id);
    expect(run.status).toBe('completed');
    // As if the worker died after the send but before recording it.
    await t.ctx.db.query("UPDATE runs SET status = 'running' WHERE workspace_id = $1 AND id = $2", [
      ws.id,
      run.id,
    ]);
    await t.ctx.db.query("UPDATE run_steps SET status = 'started' WHERE workspace_id = $1 AND run_id = $2", [
      ws.id,
      run.id,
    ]);
    await runStep(t.ctx, { workspaceId: ws.id, runId: run.id, stepId: 'ask' }, false);
    expect(sentTo('14155556004')).toHaveLength(1);
  });

  it('is refused when saved without the object its type names, or with another', async () => {
    const ws = await t.connectedWorkspace();
    const cases: [Record<string, unknown>, string][] = [
      [{ type: 'image' }, 'steps.0.message.image'],
      [{ type: 'image', image: { link: 'https://x.example/a.jpg' }, audio: {} }, 'steps.0.message.audio'],
      [{ type: 'location', location: { latitude: 100, longitude: 0 } }, 'steps.0.message.location.latitude'],
      [{ type: 'contacts', contacts: [{ name: {} }] }, 'steps.0.message.contacts.0.name.formatted_name'],
    ];
    for (const [message, field] of cases) {
      const refused = await flowOf(ws.id, 'bad', [{ id: 's', type: 'send_message', message }]).catch(
        (e: unknown) => e,
      );
      expect(refused, field).toBeInstanceOf(ApiError);
      expect((refused as ApiError).details, field).toEqual([{ field, message: expect.any(String) }]);
    }
  });
});
