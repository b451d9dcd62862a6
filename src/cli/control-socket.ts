import { chmodSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { join } from 'node:path';
import { ApiError, type ErrorCode, type ErrorDetail } from '../api/errors.js';
import type { AppContext } from '../context.js';
import { runCommand } from './commands.js';

function controlSocketPath(dataDir: string): string {
  return join(dataDir, 'parley.sock');
}

/**
 * While a server owns the embedded database, CLI commands reach it here instead of opening the
 * database a second time. The socket sits in the owner-only data directory and is itself 0600.
 */
export async function listenControlSocket(ctx: AppContext): Promise<Server> {
  const path = controlSocketPath(ctx.config.dataDir);
  rmSync(path, { force: true });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      };
      try {
        const { command, input } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        answer(200, { result: await runCommand(ctx, String(command), input) });
      } catch (err) {
        if (err instanceof ApiError) return answer(err.status, { error: socketError(err) });
        ctx.log.error({ err }, 'control command failed');
        answer(500, {
          error: socketError(new ApiError('internal_error', 'command failed; see the server log')),
        });
      }
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(path, resolve));
  chmodSync(path, 0o600);
  return server;
}

interface SocketError {
  code: ErrorCode;
  message: string;
  details?: ErrorDetail[];
}

const socketError = (err: ApiError): SocketError => ({
  code: err.code,
  message: err.message,
  ...(err.details ? { details: err.details } : {}),
});

/** The ApiError a command threw in the server, as the CLI throws it. */
/** A server of an earlier version answers a plain message. */
export const fromSocketError = (e: SocketError | string): ApiError =>
  typeof e === 'string' ? new ApiError('bad_request', e) : new ApiError(e.code, e.message, e.details);

export type SocketReply = { result: unknown } | { error: SocketError | string } | null;

/** Sends a command to a running server; null when no server listens there. */
export function sendToControlSocket(dataDir: string, command: string, input: unknown): Promise<SocketReply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ socketPath: controlSocketPath(dataDir), method: 'POST', path: '/' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    });
    req.on('error', (err: NodeJS.ErrnoException) =>
      err.code === 'ENOENT' || err.code === 'ECONNREFUSED' ? resolve(null) : reject(err),
    );
    req.end(JSON.stringify({ command, input }));
  });
}
