import { ConfigError, semiSpaceMiB } from '../config/env.js';

const FLAG = '--max-semi-space-size';

/**
 * V8 sizes its young generation from the machine's memory, not the process's needs: on a 24 GB
 * machine each of its two semi-spaces grows to 64 MiB during start-up and stays, 128 MiB of the
 * embedded server's resident memory at rest out of about 450 (docs/benchmarks.md, "Memory"). The
 * size can only be set when Node starts, so `parley serve` restarts itself once (process.execve:
 * the same process, before anything else loads) with HEAP_SEMI_SPACE_MB (16 by default).
 *
 * Returns the argv to restart with, or null: not `serve`, HEAP_SEMI_SPACE_MB=0 (V8's own sizing),
 * the flag already given (on the command line or in NODE_OPTIONS: the operator's wins), or a bad
 * value, left for loadConfig to refuse with its message.
 */
export function semiSpaceRestart(
  argv: readonly string[],
  execArgv: readonly string[],
  env: NodeJS.ProcessEnv,
): string[] | null {
  if (argv[2] !== 'serve') return null;
  if ([...execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)].some((a) => a.startsWith(FLAG))) return null;
  let mib: number;
  try {
    mib = semiSpaceMiB(env);
  } catch (err) {
    if (err instanceof ConfigError) return null;
    throw err;
  }
  if (mib === 0) return null;
  return [argv[0] ?? process.execPath, ...execArgv, `${FLAG}=${mib}`, ...argv.slice(1)];
}
