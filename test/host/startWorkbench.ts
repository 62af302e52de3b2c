// `npm start`: VS Code (code-server) in the browser with this extension installed from the working tree,
// its built-in service, and a small sample workspace. Prints the URL and runs until Ctrl-C, which stops
// VS Code and the built-in service. Data (the built-in service's database included) persists between
// starts outside the clone, so that Git in the sample workspace does not find this repository.
// VS Code runs as a user's does: without the smoke-test driver, so its notifications show.
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, serviceDataDir, startCodeServer, type CodeServer } from './codeServer';

/** Where `npm start` keeps VS Code's profile, the sample workspace and the service's data. */
export const START_HOME =
  process.env.LLM_SPACES_START_HOME ??
  path.join(process.env.XDG_DATA_HOME ?? path.join(os.homedir(), '.local', 'share'), 'llm-spaces-dev');

export interface StartedWorkbench {
  server: CodeServer;
  /** The URL that opens the sample workspace with the extension. */
  url: string;
}

/** What `npm start` runs, for it and for the UI test that checks a user sees what it shows. */
export async function startUserWorkbench(home: string, port?: number): Promise<StartedWorkbench> {
  const workspace = path.join(home, 'sample-workspace');
  if (!existsSync(workspace)) {
    mkdirSync(workspace, { recursive: true });
    cpSync(path.join(ROOT, 'test/fixtures/workspace'), workspace, { recursive: true });
  }
  const server = await startCodeServer({ home, port, keep: true, driver: false });
  return { server, url: `${server.base}/?folder=${encodeURIComponent(workspace)}` };
}

async function main(): Promise<void> {
  const home = START_HOME;
  const { server, url } = await startUserWorkbench(home, process.env.PORT ? Number(process.env.PORT) : 8088);
  console.log(
    [
      '',
      'LLM Spaces is running in VS Code. Open this whole URL in your browser (it opens the sample workspace with the extension installed):',
      '',
      `  ${url}`,
      '',
      'Then click the LLM Spaces icon in the activity bar (the built-in service starts with VS Code).',
      'After a change to the source, run `npm run build` and Developer: Reload Window.',
      `Data (VS Code's profile, the sample workspace, the service's database in ${serviceDataDir(server)}) is kept in ${home}; delete that folder to start afresh.`,
      'Ctrl-C stops VS Code and the built-in service.',
      '',
    ].join('\n'),
  );
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    console.log('Stopping VS Code and the built-in service…');
    void server.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
