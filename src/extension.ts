// Composition root: builds the services, registers them, and nothing else. No network here: the
// views connect when they first become visible.
import * as vscode from 'vscode';
import { ASSISTANT_SCHEME, AssistantDocuments } from './assistantDocuments';
import { registerCommands } from './commands';
import { AUTH_PROVIDER_ID, SpacesAuthProvider } from './connection/authProvider';
import { Connection } from './connection/connection';
import { ProviderKeyStore } from './connection/providerKeys';
import { api } from './lazy/api';
import { Logger } from './logger';
import { PROMPT_SCHEME, PromptFileSystem } from './prompts/promptFileSystem';
import { PromptStore } from './prompts/promptStore';
import type { Services } from './services';
import { SpacesChatProvider } from './chat/chatProvider';
import { offerChatSetup } from './chat/chatSetup';
import { CurrentSpace } from './chat/currentSpace';
import { SpaceKeys } from './chat/spaceKeys';
import { MCP_PROVIDER_ID, SpacesMcpServers } from './mcp/definitionProvider';
import { registerTools } from './tools/languageModelTools';
import { CHAT_VENDOR } from './chat/spaceModels';
import { registerSpacesParticipant } from './chat/chatParticipant';
import { CatalogueStore } from './stores/catalogueStore';
import { OrganizationStore } from './stores/organizationStore';
import { SpacesStore } from './stores/spacesStore';
import { UsageStatus } from './usageStatus';
import { ErrorReporter } from './userErrors';
import { ModelsTree } from './views/modelsTree';
import { PromptsTree } from './views/promptsTree';
import { SpacesTree } from './views/spacesTree';
import { WebviewPanels } from './webviews/webviewPanels';
import { CatalogueCache } from './workspace/catalogueCache';
import { WorkspaceModelIds } from './workspace/modelIds';
import { PromptFiles } from './workspace/promptSync';
import { reachedMilestone } from './walkthrough';

export type ExtensionApi = Services;

export function activate(context: vscode.ExtensionContext): ExtensionApi {
  const logger = new Logger();
  const connection = new Connection(context, logger, (options) => new (api().LlmSpacesClient)(options));
  const errors = new ErrorReporter(logger);
  const promptStore = new PromptStore(connection);
  const promptFs = new PromptFileSystem(promptStore, connection);
  const spaces = new SpacesStore(connection, context.globalState);
  const catalogue = new CatalogueStore(connection, context.globalState);
  const organization = new OrganizationStore(connection);
  const providerKeys = new ProviderKeyStore(context.secrets, connection, logger);
  // Once the built-in service has the keys, their providers' models answer: read the catalogue again.
  const reloadOnKeys = providerKeys.onDidHandOver(() => catalogue.reload());
  const services: Services = {
    connection,
    logger,
    errors,
    spaces,
    catalogue,
    organization,
    promptStore,
    promptFs,
    providerKeys,
    views: {
      spaces: new SpacesTree(spaces, catalogue),
      prompts: new PromptsTree(connection, promptStore, context.globalState),
      models: new ModelsTree(catalogue),
    },
    usage: new UsageStatus(connection, organization),
    webviews: new WebviewPanels(context.extensionUri, {
      connection,
      logger,
      errors,
      spaces,
      catalogue,
      organization,
      reachedMilestone,
    }),
    modelIds: new WorkspaceModelIds(connection, catalogue, new CatalogueCache(context.globalStorageUri)),
    promptFiles: new PromptFiles(connection, promptStore),
  };
  const current = new CurrentSpace(context.globalState);
  const chat = new SpacesChatProvider({
    connection,
    spaces,
    catalogue,
    organization,
    logger,
    keys: new SpaceKeys(connection),
    current,
  });
  const mcp = new SpacesMcpServers(context.extensionPath, connection);
  const auth = new SpacesAuthProvider(connection, context.secrets);
  context.subscriptions.push(
    logger,
    connection,
    errors,
    promptStore,
    spaces,
    catalogue,
    organization,
    services.views.spaces,
    services.views.prompts,
    services.views.models,
    services.usage,
    services.webviews,
    services.modelIds,
    services.promptFiles,
    providerKeys,
    reloadOnKeys,
    auth,
    chat,
    current,
    vscode.lm.registerLanguageModelChatProvider(CHAT_VENDOR, chat),
    registerSpacesParticipant(),
    ...registerTools({ connection, spaces, catalogue, organization, current }),
    mcp,
    vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, mcp),
    vscode.authentication.registerAuthenticationProvider(AUTH_PROVIDER_ID, 'LLM Spaces', auth),
    vscode.workspace.registerFileSystemProvider(PROMPT_SCHEME, promptFs, { isCaseSensitive: true }),
    vscode.workspace.registerTextDocumentContentProvider(
      ASSISTANT_SCHEME,
      new AssistantDocuments(connection, catalogue),
    ),
    ...registerCommands(services),
  );
  // VS Code's chat looks a message's model up among those its providers listed, and refuses the message
  // ("Language model unavailable") if the Spaces were never listed: listed now, in the background.
  setTimeout(() => void vscode.lm.selectChatModels({ vendor: CHAT_VENDOR }).then(undefined, () => undefined), 0);
  // Once a Space can answer, say so if VS Code's chat would still refuse to send to it (chat/chatSetup.ts).
  const chatSetup = connection.onDidChangeState((state) => {
    if (state.kind !== 'ready') return;
    chatSetup.dispose();
    void offerChatSetup(context.globalState);
  });
  context.subscriptions.push(chatSetup);
  return services;
}

// dist/lazy.js reads these from this bundle (see owned.ts).
export { owned } from './owned';

export function deactivate(): void {
  // Disposables in context.subscriptions release the built-in service.
}
