// The one command table: every command id, its handler, and the same error handling for all.
import * as vscode from 'vscode';
import * as connection from './commands/connectionCommands';
import * as endpoints from './commands/endpointCommands';
import * as models from './commands/modelCommands';
import * as panels from './commands/playgroundCommands';
import * as promptFiles from './commands/promptFileCommands';
import * as prompts from './commands/promptCommands';
import * as providers from './commands/providerCommands';
import * as spaces from './commands/spaceCommands';
import { useChatModelForSmallTasks } from './chat/chatSetup';
import type { Services } from './services';
import { openWalkthrough } from './walkthrough';
import { showDeprecatedModelIds } from './workspace/modelIds';

type Handler = (s: Services, ...args: never[]) => unknown;

export const COMMANDS = {
  'llmSpaces.connect': [connection.connect, 'Connecting'],
  'llmSpaces.signIn': [connection.signIn, 'Signing in'],
  'llmSpaces.signOut': [connection.signOut, 'Signing out'],
  'llmSpaces.showLog': [connection.showLog, 'Showing the log'],
  'llmSpaces.showUsage': [connection.showUsage, 'Reading usage'],
  'llmSpaces.restartLocalService': [connection.restartService, 'Restarting the built-in service'],
  'llmSpaces.editIntegrations': [connection.integrations, 'Saving the integrations'],
  'llmSpaces.refreshSpaces': [spaces.refreshSpaces, 'Refreshing Spaces'],
  'llmSpaces.addSpaceById': [spaces.addSpaceById, 'Adding the Space'],
  'llmSpaces.createSpace': [spaces.createSpace, 'Creating the Space'],
  'llmSpaces.openSpaceSettings': [panels.openSpaceSettings, 'Opening the Space settings'],
  'llmSpaces.openPlayground': [panels.openPlayground, 'Opening the playground'],
  'llmSpaces.sendSelectionToPlayground': [panels.sendSelectionToPlayground, 'Sending the selection to the playground'],
  'llmSpaces.openOrganization': [panels.openOrganization, 'Opening the organization'],
  'llmSpaces.compareModels': [panels.compareModels, 'Opening the comparison'],
  'llmSpaces.toggleModel': [spaces.toggleModel, 'Turning the model on or off'],
  'llmSpaces.pinModelToChat': [spaces.pinModelToChat, "Showing the model in VS Code's chat"],
  'llmSpaces.unpinModelFromChat': [spaces.unpinModelFromChat, "Removing the model from VS Code's chat"],
  'llmSpaces.openConversation': [panels.openConversation, 'Opening the conversation in the playground'],
  'llmSpaces.renameConversation': [spaces.renameConversation, 'Renaming the conversation'],
  'llmSpaces.changeConversationAssistant': [spaces.changeConversationAssistant, 'Changing the assistant'],
  'llmSpaces.openAssistantVersion': [spaces.openAssistantVersion, 'Opening the assistant version'],
  'llmSpaces.copyId': [spaces.copyId, 'Copying the id'],
  'llmSpaces.filterPrompts': [prompts.filterPrompts, 'Filtering prompts'],
  'llmSpaces.createPrompt': [
    (s: Services, preset?: unknown) => prompts.createPrompt(s, false, preset),
    'Creating the prompt',
  ],
  'llmSpaces.createPromptFromSelection': [
    (s: Services, preset?: unknown) => prompts.createPrompt(s, true, preset),
    'Creating the prompt',
  ],
  'llmSpaces.insertPrompt': [prompts.insertPrompt, 'Inserting the prompt'],
  'llmSpaces.copyPrompt': [prompts.copyPrompt, 'Copying the prompt'],
  'llmSpaces.copyPromptForResponses': [prompts.copyPromptForResponses, 'Copying the prompt'],
  'llmSpaces.deletePrompt': [prompts.deletePrompt, 'Deleting the prompt'],
  'llmSpaces.refreshPrompts': [prompts.refreshPrompts, 'Refreshing prompts'],
  'llmSpaces.filterModels': [models.filterModels, 'Filtering models'],
  'llmSpaces.filterModelCapabilities': [models.filterCapabilities, 'Filtering models'],
  'llmSpaces.sortModels': [models.sortModels, 'Sorting models'],
  'llmSpaces.clearModelFilter': [models.clearModelFilter, 'Clearing the filter'],
  'llmSpaces.copyNamespace': [models.copyNamespace, 'Copying the namespace'],
  'llmSpaces.refreshModels': [models.refreshModels, 'Refreshing models'],
  'llmSpaces.openWalkthrough': [openWalkthrough, 'Opening the walkthrough'],
  'llmSpaces.refreshLocalModels': [models.refreshLocalModels, 'Looking for model servers'],
  'llmSpaces.addProviderKey': [providers.addProviderKey, 'Adding the provider key'],
  'llmSpaces.useChatModelForSmallTasks': [useChatModelForSmallTasks, "Setting the chat's utility model"],
  'llmSpaces.removeProviderKey': [providers.removeProviderKey, 'Removing the provider key'],
  'llmSpaces.addAzureDeployment': [providers.addAzureDeployment, 'Adding the Azure deployment'],
  'llmSpaces.removeAzureDeployment': [providers.removeAzureDeployment, 'Removing the Azure deployment'],
  'llmSpaces.copySpaceEndpoint': [endpoints.copySpaceEndpoint, "Copying the Space's endpoint"],
  'llmSpaces.openModelInPlayground': [models.openModelInPlayground, 'Opening the model in the playground'],
  'llmSpaces.showModelsAsList': [models.showModelsAsList, 'Showing the models as one list'],
  'llmSpaces.groupModelsByProvider': [models.groupModelsByProvider, 'Grouping the models by provider'],
  'llmSpaces.exportPrompt': [promptFiles.exportPrompt, 'Exporting the prompt'],
  'llmSpaces.importPromptFile': [promptFiles.importPromptFile, 'Importing the prompt file'],
  'llmSpaces.comparePromptWithService': [
    promptFiles.comparePromptWithService,
    'Comparing the prompt file with the service',
  ],
  'llmSpaces.pushPromptFile': [promptFiles.pushPromptFile, 'Pushing the prompt file'],
  'llmSpaces.pullPromptFile': [promptFiles.pullPromptFile, 'Pulling the prompt file'],
  'llmSpaces.showDeprecatedModelIds': [
    (s: Services) => showDeprecatedModelIds(s.modelIds),
    'Listing the deprecated model ids',
  ],
} satisfies Record<string, [Handler, string]>;

export type CommandId = keyof typeof COMMANDS;

export function registerCommands(services: Services): vscode.Disposable[] {
  return (Object.entries(COMMANDS) as Array<[CommandId, [Handler, string]]>).map(([id, [handler, what]]) =>
    vscode.commands.registerCommand(id, async (...args: never[]) => {
      const run = async (): Promise<void> => {
        try {
          await handler(services, ...args);
        } catch (error) {
          await services.errors.report(error, vscode.l10n.t(what), run);
        }
      };
      await run();
    }),
  );
}
