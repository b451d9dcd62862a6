import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../config/env.js';
import { openRuntime } from '../runtime/compose.js';
import { DataDirBusyError } from '../runtime/data-dir-lock.js';
import { createLogger } from '../runtime/logger.js';
import { type CommandInput, type CommandName, runCommand } from './commands.js';
import { fromSocketError, sendToControlSocket } from './control-socket.js';

const WAIT_FOR_SERVER_MS = 30_000;

/**
 * Runs a command against the database. In embedded mode a running server owns the data directory,
 * so the command goes to it over the control socket; only when no server holds it does the CLI open
 * the database itself.
 */
export async function runOperatorCommand<N extends CommandName>(
  config: Config,
  name: N,
  input: CommandInput<N>,
): Promise<unknown> {
  const deadline = Date.now() + WAIT_FOR_SERVER_MS;
  for (;;) {
    if (!config.databaseUrl) {
      const reply = await sendToControlSocket(config.dataDir, name, input);
      if (reply && 'error' in reply) throw fromSocketError(reply.error);
      if (reply) return reply.result;
    }
    try {
      const runtime = await openRuntime(config, {
        role: 'cli',
        log: createLogger('warn'),
        migrate: name !== 'migrate',
      });
      try {
        return await runCommand(runtime.ctx, name, input);
      } finally {
        await runtime.close();
      }
    } catch (err) {
      // A server is starting on this data directory and has not opened its socket yet.
      if (!(err instanceof DataDirBusyError) || Date.now() > deadline) throw err;
      await sleep(250);
    }
  }
}
