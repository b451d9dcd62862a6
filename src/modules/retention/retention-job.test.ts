import { describe, expect, it } from 'vitest';
import { testAppForTests } from '../../../test/support/app.js';
import { ago, rowsAged } from '../../../test/support/retention-rows.js';
import { until } from '../../../test/support/until.js';
import { jobCatalog } from '../../jobs/catalog.js';

const t = testAppForTests({ queue: true });

describe('maintenance.retention through the job queue', () => {
  it('is scheduled once a day, and a queued run removes what is past the defaults', async () => {
    expect(jobCatalog['maintenance.retention'].cron).toMatch(/^\d+ \d+ \* \* \*$/);
    const { rows: schedules } = await t.ctx.db.query<{ cron: string }>(
      "SELECT cron FROM pgboss.schedule WHERE name = 'maintenance.retention'",
    );
    expect(schedules).toEqual([{ cron: jobCatalog['maintenance.retention'].cron }]);

    const ws = await t.workspace();
    // The defaults: delivery logs 30 days, finished runs 90.
    const old = await rowsAged(t, ws.id, 'd31', ago(31));
    const jobId = await t.ctx.queue!.send('maintenance.retention', {});
    await until(async () => {
      const { rows } = await t.ctx.db.query<{ state: string }>('SELECT state FROM pgboss.job WHERE id = $1', [
        jobId,
      ]);
      return rows[0]?.state === 'completed' ? true : undefined;
    });
    const { rows } = await t.ctx.db.query<{ id: string }>(
      'SELECT id FROM webhook_deliveries WHERE workspace_id = $1 ORDER BY id',
      [ws.id],
    );
    expect(rows.map((r) => r.id)).toEqual([old.id('wd_pending')]);
    const { rows: runs } = await t.ctx.db.query('SELECT id FROM runs WHERE workspace_id = $1', [ws.id]);
    expect(runs).toHaveLength(2);
  });
});
