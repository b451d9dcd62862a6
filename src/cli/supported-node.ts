/**
 * Imported first by the CLI, so an unsupported Node stops here with one line instead of failing
 * somewhere in a dependency. The least version is package.json's `engines.node` (pg-boss 12's floor).
 */
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(
    `parley: Node.js 22.12 or later is required (this is ${process.versions.node}); run it through npm ` +
      '(npm start, npx parley), which uses the Node.js 24 that npm ci installed, or install Node.js 24\n',
  );
  process.exit(1);
}
