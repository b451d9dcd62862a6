import { ApiError } from '../../../api/errors.js';
import type { AppContext } from '../../../context.js';
import type { Db, Queryable } from '../../../db/db.js';
import { newId } from '../../../lib/ids.js';
import { withContactLimit } from '../contact-limit.js';
import { ON_PHONE_CONFLICT } from '../upsert-contact.js';
import { type ContactRow, contactOfRow, type StagedRow } from './import-row.js';
import { recordRefusals } from './record-refusals.js';

const BATCH = 500;

type Row = { n: number; contact: ContactRow } | { n: number; reason: string };

const UPSERT_MANY = `
INSERT INTO contacts (workspace_id, id, phone, name, email, tags, traits)
SELECT $1, x->>'id', x->>'phone', x->>'name', x->>'email', ARRAY(SELECT jsonb_array_elements_text(x->'tags')), x->'traits'
FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS a(x, o) ORDER BY o${ON_PHONE_CONFLICT}`;

/** Contacts in groups whose phones differ: one statement cannot update the same row twice. */
function distinctPhoneGroups(contacts: ContactRow[]): ContactRow[][] {
  const groups: ContactRow[][] = [];
  let group: ContactRow[] = [];
  let phones = new Set<string>();
  for (const c of contacts) {
    if (phones.has(c.phone)) {
      groups.push(group);
      group = [];
      phones = new Set();
    }
    group.push(c);
    phones.add(c.phone);
  }
  if (group.length) groups.push(group);
  return groups;
}

/** One step of the import: its rows' contacts, refusals, counts and removal from the staged rows, together. */
async function applyRows(q: Queryable, workspaceId: string, importId: string, rows: Row[]) {
  let created = 0;
  let updated = 0;
  const contacts = rows.flatMap((r) => ('contact' in r ? [r.contact] : []));
  for (const group of distinctPhoneGroups(contacts)) {
    const { rows: done } = await q.query<{ id: string; created: boolean }>(UPSERT_MANY, [
      workspaceId,
      JSON.stringify(group.map((c) => ({ ...c, id: newId('ct') }))),
    ]);
    for (const d of done) d.created ? created++ : updated++;
    // What the import touched, for a broadcast to these contacts.
    await q.query(
      `INSERT INTO contact_import_contacts (workspace_id, import_id, contact_id)
       SELECT $1, $2, unnest($3::text[]) ON CONFLICT DO NOTHING`,
      [workspaceId, importId, done.map((d) => d.id)],
    );
  }
  const refusals = rows.flatMap((r) => ('reason' in r ? [{ n: r.n, reason: r.reason }] : []));
  await recordRefusals(q, workspaceId, importId, refusals);
  await q.query(
    'DELETE FROM contact_import_rows WHERE workspace_id = $1 AND import_id = $2 AND row_number = ANY ($3::int[])',
    [workspaceId, importId, rows.map((r) => r.n)],
  );
  await q.query(
    `UPDATE contact_imports SET processed_rows = processed_rows + $3, created = created + $4, updated = updated + $5,
       refused = refused + $6, updated_at = now()
     WHERE workspace_id = $1 AND id = $2`,
    [workspaceId, importId, rows.length, created, updated, refusals.length],
  );
}

const limitReached = (err: unknown) => err instanceof ApiError && err.code === 'plan_limit_reached';

/**
 * The contacts.import job: applies the staged rows in batches, each committed with its counts, so a
 * retried job resumes with the rows left. At the plan's contact limit the batch is applied row by
 * row up to the row that would pass it; the import stops there and says so.
 */
export async function runImport(
  ctx: AppContext,
  job: { workspaceId: string; importId: string },
): Promise<void> {
  const { workspaceId, importId } = job;
  const { rows: found } = await ctx.db.query<{ default_country_code: string | null; contacts_limit: number }>(
    `UPDATE contact_imports i SET status = 'running', updated_at = now()
     FROM workspaces w JOIN plans p ON p.name = w.plan
     WHERE i.workspace_id = $1 AND i.id = $2 AND i.status IN ('queued', 'running') AND w.id = i.workspace_id
     RETURNING w.default_country_code, p.contacts_limit`,
    [workspaceId, importId],
  );
  const settings = found[0];
  if (!settings) return;
  for (;;) {
    const { rows: staged } = await ctx.db.query<{ row_number: number; fields: StagedRow }>(
      `SELECT row_number, fields FROM contact_import_rows WHERE workspace_id = $1 AND import_id = $2
       ORDER BY row_number LIMIT ${BATCH}`,
      [workspaceId, importId],
    );
    if (staged.length === 0) break;
    const rows: Row[] = staged.map((s) => {
      const contact = contactOfRow(s.fields, settings.default_country_code);
      return typeof contact === 'string'
        ? { n: s.row_number, reason: contact }
        : { n: s.row_number, contact };
    });
    try {
      await withContactLimit(ctx.db, (q) => applyRows(q, workspaceId, importId, rows), { transaction: true });
    } catch (err) {
      if (!limitReached(err)) throw err;
      for (const row of rows) {
        try {
          await withContactLimit(ctx.db, (q) => applyRows(q, workspaceId, importId, [row]), {
            transaction: true,
          });
        } catch (rowErr) {
          if (!limitReached(rowErr)) throw rowErr;
          return stop(ctx.db, workspaceId, importId, row.n, settings.contacts_limit);
        }
      }
    }
  }
  await ctx.db.query(
    `UPDATE contact_imports SET status = 'completed', finished_at = now(), updated_at = now()
     WHERE workspace_id = $1 AND id = $2 AND status = 'running'`,
    [workspaceId, importId],
  );
}

async function stop(db: Db, workspaceId: string, importId: string, row: number, limit: number) {
  await db.transaction(async (tx) => {
    await tx.query('DELETE FROM contact_import_rows WHERE workspace_id = $1 AND import_id = $2', [
      workspaceId,
      importId,
    ]);
    await tx.query(
      `UPDATE contact_imports SET status = 'stopped', finished_at = now(), updated_at = now(), stopped_reason = $3
       WHERE workspace_id = $1 AND id = $2`,
      [
        workspaceId,
        importId,
        `The plan's limit of ${limit} contacts was reached at row ${row}: that row and the ones after it were not imported. Upgrade the plan and import them again.`,
      ],
    );
  });
}
