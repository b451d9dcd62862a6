import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { dataDirOf } from '../config/env.js';
import {
  type Count,
  MoveError,
  type MoveReport,
  moveDataDirToPostgres,
} from '../modules/backups/move-data-dir.js';

export interface MoveCommand {
  to: string;
  dryRun?: boolean;
  media?: 'filesystem' | 'postgres';
  json?: boolean;
}

/** `parley move --to URL`: prints what moved (or would), the counts on both sides, and what to do next. */
export async function runMove(opts: MoveCommand, env = process.env): Promise<void> {
  const dataDir = dataDirOf(env);
  const media = opts.media ?? mediaFromEnv(env.MEDIA_STORE);
  const report = await moveDataDirToPostgres({
    dataDir,
    databaseUrl: opts.to,
    dryRun: opts.dryRun,
    media,
    log: opts.json ? undefined : (line) => process.stderr.write(`${line}\n`),
  });
  const out = (text: string) => process.stdout.write(`${text}\n`);
  if (opts.json) out(JSON.stringify(report));
  else {
    out(countsTable(report));
    if (report.ok && !report.dryRun) out(nextSteps(report, dataDir, media));
  }
  if (!report.ok) {
    throw new MoveError(
      'the counts differ between the data directory and the target (see the table): drop the target database, create it again and run the move again',
    );
  }
}

function mediaFromEnv(store: string | undefined): 'filesystem' | 'postgres' {
  if (!store || store === 'filesystem' || store === 'postgres')
    return store === 'postgres' ? 'postgres' : 'filesystem';
  throw new MoveError(
    `MEDIA_STORE=${store}: a move keeps media as files under DATA_DIR/media or puts them into the database; give --media filesystem or --media postgres`,
  );
}

function countsTable(report: MoveReport): string {
  const rows: [string, string, string][] = [
    ['', 'data directory', report.dryRun ? 'would move' : 'PostgreSQL'],
  ];
  const line = (label: string, c: Count) =>
    rows.push([label, String(c.source), c.target === null ? String(c.source) : String(c.target)]);
  for (const t of report.tables) line(t.name, t);
  for (const j of report.jobs) line(`job queue: ${j.name}`, j);
  const m = report.media;
  rows.push([
    `media files (${m.store}, ${(m.bytes / 1e6).toFixed(1)} MB)`,
    String(m.files),
    m.target === null ? String(m.files) : String(m.target),
  ]);
  const width = rows
    .map((r) => r.map((cell) => cell.length))
    .reduce((a, b) => a.map((w, i) => Math.max(w, b[i]!)));
  const text = rows.map((r) => {
    const differs = !report.dryRun && r !== rows[0] && r[1] !== r[2];
    return `${r[0].padEnd(width[0]!)}  ${r[1].padStart(width[1]!)}  ${r[2].padStart(width[2]!)}${differs ? '  DIFFERS' : ''}`;
  });
  const dropped = Object.entries(report.droppedJobs).map(
    ([q, n]) => `${n} unfinished jobs of queue ${q}, which this version no longer has, were left behind`,
  );
  const time = report.dryRun ? 'nothing was written' : `moved in ${(report.elapsedMs / 1000).toFixed(1)} s`;
  return [...text, ...dropped, time].join('\n');
}

function nextSteps(report: MoveReport, dataDir: string, media: 'filesystem' | 'postgres'): string {
  const keyFile = join(dataDir, 'secret.key');
  const lines = [
    '',
    'Next: start Parley on PostgreSQL (the data directory is not used for data any more; keep it until you are satisfied):',
    '  DATABASE_URL=<the --to URL>',
    existsSync(keyFile)
      ? `  PARLEY_SECRET_KEY=$(cat ${keyFile})   (decrypts the secrets stored in the database)`
      : '  PARLEY_SECRET_KEY=<the key the embedded server ran with>',
    media === 'postgres'
      ? '  MEDIA_STORE=postgres   (the media files are in the database now)'
      : `  DATA_DIR=${dataDir}   (media stay files under ${join(dataDir, 'media')}; MEDIA_STORE=filesystem)`,
  ];
  if (report.simulatorNumbers > 0) {
    lines.push(
      `  SIMULATOR=true SIMULATOR_TOKEN=$(cat ${join(dataDir, 'simulator.token')})   (${report.simulatorNumbers} numbers send through the built-in simulator; same APP_URL)`,
    );
  }
  lines.push(
    '  then: parley serve',
    'The API keys, users, numbers, flows and queued jobs carry on as they were; never start the embedded server on this data directory again.',
  );
  return lines.join('\n');
}
