#!/usr/bin/env node
// `npm run build`: the server (tsc into dist/) and the web app (Vite into dist/web), then a stamp in
// dist/ holding a hash of everything the build reads. `--if-changed` (the test suite's global setup)
// skips both when the stamp matches the sources, so `npm ci` followed by `npm test`, or a second
// `npm test`, builds once. The stamp is removed before building and written last, so a build that
// stopped half way is never taken for a finished one.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('..', import.meta.url));
const stampPath = join(root, 'dist/.build-stamp');
// What tsc -p tsconfig.build.json and web/vite.config.ts read, besides node_modules (pinned by the lock).
const folders = ['src', 'web'];
const files = ['tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'];

function sourceHash() {
  const paths = folders.flatMap((folder) =>
    readdirSync(join(root, folder), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(root, join(entry.parentPath, entry.name)))
      // Test files are not built (tsconfig.build.json excludes them): editing one costs no build.
      .filter((path) => !path.endsWith('.test.ts')),
  );
  const hash = createHash('sha256');
  for (const path of [...paths, ...files].sort()) {
    hash.update(`${path}\0`);
    hash.update(readFileSync(join(root, path)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

function build() {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
  // The `parley` bin: npm marks it executable only when it links it, and tsc writes files 0644, so a
  // rebuild (npm start's prestart) after that link would leave `npx parley` "Permission denied".
  chmodSync(join(root, 'dist/cli/main.js'), 0o755);
  execFileSync(
    process.execPath,
    ['node_modules/vite/bin/vite.js', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'],
    // Vitest sets NODE_ENV=test, which would bundle React's development build.
    { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  );
  precompress(join(root, 'dist/web/assets'));
}

// Brotli and gzip copies beside each hashed asset (so one already written is never stale), at the
// highest levels, too slow per request; the server picks one by Accept-Encoding (preCompressed).
function precompress(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isFile() || !/\.(js|css|html|svg|json)$/.test(entry.name)) continue;
    const path = join(entry.parentPath, entry.name);
    const bytes = readFileSync(path);
    if (bytes.length < 1024 || existsSync(`${path}.br`)) continue;
    writeFileSync(
      `${path}.br`,
      brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
    writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }));
  }
}

const hash = sourceHash();
const built = existsSync(stampPath) && readFileSync(stampPath, 'utf8').trim() === hash;
const ifChanged = process.argv.includes('--if-changed');
if (!(ifChanged && built)) {
  if (ifChanged) console.log('Building dist/: the sources changed since the last build');
  rmSync(stampPath, { force: true });
  build();
  writeFileSync(stampPath, `${hash}\n`);
}
