// The nodes of the Spaces view and how each is shown. Pure data in, TreeItem out.
import * as vscode from 'vscode';
import type {
  AssistantSummary,
  Conversation,
  ModelRecord,
  ModelSetting,
  Space,
  SpaceUpdateResponse,
} from '../api/schemas';
import { answerHereFix, cannotAnswerHere } from '../shared/modelCatalog';
import { linkedMarkdown } from './linkedMarkdown';
import { whenLabel } from '../shared/labels';
import { pinnedModels } from '../settings';

export type SpaceGroup =
  'weights' | 'policies' | 'settings' | 'failover' | 'models' | 'conversations' | 'assistants' | 'sandbox';

export type SpaceNode =
  | { kind: 'space'; space: Space; isSandbox: boolean; sandboxStatus?: string | null }
  | { kind: 'group'; group: SpaceGroup; spaceId: string; view: SpaceUpdateResponse }
  | { kind: 'field'; label: string; value: string; icon?: string; tooltip?: string }
  | { kind: 'spaceModel'; spaceId: string; setting: ModelSetting }
  /** The Space's models that are not active, folded behind one node. */
  | { kind: 'moreModels'; spaceId: string; settings: ModelSetting[] }
  | { kind: 'failoverModel'; model: ModelRecord; position: number }
  | { kind: 'conversation'; spaceId: string; conversation: Conversation }
  | { kind: 'assistant'; spaceId: string; assistant: AssistantSummary }
  | {
      kind: 'assistantVersion';
      spaceId: string;
      assistantId: string;
      version: AssistantSummary['versions'][number];
      index: number;
    }
  /** A line of text; a warning one opens the log when clicked. */
  | { kind: 'note'; text: string; warning?: boolean };

const t = vscode.l10n.t;
const GROUP_LABELS: Record<SpaceGroup, [string, string]> = {
  weights: [t('Weights'), 'settings'],
  policies: [t('Policies'), 'shield'],
  settings: [t('Default settings'), 'symbol-property'],
  failover: [t('Failover chain'), 'debug-step-over'],
  models: [t('Models'), 'hubot'],
  conversations: [t('Conversations'), 'comment-discussion'],
  assistants: [t('Assistants'), 'person'],
  sandbox: [t('Sandbox'), 'beaker'],
};

/** What each privacy level keeps in the request log (conventions.md, corrections). */
export const PRIVACY_LABELS: Record<number, string> = {
  1: t('logs prompts, replies and their details'),
  2: t('logs details only, no prompt or reply text'),
  3: t('keeps only what billing needs'),
};

/** A field's value, or the words for none. */
const show = (value: unknown, none: string) =>
  value === null || value === undefined || value === '' ? none : String(value);

/** The fields shown under a group of a Space. */
export function groupFields(group: SpaceGroup, view: SpaceUpdateResponse): SpaceNode[] {
  const app = view.main.app;
  switch (group) {
    case 'weights':
      return [
        { kind: 'field', label: t('Cost'), value: show(app.weights?.cost, t('not set')) },
        { kind: 'field', label: t('Latency'), value: show(app.weights?.latency, t('not set')) },
        { kind: 'field', label: t('Quality'), value: show(app.weights?.quality, t('not set')) },
      ];
    case 'policies': {
      const p = app.policies ?? {};
      const privacy = p.privacy_level ?? 1;
      return [
        {
          kind: 'field',
          label: t('Privacy'),
          value: t('level {0}: {1}', privacy, PRIVACY_LABELS[privacy] ?? t('not known to this version')),
        },
        { kind: 'field', label: t('Cost cap per request'), value: p.max_cost ? `$${p.max_cost}` : t('no cap') },
        {
          kind: 'field',
          label: t('Retries on the same model'),
          value: show(p.max_same_model_retries, t('service default')),
        },
        {
          kind: 'field',
          label: t('Switches to other models'),
          value: show(p.max_switch_model_retries, t('service default')),
        },
        {
          kind: 'field',
          label: t('Optimize internal requests'),
          value: p.optimize_internal_requests ? t('on') : t('off'),
        },
        {
          kind: 'field',
          label: t('Prompt'),
          value: app.prompt?.title ?? (p.prompt_id ? t('a prompt not in the list') : t('none')),
        },
      ];
    }
    case 'settings': {
      const s = app.settings ?? {};
      return [
        {
          kind: 'field',
          label: t('Assistant'),
          value: s.assistant_id
            ? s.assistant_version_id
              ? t('set, with a chosen version')
              : t('set, latest version')
            : t('none'),
        },
        { kind: 'field', label: t('Instructions'), value: show(s.instructions, t('none')) },
        { kind: 'field', label: t('Max tokens'), value: show(s.max_tokens, t("the model's default")) },
        { kind: 'field', label: t('Temperature'), value: show(s.temperature, t("the model's default")) },
      ];
    }
    case 'failover':
      return [
        {
          kind: 'field',
          label: t('enabled'),
          value: app.has_failover_chain ? t('yes') : t('no'),
          icon: app.has_failover_chain ? 'check' : 'circle-slash',
        },
        ...view.main.failover_models.map((model, position): SpaceNode => ({ kind: 'failoverModel', model, position })),
      ];
    case 'models': {
      // The active ones first; the rest of the catalogue behind one node.
      const all = [...view.main.base_model_settings, ...view.main.custom_model_settings].sort((a, b) =>
        a.namespace.localeCompare(b.namespace),
      );
      const active = all
        .filter((s) => s.active)
        .map((setting): SpaceNode => ({ kind: 'spaceModel', spaceId: app.id, setting }));
      const rest = all.filter((s) => !s.active);
      return rest.length ? [...active, { kind: 'moreModels', spaceId: app.id, settings: rest }] : active;
    }
    case 'sandbox':
      return view.sandbox
        ? [{ kind: 'space', space: view.sandbox.app, isSandbox: true, sandboxStatus: view.sandbox_status }]
        : [{ kind: 'note', text: t('No sandbox') }];
    default:
      return [];
  }
}

