import { execFileSync } from 'node:child_process';

/**
 * Vitest global setup: the CLI and browser tests run the built `parley` command and web app. Built only
 * when the sources differ from the last build (scripts/build.mjs keeps a hash of them in dist/).
 */
export default function build(): void {
  execFileSync(process.execPath, ['scripts/build.mjs', '--if-changed'], { stdio: 'inherit' });
}
