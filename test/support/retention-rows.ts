import { Readable } from 'node:stream';
import type { TestApp } from './app.js';

const MINUTE = 60_000;
const DAY = 86_400_000;

/** A moment `days` days and `minutes` minutes back (negative minutes: that much less far back). */
export const ago = (days: number, minutes = 0) => new Date(Date.now() - days * DAY - minutes * MINUTE);

/**
 * One workspace's rows of every kind retention looks at, each made `age` ago, named `<kind>_<tag>`
 * (ids carry the workspace so two workspaces' rows never clash): a contact, an inbound text message
 * and an outbound template message (and a queued one, not yet sent), a stored media file with its
 * bytes in the media store, a completed and a failed run with a step each, a delivered and a failed
 * webhook delivery (and a pending one).
 */
export async function rowsAged(t: TestApp, workspaceId: string, tag: string, age: Date) {
  const db = t.ctx.db;
  const id = (kind: string) => `${kind}_${tag}_${workspaceId}`;
  const contactId = id('ct');
  await db.query(
    `INSERT INTO contacts (workspace_id, id, phone, name) VALUES ($1, $2, $3, 'Asha')
     ON CONFLICT DO NOTHING`,
    [workspaceId, contactId, `9198${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`],
  );
  const message = (kind: string, direction: string, type: string, status: string, rank: number, at = age) =>
    db.query(
      `INSERT INTO messages (workspace_id, id, direction, contact_id, phone, type, template_name, template_language,
         template_values, template_components, text, content, context, referral, status, status_rank, created_at, updated_at)
       VALUES ($1, $2, $3, $4, '919800000000', $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $16)`,
      [
        workspaceId,
        id(kind),
        direction,
        contactId,
        type,
        type === 'template' ? 'order_update' : null,
        type === 'template' ? 'en' : null,
        type === 'template' ? JSON.stringify(['Asha', 'A-1042']) : null,
        type === 'template'
          ? JSON.stringify([{ type: 'body', parameters: [{ type: 'text', text: 'Asha' }] }])
          : null,
        type === 'text' ? `secret words ${tag}` : null,
        type === 'image' ? JSON.stringify({ id: `net_${id(kind)}`, caption: 'my passport' }) : null,
        direction === 'inbound' ? JSON.stringify({ forwarded: true }) : null,
        direction === 'inbound' ? JSON.stringify({ source_id: 'ad1' }) : null,
        status,
        rank,
        at,
      ],
    );
  await message('msg_in', 'inbound', 'text', 'received', 0);
  await message('msg_tpl', 'outbound', 'template', 'read', 4);
  // A minute older than the others, so the conversation's last message is one of them.
  await message('msg_queued', 'outbound', 'text', 'queued', 0, new Date(age.getTime() - 60_000));
  await message('msg_img', 'inbound', 'image', 'received', 0);

  const storageKey = `${workspaceId}/${id('me')}`;
  await t.ctx.media.put(storageKey, Readable.from([Buffer.from(`bytes of ${tag}`)]));
  await db.query(
    `INSERT INTO media (workspace_id, id, direction, network_id, message_id, kind, mime_type, size, storage_key, state, created_at)
     VALUES ($1, $2, 'inbound', $3, $4, 'image', 'image/jpeg', 12, $5, 'stored', $6),
            ($1, $7, 'inbound', $8, NULL, 'image', 'image/jpeg', NULL, NULL, 'pending', $6)`,
    [
      workspaceId,
      id('me'),
      `net_${id('msg_img')}`,
      id('msg_img'),
      storageKey,
      age,
      id('mepending'),
      `net_${id('mepending')}`,
    ],
  );

  const automationId = id('au');
  await db.query(
    `INSERT INTO automations (workspace_id, id, kind, name, trigger_type, trigger_event, draft, published_version)
     VALUES ($1, $2, 'flow', $2, 'event', 'signup', '{}', 1)`,
    [workspaceId, automationId],
  );
  await db.query(
    `INSERT INTO automation_versions (workspace_id, automation_id, version, definition) VALUES ($1, $2, 1, '{}')`,
    [workspaceId, automationId],
  );
  for (const status of ['completed', 'failed']) {
    await db.query(
      `INSERT INTO runs (workspace_id, id, automation_id, version, contact_id, status, started_at, updated_at, finished_at)
       VALUES ($1, $2, $3, 1, $4, $5, $6, $6, $6)`,
      [workspaceId, id(`run_${status}`), automationId, contactId, status, age],
    );
    await db.query(
      `INSERT INTO run_steps (workspace_id, run_id, step_id, type, status, started_at, finished_at)
       VALUES ($1, $2, 'send', 'send_text', 'done', $3, $3)`,
      [workspaceId, id(`run_${status}`), age],
    );
  }

  for (const status of ['delivered', 'failed', 'pending']) {
    await db.query(
      `INSERT INTO webhook_deliveries (workspace_id, id, endpoint_id, event_type, event_key, payload, status, created_at)
       VALUES ($1, $2, 'we_1', 'message.status', $2, '{}', $3, $4)`,
      [workspaceId, id(`wd_${status}`), status, age],
    );
  }
  return { id, contactId, storageKey };
}

/** A run that has not finished, started `age` ago: waiting on a step, or running one. */
export async function unfinishedRun(t: TestApp, workspaceId: string, tag: string, status: string, age: Date) {
  const automationId = `au_${tag}_${workspaceId}`;
  const runId = `run_${status}_${tag}_${workspaceId}`;
  await t.ctx.db.query(
    `INSERT INTO runs (workspace_id, id, automation_id, version, status, started_at, updated_at)
     VALUES ($1, $2, $3, 1, $4, $5, $5)`,
    [workspaceId, runId, automationId, status, age],
  );
  await t.ctx.db.query(
    `INSERT INTO run_steps (workspace_id, run_id, step_id, type, status, wait_until, started_at)
     VALUES ($1, $2, 'wait', 'wait', 'waiting', now() + interval '1 day', $3)`,
    [workspaceId, runId, age],
  );
  return runId;
}

/** Whether the media store holds bytes under `key`. */
export async function storeHas(t: TestApp, key: string): Promise<boolean> {
  const body = await t.ctx.media.get(key);
  body?.destroy();
  return body !== null;
}
