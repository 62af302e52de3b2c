// `npm start`: VS Code (code-server) in the browser with this extension loaded from the working tree,
// its built-in service, and a small sample workspace. Prints the URL and runs until Ctrl-C. Data (the
// built-in service's database included) persists in .tmp/workbench between starts.
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { ROOT, remoteUri, startCodeServer, workbenchUrl } from './codeServer';

async function main(): Promise<void> {
  const home = path.join(ROOT, '.tmp', 'workbench');
  const workspace = path.join(home, 'sample-workspace');
  if (!existsSync(workspace)) {
    mkdirSync(workspace, { recursive: true });
    cpSync(path.join(ROOT, 'test/fixtures/workspace'), workspace, { recursive: true });
  }
  const port = process.env.PORT ? Number(process.env.PORT) : 8080;
  const server = await startCodeServer({ home, port, keep: true });
  const url = workbenchUrl(server, workspace, [['extensionDevelopmentPath', remoteUri(server, ROOT)], ['skipWelcome', 'true']]);
  console.log(`\nLLM Spaces is running in VS Code at:\n\n  ${url}\n\nOpen the LLM Spaces icon in the activity bar. The built-in service starts with it. Ctrl-C stops everything.\n`);
  const stop = () => void server.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
