import { expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { createWorkspace } from '../workspaces/create-workspace.js';
import { claimRecipients } from './release-batch.js';

// The claim's rules that need no second transaction, so a plain `npm test` (PGlite) holds them too;
// claiming around a recipient another transaction holds is claim-recipients.postgres.test.ts.
const t = testAppForTests();

it("takes first, at a delivery's start only, the recipients a delivery that died left releasing", async () => {
  const db = t.ctx.db;
  const ws = await createWorkspace(db, { name: 'Leftovers', defaultCountryCode: '91', plan: 'scale' });
  await db.query(
    `INSERT INTO broadcasts (workspace_id, id, name, status, template_name, template_language, template_category,
       audience, "values", time_zone)
     VALUES ($1, 'bc_left', 'Leftovers', 'sending', 'offer', 'en', 'MARKETING', '{"tags_all": ["left"]}', '{}', 'UTC')`,
    [ws.id],
  );
  for (const [n, state] of ['pending', 'releasing', 'pending'].entries()) {
    await db.query('INSERT INTO contacts (workspace_id, id, phone) VALUES ($1, $2, $3)', [
      ws.id,
      `ct_left_${n}`,
      `9198000001${n}`,
    ]);
    await db.query(
      `INSERT INTO broadcast_recipients (workspace_id, broadcast_id, contact_id, phone, state)
       VALUES ($1, 'bc_left', $2, $3, $4)`,
      [ws.id, `ct_left_${n}`, `9198000001${n}`, state],
    );
  }
  const claim = async (limit: number, leftovers: boolean) =>
    (await claimRecipients(t.ctx, ws.id, 'bc_left', limit, leftovers))
      .map((c) => ({ id: c.contact_id, leftover: c.leftover, phone: c.contact?.phone }))
      .sort((a, b) => a.id.localeCompare(b.id));

  expect(await claim(1, true)).toEqual([{ id: 'ct_left_1', leftover: true, phone: '91980000011' }]);
  // Later claims of the same delivery pass over its own releasing recipients, on their way.
  expect(await claim(10, false)).toEqual([
    { id: 'ct_left_0', leftover: false, phone: '91980000010' },
    { id: 'ct_left_2', leftover: false, phone: '91980000012' },
  ]);
  expect(await claim(10, false)).toEqual([]);
  const { rows } = await db.query<{ state: string }>(
    "SELECT DISTINCT state FROM broadcast_recipients WHERE workspace_id = $1 AND broadcast_id = 'bc_left'",
    [ws.id],
  );
  expect(rows).toEqual([{ state: 'releasing' }]);
});
