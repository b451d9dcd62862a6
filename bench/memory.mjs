// The embedded default's memory at rest, told apart from outside the process (issue 33; not part of
// `npm run bench`): starts the built server (`node dist/cli/main.js serve`) on a fresh DATA_DIR, waits
// MEMORY_WAIT_MS (default 5000) after "Parley is running", then prints JSON: start-up ms, VmRSS, VmHWM,
// RssAnon/RssFile, the touched part of PGlite's WebAssembly memory (the read-write mapping just
// before its guard reservation of 4 GiB or more, in /proc/<pid>/smaps) and V8's heap spaces from a
// process.report (--report-on-signal). MEMORY_NODE_FLAGS adds Node flags; the environment passes on
// (HEAP_SEMI_SPACE_MB=0 measures Node's own young-generation sizing). Usage: node bench/memory.mjs
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';

const MiB = (kb) => Math.round(kb / 1024);
const dataDir = mkdtempSync(join(os.tmpdir(), 'parley-memory-'));
const reportDir = mkdtempSync(join(os.tmpdir(), 'parley-memory-report-'));
const flags = ['--report-on-signal', '--report-signal=SIGUSR2', `--report-directory=${reportDir}`];
flags.push(...(process.env.MEMORY_NODE_FLAGS?.split(' ').filter(Boolean) ?? []));

const t0 = performance.now();
const child = spawn(process.execPath, [...flags, 'dist/cli/main.js', 'serve'], {
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: process.env.PORT ?? '4711',
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
  },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let out = '';
await new Promise((resolve, reject) => {
  const onData = (d) => {
    out = (out + d).slice(-4000);
    if (/Parley is running/.test(out)) resolve();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  child.on('exit', (code) => reject(new Error(`the server exited (${code}):\n${out}`)));
});
const startupMs = Math.round(performance.now() - t0);
await new Promise((r) => setTimeout(r, Number(process.env.MEMORY_WAIT_MS ?? 5000)));

const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
const maps = [];
for (const line of readFileSync(`/proc/${child.pid}/smaps`, 'utf8').split('\n')) {
  const m = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
  if (m)
    maps.push({ kb: (Number.parseInt(m[2], 16) - Number.parseInt(m[1], 16)) / 1024, name: m[3], rss: 0 });
  const r = /^Rss:\s+(\d+)/.exec(line);
  if (r && maps.length > 0) maps[maps.length - 1].rss = Number(r[1]);
}
const wasm = maps.filter((m, i) => !m.name && maps[i + 1]?.kb >= 4 * 1024 * 1024 && !maps[i + 1].name);

child.kill('SIGUSR2');
let report;
for (let i = 0; i < 50 && !report; i++) {
  await new Promise((r) => setTimeout(r, 200));
  const file = readdirSync(reportDir)[0];
  if (file) {
    try {
      report = JSON.parse(readFileSync(join(reportDir, file), 'utf8'));
    } catch {} // still being written
  }
}
const heap = report?.javascriptHeap;
console.log(
  JSON.stringify(
    {
      loadavg: os.loadavg().map((l) => l.toFixed(1)),
      startupMs,
      VmRSS: MiB(kb('VmRSS')),
      VmHWM: MiB(kb('VmHWM')),
      RssAnon: MiB(kb('RssAnon')),
      RssFile: MiB(kb('RssFile')),
      wasmMemory: wasm.map((m) => ({ sizeMiB: MiB(m.kb), touchedMiB: MiB(m.rss) })),
      v8: heap && {
        totalMiB: MiB(heap.totalMemory / 1024),
        usedMiB: MiB(heap.usedMemory / 1024),
        spacesMiB: Object.fromEntries(
          Object.entries(heap.heapSpaces)
            .filter(([, v]) => v.memorySize > 0)
            .map(([k, v]) => [k, MiB(v.memorySize / 1024)]),
        ),
      },
    },
    null,
    1,
  ),
);
child.kill('SIGTERM');
await new Promise((r) => child.on('exit', r));
rmSync(dataDir, { recursive: true, force: true });
rmSync(reportDir, { recursive: true, force: true });
