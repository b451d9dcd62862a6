import { describe, expect, it } from 'vitest';
import { simControl, simState, simulatorAppForTests } from '../../../test/support/messaging.js';
import { PROMO } from '../../../test/support/rich-template.js';
import { until } from '../../../test/support/until.js';
import { ApiError } from '../../api/errors.js';
import { createTemplate } from '../templates/create-template.js';
import { syncTemplates } from '../templates/sync-templates.js';
import { listRuns } from './list-runs.js';
import { createAutomation } from './save-automation.js';

const t = simulatorAppForTests({ queue: true, statusDelaysMs: [-1, -1, -1] });

const step = (template: Record<string, unknown>) => ({
  id: 'promo',
  type: 'send_template',
  template: { name: 'summer_sale', language: 'en_US', ...template },
});
const GOOD = {
  header: { link: '{{event.properties.image}}' },
  body: { first_name: '{{contact.name | "there"}}', discount: '{{event.properties.discount}}' },
  buttons: [{ index: 0, text: '{{event.properties.code}}' }],
};
const flow = (event: string, template: Record<string, unknown>) => ({
  name: 'Promo',
  trigger: { type: 'event', event },
  steps: [step(template)],
});

async function promoWorkspace() {
  const ws = await t.connectedWorkspace();
  await createTemplate(t.ctx, ws.id, PROMO);
  await simControl(
    t.base,
    `/templates/summer_sale/en_US/approve?business_account_id=${ws.number.businessAccountId}`,
  );
  await syncTemplates(t.ctx, ws.number);
  return ws;
}

async function runOf(workspaceId: string, automationId: string) {
  return until(async () => {
    const [run] = await listRuns(t.ctx, workspaceId, { automationId });
    return (run?.status === 'completed' || run?.status === 'failed') && run;
  });
}

describe('a send_template step with a header, named body values and a button', () => {
  it('fills them from the contact and the event and sends them as Meta documents', async () => {
    const ws = await promoWorkspace();
    const f = await createAutomation(t.ctx, ws.id, flow('sale', GOOD), { publish: true });
    await t.api('POST', '/events', ws.key, {
      phone: '+14155557001',
      event: 'sale',
      properties: { image: 'https://cdn.example/sale.jpg', discount: '25%', code: 's25' },
    });
    expect((await runOf(ws.id, f.id)).status).toBe('completed');
    const [sent] = simState(t).messages.filter((m) => m.to === '14155557001');
    expect((sent!.payload as { template: { components: unknown[] } }).template.components).toEqual([
      { type: 'header', parameters: [{ type: 'image', image: { link: 'https://cdn.example/sale.jpg' } }] },
      {
        type: 'body',
        parameters: [
          { type: 'text', parameter_name: 'first_name', text: 'there' },
          { type: 'text', parameter_name: 'discount', text: '25%' },
        ],
      },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 's25' }] },
    ]);
  });

  it('is refused when saved, naming the step and the part, if it does not fit the template', async () => {
    const ws = await promoWorkspace();
    const cases: [Record<string, unknown>, string][] = [
      [{ ...GOOD, header: undefined }, 'steps.0.template.header'],
      [{ ...GOOD, header: '{{event.properties.image}}' }, 'steps.0.template.header'],
      [{ ...GOOD, body: { first_name: 'x', discount: 'y', extra: 'z' } }, 'steps.0.template.body.extra'],
      [{ ...GOOD, buttons: [] }, 'steps.0.template.buttons[0]'],
    ];
    for (const [template, field] of cases) {
      const refused = await createAutomation(t.ctx, ws.id, flow('x', template)).catch((e: unknown) => e);
      expect(refused, field).toBeInstanceOf(ApiError);
      expect((refused as ApiError).details, field).toEqual([
        { field, message: expect.stringMatching(/^step "promo": /) },
      ]);
    }
  });

  it('fails its run through the same checks as POST /messages when the template came later', async () => {
    const ws = await t.connectedWorkspace();
    const f = await createAutomation(t.ctx, ws.id, flow('late', { ...GOOD, buttons: undefined }), {
      publish: true,
    });
    await createTemplate(t.ctx, ws.id, PROMO);
    await simControl(
      t.base,
      `/templates/summer_sale/en_US/approve?business_account_id=${ws.number.businessAccountId}`,
    );
    await syncTemplates(t.ctx, ws.number);
    await t.api('POST', '/events', ws.key, {
      phone: '+14155557002',
      event: 'late',
      properties: { image: 'https://cdn.example/sale.jpg', discount: '10%' },
    });
    const run = await runOf(ws.id, f.id);
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/step "promo": validation_error: template\.buttons\[0\]/);
    expect(simState(t).messages.filter((m) => m.to === '14155557002')).toEqual([]);
  });
});
