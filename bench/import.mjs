// npm run bench (contact import and export): a 100,000-row CSV posted to POST /api/v1/contacts/import
// on a running server (`serve`, one process: API and worker), timed from the first byte sent until
// the import reads `completed`, with the server's resident memory before and at its peak (VmHWM), on
// PGlite and on PostgreSQL; then GET /api/v1/contacts/export of the same contacts. Writes its section
// of docs/benchmarks.md. Environment: BENCH_DATABASES, BENCH_ADMIN_URL as for bench/run.mjs;
// BENCH_IMPORT_ROWS (100000); BENCH_NO_WRITE.
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import {
  ADMIN_URL,
  cleanupAll,
  onCleanup,
  seedDatabase,
  sleep,
  start,
  stop,
  writeBenchSection,
} from './lib.mjs';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const SECRET = '1'.repeat(64);
const PORT = 4310;

/** National Indian mobiles (the workspace's default country code is 91), a name, an e-mail, two tags and a trait. */
function writeCsv(path) {
  const lines = ['phone,name,email,tags,trait:city'];
  for (let i = 0; i < ROWS; i++)
    lines.push(
      `98${String(i).padStart(8, '0')},Customer ${i},c${i}@example.com,"imported, batch${i % 10}",City ${i % 100}`,
    );
  writeFileSync(path, `${lines.join('\n')}\n`);
}

const memoryOf = (pid) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(status.match(new RegExp(`${field}:\\s+(\\d+)`))[1]);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
};

async function rowFor(kind, csvPath) {
  process.stderr.write(`import (${kind}): seeding...\n`);
  const seeded = await seedDatabase(kind, {
    adminUrl: ADMIN_URL,
    secret: SECRET,
    keys: 1,
    preload: 0,
    phonePrefix: '9199',
  });
  const env = await seeded.clone('import');
  const server = await start(
    ['dist/cli/main.js', 'serve'],
    { ...env, PARLEY_SECRET_KEY: SECRET, PORT: String(PORT), LOG_LEVEL: 'warn' },
    /Parley is running/,
  );
  const base = `http://127.0.0.1:${PORT}/api/v1`;
  const auth = { authorization: `Bearer ${seeded.keys[0]}` };
  try {
    await sleep(1000);
    // The high-water mark since start holds start-up's own peak (V8 compiling PGlite, docs/benchmarks.md
    // "Memory of the embedded default"): kept apart, then reset (clear_refs 5) so the peak is the import's.
    const before = memoryOf(server.pid);
    writeFileSync(`/proc/${server.pid}/clear_refs`, '5');
    const began = performance.now();
    const res = await fetch(`${base}/contacts/import`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'text/csv' },
      body: createReadStream(csvPath),
      duplex: 'half',
    });
    const accepted = (performance.now() - began) / 1000;
    const body = await res.json();
    if (res.status !== 202) throw new Error(`import answered ${res.status}: ${JSON.stringify(body)}`);
    let state;
    for (;;) {
      state = await (
        await fetch(`${base}/contacts/imports/${body.import.id}?limit=0`, { headers: auth })
      ).json();
      if (state.import.status === 'completed' || state.import.status === 'stopped') break;
      await sleep(200);
    }
    const total = (performance.now() - began) / 1000;
    const after = memoryOf(server.pid);
    const exportBegan = performance.now();
    const exported = await fetch(`${base}/contacts/export`, { headers: auth });
    const bytes = (await exported.arrayBuffer()).byteLength;
    const exportSeconds = (performance.now() - exportBegan) / 1000;
    const row = {
      kind: kind === 'postgres' ? `PostgreSQL ${seeded.serverVersion.split(' ')[0]}` : 'PGlite',
      accepted,
      total,
      rate: Math.round(ROWS / total),
      created: state.import.created,
      refused: state.import.refused,
      status: state.import.status,
      startPeak: before.peak,
      rssBefore: before.rss,
      peak: after.peak,
      exportSeconds,
      exportMb: (bytes / 1024 / 1024).toFixed(1),
    };
    process.stderr.write(`  ${JSON.stringify(row)}\n`);
    return row;
  } finally {
    await stop(server);
  }
}

try {
  const dir = mkdtempSync(join(os.tmpdir(), 'parley-import-'));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  const csvPath = join(dir, 'contacts.csv');
  writeCsv(csvPath);
  const mb = (statSync(csvPath).size / 1024 / 1024).toFixed(1);
  const loadBefore = os.loadavg()[0].toFixed(1);
  const rows = [];
  for (const kind of (process.env.BENCH_DATABASES ?? 'pglite,postgres').split(','))
    rows.push(await rowFor(kind, csvPath));
  const section = [
    '## Contact import and export',
    '',
    `A ${ROWS.toLocaleString('en')}-row CSV (${mb} MB: national phones read with the default country code 91, a name, an e-mail, two tags and a trait) posted as text/csv to \`POST /api/v1/contacts/import\` on one \`serve\` process (API and worker), into a workspace with no contacts on the scale plan. *Accepted* is the upload read, checked and staged (the 202); *done* is until the import reads \`completed\`, its rows applied by the contacts.import job in batches of 500. Memory is the server's resident set before the upload and its peak (VmHWM, reset as the upload starts) by the end; *start-up peak* is the VmHWM before that reset. The export is \`GET /api/v1/contacts/export\` of the same contacts, streamed. Written by \`npm run bench\` (bench/import.mjs) on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.cpus().length} cores; load average ${loadBefore} when it started and ${os.loadavg()[0].toFixed(1)} when it ended (above the core count, other work shared the machine and the figures are slower than on a quiet one).`,
    '',
    '| database | accepted s | done s | rows/s | created | refused | start-up peak MB | RSS before MB | peak RSS MB | export s | export MB |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...rows.map(
      (r) =>
        `| ${r.kind} | ${r.accepted.toFixed(1)} | ${r.total.toFixed(1)} | ${r.rate} | ${r.created} | ${r.refused} | ${r.startPeak} | ${r.rssBefore} | ${r.peak} | ${r.exportSeconds.toFixed(1)} | ${r.exportMb} |`,
    ),
  ].join('\n');
  console.log(section);
  writeBenchSection('import', section);
} finally {
  await cleanupAll();
}
