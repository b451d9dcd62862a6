import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CLI = join(import.meta.dirname, '../../dist/cli/main.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `parley ...` from the build with exactly the given environment (plus PATH). */
export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

export async function runCliJson<T = Record<string, unknown>>(
  args: string[],
  env: Record<string, string>,
): Promise<T> {
  const r = await runCli([...args, '--json'], env);
  if (r.code !== 0) throw new Error(`parley ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A short data directory under /tmp: unix socket paths are limited to about 107 characters. */
export function tempDataDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'pcli-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface RunningServer {
  child: ChildProcess;
  url: string;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `parley serve` and resolves once it prints its URL. */
export function startServer(args: string[], env: Record<string, string>): Promise<RunningServer> {
  return startCommand(['serve', ...args], env, /Parley (worker )?is running/);
}

/**
 * Starts `parley simulator --port PORT` (its own process: its state outlives a Parley server's
 * restart) and resolves once it listens.
 */
export function startSimulator(port: number, env: Record<string, string>): Promise<RunningServer> {
  return startCommand(['simulator', '--port', String(port)], env, /simulator at http/);
}

async function startCommand(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<RunningServer> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 60_000);
    const check = () => {
      if (ready.test(out)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`server exited: ${out}`));
    });
  });
  return {
    child,
    url: /(?:running|simulator) at (\S+)/.exec(out)?.[1] ?? '',
    output: () => out,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}
