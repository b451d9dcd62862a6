import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../../context.js';
import type { Queryable } from '../../../db/db.js';
import { inTransaction } from '../../../jobs/enqueue.js';
import { newId } from '../../../lib/ids.js';
import { type HeavyWorkOwner, holdHeavyWork } from '../../rate-limit/heavy-work.js';
import { type ImportQuery, type Mapping, mapColumns } from './column-mapping.js';
import { getImport } from './get-import.js';
import { type StagedRow, stageRow } from './import-row.js';
import { readCsv } from './read-csv.js';
import { uploadOf } from './read-upload.js';
import { recordRefusals } from './record-refusals.js';

const STAGE_BATCH = 1000;

async function stage(
  db: Queryable,
  workspaceId: string,
  importId: string,
  rows: { n: number; f: StagedRow }[],
) {
  await db.query(
    `INSERT INTO contact_import_rows (workspace_id, import_id, row_number, fields)
     SELECT $1, $2, (x->>'n')::int, x->'f' FROM jsonb_array_elements($3::jsonb) AS x`,
    [workspaceId, importId, JSON.stringify(rows)],
  );
}

/** Drops an import whose upload failed part-way: nothing of it is left to apply or to show. */
async function discard(db: Queryable, workspaceId: string, importId: string) {
  for (const table of ['contact_import_rows', 'contact_import_refusals'])
    await db.query(`DELETE FROM ${table} WHERE workspace_id = $1 AND import_id = $2`, [
      workspaceId,
      importId,
    ]);
  await db.query('DELETE FROM contact_imports WHERE workspace_id = $1 AND id = $2', [workspaceId, importId]);
}

/**
 * Reads an uploaded CSV as it streams in and stages its rows (a row whose cells do not line up with
 * the header is refused at once), then queues the contacts.import job that applies them. A file that
 * cannot be read is refused whole and leaves nothing behind.
 */
export async function startImport(
  ctx: AppContext,
  workspaceId: string,
  upload: { source: AsyncIterable<Buffer | string>; fileName: string | null },
  query: ImportQuery,
) {
  const id = newId('imp');
  await ctx.db.query(
    `INSERT INTO contact_imports (workspace_id, id, status, file_name, total_rows) VALUES ($1, $2, 'receiving', $3, 0)`,
    [workspaceId, id, upload.fileName?.slice(0, 255) ?? null],
  );
  let mapping: Mapping | undefined;
  let width = 0;
  let staged: { n: number; f: StagedRow }[] = [];
  let refused: { n: number; reason: string }[] = [];
  let refusedCount = 0;
  try {
    const { rows } = await readCsv(
      upload.source,
      (header) => {
        mapping = mapColumns(header, query);
        width = header.length;
      },
      async (cells, n) => {
        const row = stageRow(cells, width, mapping!);
        if (typeof row === 'string') refused.push({ n, reason: row });
        else staged.push({ n, f: row });
        if (staged.length >= STAGE_BATCH) {
          await stage(ctx.db, workspaceId, id, staged);
          staged = [];
        }
        if (refused.length >= STAGE_BATCH) {
          refusedCount += refused.length;
          await recordRefusals(ctx.db, workspaceId, id, refused);
          refused = [];
        }
      },
    );
    if (staged.length) await stage(ctx.db, workspaceId, id, staged);
    if (refused.length) await recordRefusals(ctx.db, workspaceId, id, refused);
    refusedCount += refused.length;
    await ctx.db.transaction(async (tx) => {
      await tx.query(
        `UPDATE contact_imports SET status = 'queued', total_rows = $3, processed_rows = $4, refused = $4, updated_at = now()
         WHERE workspace_id = $1 AND id = $2`,
        [workspaceId, id, rows, refusedCount],
      );
      await ctx.queue?.send('contacts.import', { workspaceId, importId: id }, inTransaction(tx));
    });
  } catch (err) {
    await discard(ctx.db, workspaceId, id).catch((e: unknown) =>
      ctx.log.warn({ err: e, importId: id }, 'a refused import could not be cleared'),
    );
    throw err;
  }
  ctx.queue?.wake('contacts.import');
  return getImport(ctx.db, workspaceId, id, { limit: 0, offset: 0 });
}

/**
 * POST /contacts/import (REST v1 and the web app): 202 with the import, the upload counted among the
 * owner's exports and imports. A refused upload is answered while the client may still be sending
 * it; the connection then closes, so the rest is not read.
 */
export async function answerImport(
  ctx: AppContext,
  owner: HeavyWorkOwner,
  request: FastifyRequest,
  query: ImportQuery,
  reply: FastifyReply,
) {
  try {
    holdHeavyWork(ctx, reply, owner);
    const started = await startImport(ctx, owner.workspaceId, await uploadOf(request), query);
    return reply.code(202).send({ result: true as const, ...started });
  } catch (err) {
    reply.header('connection', 'close');
    throw err;
  }
}
