// Entry of dist/service.js. Checks the runtime before anything loads node:sqlite, which Node.js has
// without a flag from 22.13 on (the runtime of VS Code 1.104 and later).
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 13)) {
  console.error(
    `The LLM Spaces service needs Node.js 22.13 or later (for its built-in SQLite); this is Node.js ${process.versions.node}.`,
  );
  process.exit(1);
}
// node:sqlite says it is experimental on Node 22; the service depends on it knowingly.
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name !== 'ExperimentalWarning') console.warn(warning);
});
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only after the check above
require('./cli');
