#!/usr/bin/env node
// `npm run cluster`: Parley scaled out on one machine, as production runs it on several.
//   - a fresh PostgreSQL database (created under CLUSTER_ADMIN_URL, migrated with `parley migrate`);
//   - two `serve --role api` instances (ports BASE+1, BASE+2) sharing rate-limit counters in Redis;
//   - two `serve --role worker` instances sharing the pg-boss queue in the database;
//   - the WhatsApp Cloud API simulator on its own (BASE+3), since its state is in memory; every process
//     has SIMULATOR=true and its SIMULATOR_TOKEN, so `parley demo` and relinks can register numbers there;
//   - a round-robin proxy on BASE (default 4000): /_sim/* to the simulator, everything else to the
//     API instances in turn. APP_URL is the proxy, so links and the simulator's webhooks go through it.
// Prints one JSON line with the addresses and process ids, then runs until Ctrl-C (SIGINT/SIGTERM),
// which stops everything and drops the database (CLUSTER_KEEP_DB=1 keeps it).
// `npx parley demo --json` with the printed DATABASE_URL and PARLEY_SECRET_KEY gives a workspace.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, request } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const CLI = join(dirname(fileURLToPath(import.meta.url)), '../dist/cli/main.js');
const ADMIN_URL = process.env.CLUSTER_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const BASE = Number(process.env.CLUSTER_PORT ?? 4000);
const HOST = '127.0.0.1';

const dbName = `parley_cluster_${Date.now()}_${process.pid}`;
const dbUrl = new URL(ADMIN_URL);
dbUrl.pathname = `/${dbName}`;
const env = {
  PATH: process.env.PATH ?? '',
  DATABASE_URL: dbUrl.toString(),
  REDIS_URL,
  PARLEY_SECRET_KEY: process.env.PARLEY_SECRET_KEY ?? randomBytes(32).toString('hex'),
  APP_URL: `http://${HOST}:${BASE}`,
  HOST,
  SIMULATOR: 'true',
  SIMULATOR_TOKEN: process.env.SIMULATOR_TOKEN ?? randomBytes(32).toString('hex'),
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  ...(process.env.SEND_DEADLINE_MS ? { SEND_DEADLINE_MS: process.env.SEND_DEADLINE_MS } : {}),
  ...(process.env.WEBHOOKS_ALLOW_PRIVATE
    ? { WEBHOOKS_ALLOW_PRIVATE: process.env.WEBHOOKS_ALLOW_PRIVATE }
    : {}),
};

const children = new Map();

/** Starts `parley <args>` and resolves once its output matches `ready`. */
function start(name, args, extraEnv, ready) {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...env, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.set(name, child);
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => {
    out += d;
    process.stderr.write(`[${name}] ${d}`);
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start: ${out}`)), 60_000);
    child.stdout.on('data', () => {
      if (ready.test(out)) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}): ${out}`));
    });
  });
}

function run(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`parley ${args.join(' ')}: ${code}`)),
    );
  });
}

/** Round robin over the API instances; /_sim to the simulator. A dead upstream is skipped. */
function proxy(apiPorts, simPort) {
  let next = 0;
  const forward = (req, res, body, ports, tries) => {
    const port = req.url.startsWith('/_sim') ? simPort : ports[next++ % ports.length];
    const upstream = request(
      { host: HOST, port, method: req.method, path: req.url, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (tries > 1 && !req.url.startsWith('/_sim')) return forward(req, res, body, ports, tries - 1);
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end('{"error":"upstream unavailable"}');
    });
    upstream.end(body);
  };
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => forward(req, res, Buffer.concat(chunks), apiPorts, apiPorts.length));
  });
  server.keepAliveTimeout = 5_000;
  return new Promise((resolve) => server.listen(BASE, HOST, () => resolve(server)));
}

let stopping = false;
async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const child of children.values()) if (child.exitCode === null) child.kill('SIGTERM');
  await Promise.all(
    [...children.values()].map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null)),
  );
  if (!process.env.CLUSTER_KEEP_DB) {
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }
  process.exit(code);
}
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());

try {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  await run(['migrate']);

  const simPort = BASE + 3;
  await start('simulator', ['simulator', '--port', String(simPort)], {}, /simulator at/);
  const apiPorts = [BASE + 1, BASE + 2];
  const running = /Parley (worker )?is running/;
  await Promise.all([
    ...apiPorts.map((port, i) =>
      start(`api${i + 1}`, ['serve', '--role', 'api'], { PORT: String(port) }, running),
    ),
    start('worker1', ['serve', '--role', 'worker'], {}, running),
    start('worker2', ['serve', '--role', 'worker'], {}, running),
  ]);
  await proxy(apiPorts, simPort);
  const pids = Object.fromEntries([...children].map(([name, c]) => [name, c.pid]));
  process.stdout.write(
    `${JSON.stringify({
      url: env.APP_URL,
      api: apiPorts.map((p) => `http://${HOST}:${p}`),
      simulator: `http://${HOST}:${simPort}/_sim`,
      database_url: env.DATABASE_URL,
      redis_url: REDIS_URL,
      parley_secret_key: env.PARLEY_SECRET_KEY,
      simulator_token: env.SIMULATOR_TOKEN,
      pids,
    })}\n`,
  );
  for (const [name, child] of children) {
    child.once('exit', (code, signal) => {
      if (!stopping) process.stderr.write(`[cluster] ${name} exited (${code ?? signal})\n`);
    });
  }
} catch (err) {
  process.stderr.write(`[cluster] ${err.message}\n`);
  await stop(1);
}
