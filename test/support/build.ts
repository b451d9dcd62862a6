import { execFileSync } from 'node:child_process';

/** Vitest global setup: the CLI tests run the built `parley` command, so build it once first. */
export default function build(): void {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
    stdio: 'inherit',
  });
}
