import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createTestApp, type TestApp } from './app.js';
import { freePort, type RunningServer, startServer } from './cli.js';
import { listen } from './messaging.js';

/**
 * Parley scaled out, as `npm run cluster` starts it: `serve --role api` and `serve --role worker`
 * processes on one PostgreSQL database (this test file's) with Redis for the rate-limit counters.
 * The test process holds the simulator (so it can count what the network received) and the
 * database helpers; it runs no job handlers itself (role api).
 */
export class Cluster {
  readonly apis: (RunningServer | null)[] = [];
  readonly workers: (RunningServer | null)[] = [];
  readonly apiPorts: number[] = [];
  private constructor(
    readonly t: TestApp,
    readonly base: string,
    private readonly env: Record<string, string>,
  ) {}

  static async start(options: { apis: number; workers: number; env?: Record<string, string> }) {
    const t = await createTestApp({ queue: true, role: 'api' });
    const base = await listen(t);
    const redisUrl = process.env.REDIS_URL;
    if (!redisUrl) throw new Error('the cluster tests need REDIS_URL (shared rate-limit counters)');
    const cluster = new Cluster(t, base, {
      DATABASE_URL: t.ctx.config.databaseUrl!,
      REDIS_URL: redisUrl,
      PARLEY_SECRET_KEY: '0'.repeat(64),
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      LOG_LEVEL: 'warn',
      ...options.env,
    });
    for (let i = 0; i < options.apis; i++) cluster.apiPorts.push(await freePort());
    await Promise.all([
      ...cluster.apiPorts.map((_, i) => cluster.startApi(i)),
      ...Array.from({ length: options.workers }, (_, i) => cluster.startWorker(i)),
    ]);
    return cluster;
  }

  async startApi(i: number): Promise<RunningServer> {
    const server = await startServer(['--role', 'api'], { ...this.env, PORT: String(this.apiPorts[i]) });
    this.apis[i] = server;
    return server;
  }

  async startWorker(i: number): Promise<RunningServer> {
    const server = await startServer(['--role', 'worker'], this.env);
    this.workers[i] = server;
    return server;
  }

  /** SIGKILL: no shutdown, no goodbye to the database; whatever it held must come back. */
  async kill(kind: 'api' | 'worker', i: number): Promise<void> {
    const list = kind === 'api' ? this.apis : this.workers;
    await list[i]?.stop('SIGKILL');
    list[i] = null;
  }

  apiUrl(i: number): string {
    return `http://127.0.0.1:${this.apiPorts[i % this.apiPorts.length]}`;
  }

  async stop(): Promise<void> {
    for (const s of [...this.apis, ...this.workers]) await s?.stop('SIGKILL');
    await this.t.close();
  }
}

/**
 * The process (among `pids`) on the other end of a loopback TCP connection whose remote port we
 * see: the socket's inode from /proc/net/tcp, then which process holds a descriptor to it. Linux
 * only; it lets a test tell which worker process made a request without the product saying so.
 */
export function pidOfPeer(remotePort: number, pids: number[]): number | null {
  const portHex = remotePort.toString(16).toUpperCase().padStart(4, '0');
  let inode: string | undefined;
  // The kernel writes /proc/net/tcp in pieces, and a line can be missed while other sockets come and
  // go (seen under load in CI): read it again before giving up.
  for (let attempt = 0; attempt < 5 && !inode; attempt++) {
    for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
      for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
        const cols = line.trim().split(/\s+/);
        // Only a live connection: an earlier one on the same port may linger in TIME_WAIT (inode 0).
        if (cols[1]?.endsWith(`:${portHex}`) && cols[3] === '01' && cols[9] !== '0') inode = cols[9];
      }
    }
  }
  if (!inode) return null;
  for (const pid of pids) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        try {
          if (readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`) return pid;
        } catch {
          // The descriptor closed while we looked.
        }
      }
    } catch {
      // The process is gone.
    }
  }
  return null;
}
