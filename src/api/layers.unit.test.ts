import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { relativeImports, sources } from '../../test/support/imports.js';

// The house: api/ (the error envelope, schema helpers, the route app's type) sits below the modules,
// which build on it; http/ sits above them all and only assembles the server.
const src = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const inside = (folder: string) => (path: string) => path.startsWith(`${folder}/`);

it('api/ imports no module and nothing of http/', () => {
  const found = relativeImports(sources(resolve(src, 'api')), src).filter(
    ({ target }) => inside('modules')(target) || inside('http')(target),
  );
  expect(found).toEqual([]);
});

it('no module imports http/', () => {
  const files = sources(resolve(src, 'modules'));
  expect(files.length).toBeGreaterThan(100);
  expect(relativeImports(files, src).filter(({ target }) => inside('http')(target))).toEqual([]);
});
