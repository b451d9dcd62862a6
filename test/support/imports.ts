import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// `import … from '…'`, `export … from '…'` and `import('…')`, over several lines too.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g;

/** The .ts sources under a folder, tests left out. */
export function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Each relative import of each file, resolved: `{file, target}` with both relative to `root`. */
export function relativeImports(files: string[], root: string) {
  return files.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(SPECIFIER)].flatMap(([, specifier]) =>
      specifier!.startsWith('.')
        ? [{ file: relative(root, file), target: relative(root, resolve(dirname(file), specifier!)) }]
        : [],
    ),
  );
}
