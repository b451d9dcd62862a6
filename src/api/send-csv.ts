import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { FastifyReply } from 'fastify';
import { safeCell } from '../lib/safe-cell.js';

/**
 * Streams records as a CSV download: a header, one line per record as the source yields it, every
 * cell made safe to open in a spreadsheet. The BOM lets Excel read the file as UTF-8.
 */
export async function sendCsv(
  reply: FastifyReply,
  fileName: string,
  columns: string[],
  records: AsyncIterable<unknown[]>,
) {
  // The first record is read before anything is sent: a source that fails at once (the database) is
  // answered as any error is, in the envelope, not as a download that starts and breaks.
  const source = records[Symbol.asyncIterator]();
  const first = await source.next();
  const cells = async function* () {
    yield columns.map(safeCell);
    for (let next = first; !next.done; next = await source.next()) yield next.value.map(safeCell);
  };
  const stamp = new Date().toISOString().slice(0, 10);
  // pipeline, not pipe: a source that fails midway ends the download with the error instead of
  // leaving it open with the error unhandled.
  const file = pipeline(Readable.from(cells()), stringify({ bom: true }), (err) => {
    if (err) reply.log.warn({ err }, 'CSV download cut off');
  });
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}-${stamp}.csv"`)
    .send(file);
}
