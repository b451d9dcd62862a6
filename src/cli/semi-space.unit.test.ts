import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { semiSpaceRestart } from './semi-space.js';

const NODE = '/usr/bin/node';
const CLI = join(import.meta.dirname, '../../dist/cli/main.js');

describe('semiSpaceRestart', () => {
  it('restarts serve with 16 MiB semi-spaces unless told, keeping Node flags and arguments', () => {
    expect(semiSpaceRestart([NODE, CLI, 'serve', '--role', 'api'], ['--enable-source-maps'], {})).toEqual([
      NODE,
      '--enable-source-maps',
      '--max-semi-space-size=16',
      CLI,
      'serve',
      '--role',
      'api',
    ]);
    expect(semiSpaceRestart([NODE, CLI, 'serve'], [], { HEAP_SEMI_SPACE_MB: '8' })).toEqual([
      NODE,
      '--max-semi-space-size=8',
      CLI,
      'serve',
    ]);
  });

  it('leaves other commands, HEAP_SEMI_SPACE_MB=0, a flag the operator gave and a bad value alone', () => {
    expect(semiSpaceRestart([NODE, CLI, 'migrate'], [], {})).toBeNull();
    expect(semiSpaceRestart([NODE, CLI, 'serve'], [], { HEAP_SEMI_SPACE_MB: '0' })).toBeNull();
    expect(semiSpaceRestart([NODE, CLI, 'serve'], ['--max-semi-space-size=4'], {})).toBeNull();
    expect(
      semiSpaceRestart([NODE, CLI, 'serve'], [], { NODE_OPTIONS: '--max-semi-space-size=32' }),
    ).toBeNull();
    // loadConfig refuses it with the variable's name (env.unit.test.ts, and the start below).
    expect(semiSpaceRestart([NODE, CLI, 'serve'], [], { HEAP_SEMI_SPACE_MB: 'lots' })).toBeNull();
  });
});

// Were the restart missing, `serve` would start for real: on a directory of its own, and not for long.
const dataDir = mkdtempSync(join(tmpdir(), 'parley-semi-space-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Runs the built CLI with a preload that, once Node runs with a semi-space size, prints its flags and exits. */
function serveFlags(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const probe =
    "if (process.execArgv.some((a) => a.startsWith('--max-semi-space-size'))) " +
    '{ console.log(JSON.stringify(process.execArgv.slice(2))); process.exit(0); }';
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', `data:text/javascript,${encodeURIComponent(probe)}`, CLI, 'serve'],
      { env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, PORT: '0', ...env }, timeout: 20_000 },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code) : 0, stdout, stderr }),
    );
  });
}

describe('parley serve', () => {
  it('restarts itself, before the program loads, with the semi-space size it was given', async () => {
    expect(await serveFlags({})).toEqual({ code: 0, stdout: '["--max-semi-space-size=16"]\n', stderr: '' });
    expect((await serveFlags({ HEAP_SEMI_SPACE_MB: '24' })).stdout).toBe('["--max-semi-space-size=24"]\n');
  });

  it('stops at start-up naming HEAP_SEMI_SPACE_MB when it is not a size', async () => {
    const r = await serveFlags({ HEAP_SEMI_SPACE_MB: '16MB', PARLEY_SECRET_KEY: 'a'.repeat(64) });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('parley: HEAP_SEMI_SPACE_MB must be an integer from 0 to 1024; got "16MB"\n');
  });
});
