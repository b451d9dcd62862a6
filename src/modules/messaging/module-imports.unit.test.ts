import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { relativeImports, sources } from '../../../test/support/imports.js';

// Messaging is at the bottom of the module graph: automation and broadcasts hear of what happened
// through its events (events.ts, wired in modules/subscriptions.ts), never through its imports.
const here = dirname(fileURLToPath(import.meta.url));
const modules = resolve(here, '..');
const ABOVE = ['automation', 'broadcasts'];

it('messaging imports neither automation nor broadcasts', () => {
  const files = sources(here);
  expect(files).toContain(join(here, 'cloud-api', 'client.ts'));
  const found = relativeImports(files, modules)
    .filter(({ target }) => ABOVE.includes(target.split('/')[0]!))
    .map(({ file, target }) => `${file} imports ${target}`);
  expect(found).toEqual([]);
});
