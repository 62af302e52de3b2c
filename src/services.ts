// What the commands work with, built once in extension.ts and handed to the tests as the extension's
// API. Classes take only what they use; this table is for the command handlers.
import type { Connection } from './connection/connection';
import type { ProviderKeyStore } from './connection/providerKeys';
import type { Logger } from './logger';
import type { PromptFileSystem } from './prompts/promptFileSystem';
import type { PromptStore } from './prompts/promptStore';
import type { CatalogueStore } from './stores/catalogueStore';
import type { OrganizationStore } from './stores/organizationStore';
import type { SpacesStore } from './stores/spacesStore';
import type { UsageStatus } from './usageStatus';
import type { ErrorReporter } from './userErrors';
import type { ModelsTree } from './views/modelsTree';
import type { PromptsTree } from './views/promptsTree';
import type { SpacesTree } from './views/spacesTree';
import type { WebviewPanels } from './webviews/webviewPanels';
import type { WorkspaceModelIds } from './workspace/modelIds';
import type { PromptFiles } from './workspace/promptSync';

export interface Services {
  connection: Connection;
  logger: Logger;
  errors: ErrorReporter;
  /** The data, for every surface. */
  spaces: SpacesStore;
  catalogue: CatalogueStore;
  organization: OrganizationStore;
  promptStore: PromptStore;
  promptFs: PromptFileSystem;
  /** The user's keys for hosted providers (SecretStorage), handed to the built-in service. */
  providerKeys: ProviderKeyStore;
  /** The sidebar views, which render the stores. */
  views: { spaces: SpacesTree; prompts: PromptsTree; models: ModelsTree };
  usage: UsageStatus;
  webviews: WebviewPanels;
  /** Model ids in the workspace's files: hovers, diagnostics, quick fixes and their count. */
  modelIds: WorkspaceModelIds;
  /** Saved prompts as prompt files in the workspace, with the lock file. */
  promptFiles: PromptFiles;
}
