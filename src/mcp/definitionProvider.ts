// Registers the bundled MCP server (dist/mcp.js) with VS Code, so its agents (and the MCP list) offer
// the LLM Spaces tools. It runs on the Node.js VS Code provides; the service's URL and token are given
// only when VS Code starts it, in its environment, never on its command line.
import path from 'node:path';
import * as vscode from 'vscode';
import type { Connection } from '../connection/connection';
import { MCP_SERVER_VERSION } from './version';

export const MCP_PROVIDER_ID = 'llmSpaces.mcp';

export class SpacesMcpServers
  implements vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition>, vscode.Disposable
{
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(
    private readonly extensionPath: string,
    private readonly connection: Connection,
  ) {
    // Another service means another URL and token: VS Code asks for the definition again.
    this.subscription = vscode.workspace.onDidChangeConfiguration(
      (e) => e.affectsConfiguration('llmSpaces.serviceUrl') && this.changed.fire(),
    );
  }

  provideMcpServerDefinitions(): vscode.McpStdioServerDefinition[] {
    // Electron runs a script as Node.js with ELECTRON_RUN_AS_NODE; plain Node.js ignores it.
    return [
      new vscode.McpStdioServerDefinition(
        'LLM Spaces',
        process.execPath,
        [path.join(this.extensionPath, 'dist', 'mcp.js')],
        { ELECTRON_RUN_AS_NODE: '1' },
        MCP_SERVER_VERSION,
      ),
    ];
  }

  async resolveMcpServerDefinition(server: vscode.McpStdioServerDefinition): Promise<vscode.McpStdioServerDefinition> {
    const client = await this.connection.client();
    const token = await this.connection.remoteToken();
    if (!token) throw new Error(vscode.l10n.t('Sign in to LLM Spaces first: the MCP server uses the same token.'));
    server.env = { ...server.env, LLM_SPACES_URL: client.baseUrl, LLM_SPACES_TOKEN: token };
    return server;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
