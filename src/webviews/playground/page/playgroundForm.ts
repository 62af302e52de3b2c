// The playground's controls: Space, model, conversation, the options of the request body, the prompt
// box with its attachments, and the estimate. Builds the request body and checks it before sending.
import type {
  ChatDraftInput,
  Attachment,
  ModelBrief,
  PlaygroundContext,
  SpaceBrief,
  Turn,
} from '../../../shared/protocol/playground';
import { sizeLabel } from '../../../shared/labels';
import { checkRules, type Rules } from '../../../shared/rules';
import { providerLabel } from '../../../shared/providerNames';
import { checkedOf, fill, h, valueOf } from '../../page/dom';
import { field, fillSelect, select, textfield, type Field } from '../../page/fields';
import { t } from '../../page/l10n';

export interface PlaygroundState {
  appId: string | null;
  model: string;
  temperature: string;
  maxTokens: string;
  assistantId: string;
  versionId: string;
  conversation: { id: string; name: string } | null;
  parentRequestId: string;
  plugins: string;
  /** The model is to search the web first (the built-in service's web_search plugin). */
  webSearch: boolean;
  prompt: string;
  images: Attachment[];
  files: Attachment[];
}

export const initialState = (): PlaygroundState => ({
  appId: null,
  model: '',
  temperature: '',
  maxTokens: '',
  assistantId: '',
  versionId: '',
  conversation: null,
  parentRequestId: '',
  plugins: '',
  webSearch: false,
  prompt: '',
  images: [],
  files: [],
});

export class PlaygroundForm {
  readonly space = field('app_id', t('Space'), select([], '', { 'aria-required': 'true' }));
  readonly model = field('model', t('Model'), select([], '', { combobox: true }));
  readonly conversation = field('conversation_id', t('Conversation'), select([], ''));
  readonly temperature = field(
    'temperature',
    t('Temperature'),
    textfield('', { inputmode: 'decimal', placeholder: t('Space default') }),
    t('0 to 1'),
  );
  readonly maxTokens = field(
    'max_tokens',
    t('Max tokens'),
    textfield('', { type: 'number', min: '1', step: '1', placeholder: t('Space default') }),
    t('1 or more'),
  );
  readonly assistant = field('assistant_id', t('Assistant'), select([], ''));
  readonly version = field('assistant_version_id', t('Assistant version'), select([], ''));
  readonly parent = field(
    'parent_request_id',
    t('Reply to'),
    select([], ''),
    t('The next prompt follows this reply; choose none to start a new thread.'),
  );
  readonly plugins = field('plugins', t('Plugins'), textfield('', { placeholder: t('comma separated') }));
  readonly webSearch = field(
    'web_search',
    t('Web search'),
    h('vscode-checkbox', { label: t('Search the web before answering') }),
    t("On Anthropic's models, OpenAI's reasoning models and Gemini models; each search is billed."),
  );
  readonly prompt = field(
    'prompt',
    t('Prompt'),
    h('vscode-textarea', {
      rows: '6',
      resize: 'vertical',
      placeholder: t('Ask anything. Ctrl+Enter sends; drop files here (hold Shift when dragging from the Explorer).'),
    }),
  );
  readonly images = field('images', t('Images'), h('div', { class: 'chips', role: 'list' }));
  readonly files = field('files', t('Files'), h('div', { class: 'chips', role: 'list' }));
  readonly all: Field[] = [
    this.space,
    this.model,
    this.conversation,
    this.temperature,
    this.maxTokens,
    this.assistant,
    this.version,
    this.parent,
    this.plugins,
    this.webSearch,
    this.prompt,
    this.images,
    this.files,
  ];
  private models: ModelBrief[] = [];
  /** The request body's rules, from the host (none until its context arrives: the host checks anyway). */
  private rules: Rules = {};

  constructor(private readonly state: PlaygroundState) {}

  setContext(context: PlaygroundContext): void {
    this.rules = context.rules;
    // Only a service that searches offers it; the hosted one's plugins are its own (the text field).
    // The built-in service has no other plugin: its Web search is the whole of them, in words.
    this.webSearch.row.hidden = !context.webSearch;
    this.plugins.row.hidden = context.webSearch;
    if (!context.webSearch) this.state.webSearch = false;
    (this.webSearch.control as HTMLElement & { checked: boolean }).checked = this.state.webSearch;
    fillSelect(
      this.space.control,
      context.spaces.map((s) => ({ value: s.id, label: s.name })),
      this.state.appId ?? '',
    );
    this.setModels(context.models);
  }

  /** The catalogue's chat models, for the Model field and what the page says of the chosen one. */
  setModels(models: ModelBrief[]): void {
    this.models = models;
    const live = models.filter((m) => !m.retired);
    fillSelect(
      this.model.control,
      [
        { value: '', label: t("Automatic routing (by the Space's weights)") },
        ...live.map((m) => {
          const provider = providerLabel(m.provider);
          return {
            value: m.namespace,
            label: m.namespace,
            description: m.vision ? t('{0} · reads images', provider) : provider,
          };
        }),
      ],
      this.state.model,
    );
  }

