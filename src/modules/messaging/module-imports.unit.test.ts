import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

// Messaging is at the bottom of the module graph: automation and broadcasts hear of what happened
// through its events (events.ts, wired in modules/subscriptions.ts), never through its imports.
const here = dirname(fileURLToPath(import.meta.url));
const modules = resolve(here, '..');
const ABOVE = ['automation', 'broadcasts'];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

// `import … from '…'`, `export … from '…'` and `import('…')`, over several lines too.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g;

it('messaging imports neither automation nor broadcasts', () => {
  const files = sources(here);
  expect(files).toContain(join(here, 'cloud-api', 'client.ts'));
  const found = files.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(SPECIFIER)].flatMap(([, specifier]) => {
      if (!specifier!.startsWith('.')) return [];
      const module = relative(modules, resolve(dirname(file), specifier!)).split('/')[0]!;
      return ABOVE.includes(module) ? [`${relative(here, file)} imports ${specifier}`] : [];
    }),
  );
  expect(found).toEqual([]);
});
