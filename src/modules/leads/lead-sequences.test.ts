import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { submit } from '../../../test/support/intake.js';
import { createAutomation } from '../automation/save-automation.js';
import { createForm } from '../forms/create-form.js';

const t = testAppForTests({ queue: true });

const STEPS = [
  { id: 'wait', type: 'wait', duration: '1d' },
  { id: 'after', type: 'update_lead_status', status: 'contacted' },
];

async function sequence(workspaceId: string, trigger: Record<string, unknown>, publish = true) {
  return (await createAutomation(t.ctx, workspaceId, { name: 'S', trigger, steps: STEPS }, { publish })).id;
}

async function runs(workspaceId: string) {
  const { rows } = await t.ctx.db.query<{ automation_id: string; lead_id: string; trigger_data: unknown }>(
    'SELECT automation_id, lead_id, trigger_data FROM runs WHERE workspace_id = $1',
    [workspaceId],
  );
  return rows;
}

describe('sequences started by new leads', () => {
  it('a form lead starts the published "form submitted" sequences (any form, this form) and "lead created" ones', async () => {
    const ws = await t.workspace();
    const other = await t.workspace();
    const form = await createForm(t.ctx.db, ws.id);
    const otherForm = await createForm(t.ctx.db, ws.id);
    const anyForm = await sequence(ws.id, { type: 'form_submitted' });
    const thisForm = await sequence(ws.id, { type: 'form_submitted', form_id: form.id });
    const created = await sequence(ws.id, { type: 'lead_created' });
    await sequence(ws.id, { type: 'form_submitted', form_id: otherForm.id });
    await sequence(ws.id, { type: 'lead_created' }, false);
    await sequence(ws.id, { type: 'webhook' });
    await sequence(other.id, { type: 'lead_created' });

    const res = await submit(t, { token: form.token, email: 'seq@example.com', plan: 'pro' });
    expect(res.statusCode).toBe(201);
    const leadId = res.json().lead_id;
    const started = await runs(ws.id);
    expect(started.map((r) => r.automation_id).sort()).toEqual([anyForm, thisForm, created].sort());
    for (const run of started) {
      expect(run.lead_id).toBe(leadId);
      expect(run.trigger_data).toMatchObject({
        payload: { email: 'seq@example.com', plan: 'pro', form_id: form.id },
      });
    }
    expect(await runs(other.id)).toEqual([]);
  });

  it('a webhook lead starts its own sequence and the "lead created" ones; a lead given by leadId starts only its own', async () => {
    const ws = await t.workspace();
    const created = await sequence(ws.id, { type: 'lead_created' });
    const hook = await createAutomation(
      t.ctx,
      ws.id,
      { name: 'Hook', trigger: { type: 'webhook' }, steps: STEPS },
      { publish: true },
    );
    const onSubmit = await sequence(ws.id, { type: 'form_submitted' });
    const url = `/api/automation/webhooks/${hook.id}/${hook.secret}`;
    const res = await t.app.inject({ method: 'POST', url, payload: { email: 'w@example.com' } });
    expect(res.statusCode).toBe(202);
    expect((await runs(ws.id)).map((r) => r.automation_id).sort()).toEqual([created, hook.id].sort());
    const other = await createAutomation(
      t.ctx,
      ws.id,
      { name: 'Hook 2', trigger: { type: 'webhook' }, steps: STEPS },
      { publish: true },
    );
    await t.app.inject({
      method: 'POST',
      url: `/api/automation/webhooks/${other.id}/${other.secret}`,
      payload: { leadId: res.json().lead_id },
    });
    const all = (await runs(ws.id)).map((r) => r.automation_id);
    expect(all.sort()).toEqual([created, hook.id, other.id].sort());
    expect(all).not.toContain(onSubmit);
  });
});