  setSpace(space: SpaceBrief): void {
    const conversations = [...space.conversations];
    const current = this.state.conversation;
    if (current && !conversations.some((c) => c.id === current.id)) conversations.unshift(current);
    fillSelect(
      this.conversation.control,
      [{ value: '', label: t('New conversation') }, ...conversations.map((c) => ({ value: c.id, label: c.name }))],
      current?.id ?? '',
    );
    fillSelect(
      this.assistant.control,
      [{ value: '', label: t('Space default') }, ...space.assistants.map((a) => ({ value: a.id, label: a.name }))],
      this.state.assistantId,
    );
    this.setVersions(space);
    this.temperature.control.setAttribute(
      'placeholder',
      space.defaults.temperature === null ? t('Space default') : t('Space default: {0}', space.defaults.temperature),
    );
    this.maxTokens.control.setAttribute(
      'placeholder',
      space.defaults.maxTokens === null ? t('Space default') : t('Space default: {0}', space.defaults.maxTokens),
    );
  }

  /** The replies a prompt may follow, the latest first, named by their number and first words (never by id). */
  showReplies(turns: Turn[], chosen: string): void {
    const replies = turns
      .flatMap((turn, i) =>
        turn.reply ? [{ value: turn.reply.id, label: t('Reply {0}: {1}', i + 1, snippet(turn.reply.content)) }] : [],
      )
      .reverse();
    // A reply this panel no longer shows (a reload that kept no turns) stays choosable.
    const earlier =
      chosen && !replies.some((r) => r.value === chosen) ? [{ value: chosen, label: t('An earlier reply') }] : [];
    fillSelect(this.parent.control, [{ value: '', label: t('None (a new thread)') }, ...replies, ...earlier], chosen);
  }

  setVersions(space: SpaceBrief): void {
    const versions = space.assistants.find((a) => a.id === this.state.assistantId)?.versions ?? [];
    if (!versions.some((v) => v.id === this.state.versionId)) this.state.versionId = '';
    fillSelect(
      this.version.control,
      [
        { value: '', label: versions.length ? t('Latest published') : t('No assistant chosen') },
        ...versions.map((v) => ({ value: v.id, label: v.label })),
      ],
      this.state.versionId,
    );
  }

  /** The attachment chips, each with a remove button; `changed` runs after a removal. */
  showAttachments(changed: () => void): void {
    for (const kind of ['images', 'files'] as const) {
      const list = this.state[kind];
      const f = this[kind];
      f.row.hidden = list.length === 0;
      fill(
        f.control,
        ...list.map((a, i) => {
          const remove = h('vscode-button', { secondary: true, 'aria-label': t('Remove {0}', a.name) }, '×');
          remove.addEventListener('click', () => {
            list.splice(i, 1);
            changed();
          });
          return h('span', { class: 'chip', role: 'listitem' }, `${a.name} (${sizeLabel(a.size)})`, remove);
        }),
      );
    }
  }

  chosenModel(): ModelBrief | undefined {
    return this.models.find((m) => m.namespace === this.state.model);
  }

  modelsNamed(namespaces: string[]): ModelBrief[] {
    return this.models.filter((m) => namespaces.includes(m.namespace));
  }

  /** Reads the controls into the state (the state is what survives hiding and reloads). */
  read(): void {
    const s = this.state;
    s.appId = valueOf(this.space.control) || s.appId;
    s.model = valueOf(this.model.control);
    s.temperature = valueOf(this.temperature.control).trim();
    s.maxTokens = valueOf(this.maxTokens.control).trim();
    s.assistantId = valueOf(this.assistant.control);
    s.versionId = valueOf(this.version.control);
    s.parentRequestId = valueOf(this.parent.control).trim();
    s.plugins = this.plugins.row.hidden ? '' : valueOf(this.plugins.control);
    s.webSearch = !this.webSearch.row.hidden && checkedOf(this.webSearch.control);
    s.prompt = valueOf(this.prompt.control);
  }

  /** The request body, or the errors by field when a limit is not met. */
  body(
    conversationId: string | null,
  ): { ok: true; body: ChatDraftInput } | { ok: false; errors: Record<string, string> } {
    const s = this.state;
    const errors: Record<string, string> = {};
    const number = (text: string) => (text === '' ? undefined : Number(text));
    const plugins = [
      ...new Set([
        ...s.plugins
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean),
        ...(s.webSearch ? ['web_search'] : []),
      ]),
    ];
    const draft: ChatDraftInput = {
      prompt: s.prompt,
      app_id: s.appId ?? '',
      model: s.model || undefined,
      temperature: number(s.temperature),
      max_tokens: number(s.maxTokens),
      assistant_id: s.assistantId || undefined,
      assistant_version_id: s.versionId || undefined,
      conversation_id: conversationId ?? undefined,
      parent_request_id: s.parentRequestId || undefined,
      plugins: plugins.length ? plugins : undefined,
      images: s.images.length ? s.images.map((a) => a.dataUrl) : undefined,
      files: s.files.length ? s.files.map((a) => a.dataUrl) : undefined,
    };
    if (!s.prompt.trim()) errors.prompt = t('Write a prompt first.');
    if (!s.appId) errors.app_id = t('Choose a Space.');
    const model = this.chosenModel();
    if (model && s.images.length && !model.vision)
      errors.images = t('{0} cannot read images; choose a vision model or automatic routing.', model.namespace);
    for (const [path, message] of Object.entries(checkRules(this.rules, draft))) errors[path] ??= message;
    return Object.keys(errors).length ? { ok: false, errors } : { ok: true, body: draft };
  }
}

/** The first words of a reply, on one line. */
function snippet(text: string): string {
  const line = text
    .replace(/```[^\n]*\n?/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > 48 ? `${line.slice(0, 47)}…` : line || t('(no text)');
}
