import type { Server } from 'node:http';
import { listenControlSocket } from '../cli/control-socket.js';
import type { Config } from '../config/env.js';
import { buildServer } from '../http/server.js';
import { relinkSimulatorNumbers } from '../modules/messaging/simulator-link.js';
import { openRuntime, type Role } from './compose.js';
import { createLogger } from './logger.js';

/** `parley serve`: the HTTP server (roles all, api), job workers (all, worker), until SIGTERM or SIGINT. */
export async function serve(config: Config, role: Exclude<Role, 'cli'>): Promise<void> {
  const log = createLogger(config.logLevel);
  const runtime = await openRuntime(config, { role, log });
  const { ctx } = runtime;
  const server = role === 'worker' ? null : await buildServer(ctx);
  let control: Server | null = null;
  try {
    if (server) {
      await server.listen({ port: config.port, host: config.host });
      await relinkSimulatorNumbers(ctx);
    }
    if (ctx.db.kind === 'pglite') control = await listenControlSocket(ctx);
  } catch (err) {
    await server?.close();
    await runtime.close();
    throw err;
  }
  if (server) {
    const url = config.appUrl;
    process.stdout.write(`Parley is running at ${url} (REST API ${url}/api/v1, docs ${url}/api/v1/docs)\n`);
  } else {
    process.stdout.write('Parley worker is running\n');
  }

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    // Finish what is in flight, then the queue, then the database: nothing accepted is dropped.
    control?.close();
    await server?.close();
    await runtime.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
