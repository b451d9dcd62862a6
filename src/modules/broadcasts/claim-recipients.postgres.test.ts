import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { createWorkspace } from '../workspaces/create-workspace.js';
import { claimRecipients } from './release-batch.js';

const t = testAppForTests();

it('claims around a recipient another transaction holds instead of waiting for it', async () => {
  const db = t.ctx.db;
  const ws = await createWorkspace(db, { name: 'Claim', defaultCountryCode: '91', plan: 'scale' });
  await db.query(
    `INSERT INTO broadcasts (workspace_id, id, name, status, template_name, template_language, template_category,
       audience, "values", time_zone)
     VALUES ($1, 'bc_claim', 'Claim', 'sending', 'offer', 'en', 'MARKETING', '{"tags_all": ["claim"]}', '{}', 'UTC')`,
    [ws.id],
  );
  for (const n of [0, 1, 2]) {
    await db.query(`INSERT INTO contacts (workspace_id, id, phone) VALUES ($1, $2, $3)`, [
      ws.id,
      `ct_claim_${n}`,
      `9198000000${n}`,
    ]);
    await db.query(
      `INSERT INTO broadcast_recipients (workspace_id, broadcast_id, contact_id, phone) VALUES ($1, 'bc_claim', $2, $3)`,
      [ws.id, `ct_claim_${n}`, `9198000000${n}`],
    );
  }
  // As a status webhook's statement holds a recipient it is moving.
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => {
    locked = resolve;
  });
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const holder = db.transaction(async (tx) => {
    await tx.query(
      `SELECT 1 FROM broadcast_recipients WHERE workspace_id = $1 AND broadcast_id = 'bc_claim' AND contact_id = 'ct_claim_0'
       FOR UPDATE`,
      [ws.id],
    );
    locked();
    await released;
  });
  await isLocked;
  try {
    const claimed = await Promise.race([
      claimRecipients(t.ctx, ws.id, 'bc_claim', 10, false),
      sleep(5_000).then(() => 'still waiting for the held recipient' as const),
    ]);
    expect(claimed).not.toBe('still waiting for the held recipient');
    expect((claimed as { contact_id: string }[]).map((c) => c.contact_id).sort()).toEqual([
      'ct_claim_1',
      'ct_claim_2',
    ]);
  } finally {
    release();
    await holder;
  }
  expect((await claimRecipients(t.ctx, ws.id, 'bc_claim', 10, false)).map((c) => c.contact_id)).toEqual([
    'ct_claim_0',
  ]);
});