export function groupsOf(view: SpaceUpdateResponse): SpaceNode[] {
  const groups: SpaceGroup[] = [
    'weights',
    'policies',
    'settings',
    'failover',
    'models',
    'sandbox',
    'conversations',
    'assistants',
  ];
  const app = view.main.app;
  return [
    {
      kind: 'field',
      label: t('Benchmark model'),
      value: app.benchmark_model?.namespace ?? (app.benchmark_model_id ? t('a model no longer listed') : t('none')),
      tooltip: t('Savings are measured against the benchmark model; without one, none are counted.'),
      icon: 'dashboard',
    },
    ...groups
      .filter((g) => g !== 'sandbox' || !app.sandbox_of)
      .map((group): SpaceNode => ({ kind: 'group', group, spaceId: app.id, view })),
  ];
}

export function toTreeItem(node: SpaceNode): vscode.TreeItem {
  const collapsed = vscode.TreeItemCollapsibleState.Collapsed;
  switch (node.kind) {
    case 'space': {
      const item = new vscode.TreeItem(node.space.name || node.space.id, collapsed);
      item.id = `space:${node.space.id}`;
      item.contextValue = node.isSandbox ? 'sandbox' : 'space';
      const outdated = node.sandboxStatus === 'outdated';
      item.description = node.isSandbox
        ? outdated
          ? t('sandbox · outdated')
          : t('sandbox · up to date')
        : (node.space.description ?? '');
      item.iconPath = new vscode.ThemeIcon(
        node.isSandbox ? (outdated ? 'warning' : 'beaker') : 'layers',
        outdated ? new vscode.ThemeColor('list.warningForeground') : undefined,
      );
      item.tooltip = new vscode.MarkdownString(
        `**${node.space.name ?? ''}**\n\n${node.space.description ?? ''}\n\n- ${t('key ending')} …${node.space.key_end ?? ''}\n- ${t('changed')} ${whenLabel(node.space.modified_on)}` +
          (outdated ? `\n\n$(warning) ${t('The main Space changed after this sandbox.')}` : ''),
        true,
      );
      return item;
    }
    case 'group': {
      const [label, icon] = GROUP_LABELS[node.group];
      const item = new vscode.TreeItem(label, collapsed);
      item.id = `group:${node.spaceId}:${node.group}`;
      item.iconPath = new vscode.ThemeIcon(icon);
      item.contextValue = `group.${node.group}`;
      if (node.group === 'models') item.description = t('{0} active', node.view.main.active_models);
      if (node.group === 'sandbox' && node.view.sandbox_status === 'outdated') item.description = t('outdated');
      return item;
    }
    case 'field': {
      const item = new vscode.TreeItem(node.label);
      item.description = node.value;
      item.tooltip = node.tooltip ?? `${node.label}: ${node.value}`;
      if (node.icon) item.iconPath = new vscode.ThemeIcon(node.icon);
      item.contextValue = 'field';
      return item;
    }
    case 'spaceModel': {
      const s = node.setting;
      const item = new vscode.TreeItem(s.namespace);
      item.id = `spaceModel:${node.spaceId}:${s.id}`;
      const inChat = isPinned(node.spaceId, s.namespace);
      const offline = !s.globally_disabled && cannotAnswerHere(s);
      const state = s.globally_disabled ? t('deprecated') : s.active ? t('active') : t('off');
      const described = !offline
        ? state
        : s.offered_to_key === false
          ? t('{0} · not for your key', state)
          : t('{0} · cannot answer here', state);
      item.description = inChat ? t("{0} · in VS Code's chat", described) : described;
      item.iconPath = new vscode.ThemeIcon(
        s.globally_disabled
          ? 'circle-slash'
          : offline
            ? 'debug-disconnect'
            : s.active
              ? 'pass-filled'
              : 'circle-large-outline',
        offline && s.active ? new vscode.ThemeColor('list.warningForeground') : undefined,
      );
      if (offline)
        item.tooltip = linkedMarkdown(`${t('No key or server here reaches {0}.', s.namespace)} ${answerHereFix(s)}`);
      item.contextValue =
        (s.globally_disabled ? 'spaceModel.disabled' : s.active ? 'spaceModel.active' : 'spaceModel.inactive') +
        (inChat ? '.inChat' : '');
      return item;
    }
    case 'moreModels': {
      const item = new vscode.TreeItem(t('Show all models ({0} more, not active)', node.settings.length), collapsed);
      item.id = `moreModels:${node.spaceId}`;
      item.iconPath = new vscode.ThemeIcon('list-unordered');
      item.contextValue = 'moreModels';
      return item;
    }
    case 'failoverModel': {
      const item = new vscode.TreeItem(`${node.position + 1}. ${node.model.namespace}`);
      item.iconPath = new vscode.ThemeIcon('arrow-small-right');
      item.contextValue = 'failoverModel';
      return item;
    }
    case 'conversation': {
      const item = new vscode.TreeItem(node.conversation.name || t('(unnamed)'));
      item.id = `conversation:${node.spaceId}:${node.conversation.id}`;
      item.description = node.conversation.settings?.assistant_id ? t('with assistant') : '';
      item.tooltip = `${node.conversation.name}\n${t('changed')} ${whenLabel(node.conversation.modified_on)}`;
      item.iconPath = new vscode.ThemeIcon('comment');
      item.contextValue = 'conversation';
      item.command = { command: 'llmSpaces.openConversation', title: t('Open in Playground'), arguments: [node] };
      return item;
    }
    case 'assistant': {
      const item = new vscode.TreeItem(node.assistant.name, collapsed);
      item.id = `assistant:${node.spaceId}:${node.assistant.id}`;
      item.description = node.assistant.description ?? '';
      item.iconPath = new vscode.ThemeIcon('person');
      item.contextValue = 'assistant';
      return item;
    }
    case 'assistantVersion': {
      const item = new vscode.TreeItem(t('Version {0}', node.index + 1));
      item.id = `version:${node.spaceId}:${node.version.id}`;
      item.description = `${node.version.published ? t('published') : t('draft')} · ${whenLabel(node.version.added_on, false)}`;
      item.iconPath = new vscode.ThemeIcon('versions');
      item.contextValue = 'assistantVersion';
      item.command = {
        command: 'llmSpaces.openAssistantVersion',
        title: t('Open Assistant Version'),
        arguments: [node],
      };
      return item;
    }
    case 'note':
      return noteItem(node.text, node.warning);
  }
}

/** Whether the user pinned this model of this Space to VS Code's chat (setting llmSpaces.chat.pinnedModels). */
function isPinned(spaceId: string, namespace: string): boolean {
  return pinnedModels().some((p) => p.space === spaceId && p.model === namespace);
}

/** A line of text in a view; a warning one says "Show Log" and opens the log when clicked. */
export function noteItem(text: string, warning = false): vscode.TreeItem {
  const item = new vscode.TreeItem(text);
  item.iconPath = new vscode.ThemeIcon(
    warning ? 'warning' : 'info',
    warning ? new vscode.ThemeColor('list.warningForeground') : undefined,
  );
  item.contextValue = 'note';
  if (warning) {
    item.description = t('Show Log');
    item.command = { command: 'llmSpaces.showLog', title: t('Show Log') };
  }
  return item;
}

/** The note for the records of a list that could not be read and were left out, or none. */
export function unreadableNote(count: number, what: (count: number) => string): SpaceNode[] {
  return count > 0 ? [{ kind: 'note', text: what(count), warning: true }] : [];
}
