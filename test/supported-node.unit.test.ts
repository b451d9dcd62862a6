import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const CLI = join(import.meta.dirname, '../dist/cli/main.js');

/** Runs `parley --help` on this Node made to report another version before the CLI loads. */
function cliOnNode(version: string): Promise<{ code: number; stderr: string }> {
  const pretend = `Object.defineProperty(process.versions, 'node', { value: '${version}' })`;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', `data:text/javascript,${encodeURIComponent(pretend)}`, CLI, '--help'],
      (err, _stdout, stderr) => resolve({ code: err ? Number(err.code) : 0, stderr }),
    );
  });
}

it('stops at once with one line naming what to do on a Node older than 22.12', async () => {
  const r = await cliOnNode('22.11.0');
  expect(r.code).toBe(1);
  expect(r.stderr).toBe(
    'parley: Node.js 22.12 or later is required (this is 22.11.0); run it through npm (npm start, npx parley), ' +
      'which uses the Node.js 24 that npm ci installed, or install Node.js 24\n',
  );
  expect((await cliOnNode('20.19.5')).code).toBe(1);
});

it('runs on 22.12 and later', async () => {
  expect(await cliOnNode('22.12.0')).toEqual({ code: 0, stderr: '' });
  expect(await cliOnNode('24.0.0')).toEqual({ code: 0, stderr: '' });
});

it('runs this suite on the Node.js 24 the project brings (package.json dependency `node`)', () => {
  expect(process.versions.node.split('.')[0]).toBe('24');
});
