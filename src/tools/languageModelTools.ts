// The tools of spaceTools.ts as VS Code language model tools (package.json contributes them with the
// same names and schemas), reading the extension's stores.
import * as vscode from 'vscode';
import { isMissingEndpoint } from '../api/errors';
import type { CurrentSpace } from '../chat/currentSpace';
import { countChatTokens } from '../chat/tokenCount';
import type { Connection } from '../connection/connection';
import type { CatalogueStore } from '../stores/catalogueStore';
import type { OrganizationStore } from '../stores/organizationStore';
import type { SpacesStore } from '../stores/spacesStore';
import { describeError } from '../userErrors';
import {
  ToolInputError,
  checkBudget,
  estimateCost,
  explainRoute,
  findModels,
  findSpace,
  type ToolData,
  type ToolName,
} from './spaceTools';

const t = vscode.l10n.t;

export interface ToolDeps {
  connection: Connection;
  spaces: SpacesStore;
  catalogue: CatalogueStore;
  organization: OrganizationStore;
  current: CurrentSpace;
}

export function toolData(s: ToolDeps): ToolData {
  return {
    spaces: () => s.spaces.list(),
    detail: (id) => s.spaces.detail(id),
    models: () => s.catalogue.models(),
    organization: () => s.organization.refresh(),
    route: async (id, prompt, maxTokens) => {
      try {
        return await s.connection.call((c) => c.previewRoute(id, { prompt, max_tokens: maxTokens }));
      } catch (error) {
        if (isMissingEndpoint(error)) return undefined;
        throw error;
      }
    },
    countTokens: countChatTokens,
  };
}

type Answer = (input: unknown) => Promise<string>;

export function registerTools(s: ToolDeps): vscode.Disposable[] {
  const data = toolData(s);
  const answers: Record<ToolName, Answer> = {
    llmSpaces_estimateCost: async (input) => (await estimateCost(data, input)).text,
    llmSpaces_explainRoute: async (input) => (await explainRoute(data, input)).text,
    llmSpaces_findModels: async (input) => (await findModels(data, input)).text,
    llmSpaces_checkBudget: async () => (await checkBudget(data)).text,
    llmSpaces_useSpace: async (input) => {
      const space = await findSpace(data, (input as { space?: string }).space);
      await s.current.set(space.id);
      return `The "Current Space" model of LLM Spaces in the chat now routes through "${space.name}".`;
    },
  };
  return (Object.keys(answers) as ToolName[]).map((name) =>
    vscode.lm.registerTool<unknown>(name, {
      prepareInvocation: async (options) => {
        if (name !== 'llmSpaces_useSpace') return undefined;
        const space = await findSpace(data, (options.input as { space?: string }).space).catch(() => undefined);
        const label = space?.name ?? String((options.input as { space?: unknown }).space);
        return {
          invocationMessage: t('Switching the chat to "{0}"', label),
          confirmationMessages: {
            title: t('Use another Space?'),
            message: new vscode.MarkdownString(
              t(
                'The "Current Space" model of LLM Spaces will route through **{0}**: its models, budget and privacy level.',
                label,
              ),
            ),
          },
        };
      },
      invoke: async (options) => {
        let text: string;
        try {
          text = await answers[name](options.input);
        } catch (error) {
          // A wrong input is told to the model, which can call again; anything else is an error.
          if (error instanceof ToolInputError) text = error.message;
          else throw new Error(describeError(error, t('LLM Spaces')).message);
        }
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
      },
    }),
  );
}
