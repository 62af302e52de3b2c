// What the commands work with, built once in extension.ts.
import type { Connection } from './connection/connection';
import type { Logger } from './logger';
import type { PromptFileSystem } from './prompts/promptFileSystem';
import type { PromptStore } from './prompts/promptStore';
import type { UsageStatus } from './usageStatus';
import type { ErrorReporter } from './userErrors';
import type { ModelsTree } from './views/modelsTree';
import type { PromptsTree } from './views/promptsTree';
import type { SpacesTree } from './views/spacesTree';
import type { WebviewPanels } from './webviews/webviewPanels';

export interface Services {
  connection: Connection;
  logger: Logger;
  errors: ErrorReporter;
  spaces: SpacesTree;
  prompts: PromptsTree;
  promptStore: PromptStore;
  promptFs: PromptFileSystem;
  models: ModelsTree;
  usage: UsageStatus;
  webviews: WebviewPanels;
}
