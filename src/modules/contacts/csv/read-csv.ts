import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CsvError, parse } from 'csv-parse';
import { ApiError } from '../../../api/errors.js';

/** What an upload may hold: past these, the whole file is refused with words saying which. */
export const CSV_LIMITS = {
  bytes: 64 * 1024 * 1024,
  rows: 250_000,
  columns: 200,
  recordChars: 64 * 1024,
};

const fileError = (message: string) => ApiError.invalid('file', message);

// csv-parse's codes, in words a spreadsheet user can act on.
const CSV_PROBLEM: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted cell is never closed',
  CSV_INVALID_CLOSING_QUOTE: 'a quote inside a quoted cell is not doubled',
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: 'text follows the closing quote of a cell',
  CSV_MAX_RECORD_SIZE: `a row is longer than ${CSV_LIMITS.recordChars / 1024} kB`,
};

const NOT_UTF8 = 'The file is not UTF-8 text: save it as "CSV UTF-8" and upload it again';

/**
 * The upload as text, checked as it arrives. Read through its iterator without ever returning it:
 * a refused upload stops being read but is not destroyed, so the refusal still reaches the client
 * (Node discards the rest of the request body once the answer is sent).
 */
async function* decoded(source: AsyncIterable<Buffer | string>) {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const chunks = source[Symbol.asyncIterator]();
  let bytes = 0;
  for (;;) {
    const { value, done } = await chunks.next();
    if (done) break;
    const buf = typeof value === 'string' ? Buffer.from(value) : value;
    bytes += buf.length;
    if (bytes > CSV_LIMITS.bytes)
      throw new ApiError(
        'payload_too_large',
        `The file is larger than ${CSV_LIMITS.bytes / 1024 / 1024} MB; split it`,
      );
    let text: string;
    try {
      text = decoder.decode(buf, { stream: true });
    } catch {
      throw fileError(NOT_UTF8);
    }
    if (text.includes('\0'))
      throw fileError(
        'The file holds NUL characters: it is not UTF-8 CSV text (UTF-16, or not text at all); save it as "CSV UTF-8"',
      );
    yield text;
  }
  try {
    yield decoder.decode();
  } catch {
    throw fileError(NOT_UTF8);
  }
}

/**
 * Reads a CSV upload as it streams in: its header, then each row with its spreadsheet row number
 * (the header is row 1). A file that cannot be read as UTF-8 CSV within the limits is a 422 (413 past
 * the size) naming the problem; `onRow` may push back by returning a promise.
 */
export async function readCsv(
  source: AsyncIterable<Buffer | string>,
  onHeader: (header: string[]) => void,
  onRow: (cells: string[], row: number) => Promise<void> | void,
): Promise<{ rows: number }> {
  const parser = parse({
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: CSV_LIMITS.recordChars,
  });
  const feeding = pipeline(Readable.from(decoded(source)), parser);
  feeding.catch(() => {});
  let row = 0;
  try {
    for await (const cells of parser as AsyncIterable<string[]>) {
      row++;
      if (row === 1) {
        if (cells.length > CSV_LIMITS.columns)
          throw fileError(`The header has ${cells.length} columns; at most ${CSV_LIMITS.columns} are read`);
        onHeader(cells);
        continue;
      }
      if (row - 1 > CSV_LIMITS.rows)
        throw new ApiError('payload_too_large', `The file has more than ${CSV_LIMITS.rows} rows; split it`);
      await onRow(cells, row);
    }
    await feeding;
  } catch (err) {
    parser.destroy();
    if (err instanceof ApiError) throw err;
    if (err instanceof CsvError) {
      const where = typeof err.lines === 'number' ? ` (near line ${err.lines})` : '';
      throw fileError(
        `The file is not valid CSV: ${CSV_PROBLEM[err.code] ?? 'it could not be read'}${where}`,
      );
    }
    throw err;
  }
  if (row === 0) throw fileError('The file is empty: it needs a header row and at least one contact');
  return { rows: row - 1 };
}
