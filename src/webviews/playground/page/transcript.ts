// The conversation as it is shown: each turn's prompt and reply rendered as sanitized markdown, the
// reply's figures underneath, and Copy / Insert at Cursor / Replace Selection on every code block.
import type { ReplyInfo, Thought, Turn } from '../../../shared/protocol/playground';
import { fill, h } from '../../page/dom';
import { money } from '../../page/values';
import { stoppedNote } from './estimate';
import { LiveMarkdown } from '../../page/liveMarkdown';
import { reasonLabel, receiptLine, stoppedShort, tokenFigures, type ReceiptView } from '../../../shared/receipt';
import { onMarkdownChange, renderMarkdown, showSearchSuggestions } from '../../page/markdown';
import { t } from '../../page/l10n';
import { placeholder } from '../../page/placeholder';

export interface TranscriptActions {
  code(action: 'copy' | 'insert' | 'replace', code: string): void;
  link(href: string): void;
  /** What this much reply text costs at the model chosen; undefined when routing chooses. */
  costOf?(text: string): number | undefined;
}

/** A turn whose reply is still streaming in. */
export interface LiveTurn {
  /** `at`: when the host received the first piece (epoch ms), to report the latency to the first paint. */
  append(text: string, at?: number): void;
  /** A piece of the model's reasoning, shown unfolded while it thinks and folded once the reply starts. */
  think(text: string): void;
  /** Where the send stands while no reply has come (see the 'stage' event). */
  stage(stage: 'asking' | 'sent'): void;
  finish(reply: ReplyInfo): void;
  fail(message: string, stopped: boolean): void;
  readonly text: string;
  /** What the model thought before the reply, if it showed it. */
  readonly thought: Thought | undefined;
}

export class Transcript {
  /** Each finished prompt and reply shown, with its text, to draw again once the markdown renderer or a language loads. */
  private readonly drawn = new Map<HTMLElement, { text: string; reply: boolean }>();

  constructor(
    readonly root: HTMLElement,
    private readonly actions: TranscriptActions,
  ) {
    onMarkdownChange(() => {
      for (const [el, { text, reply }] of this.drawn) {
        if (!el.isConnected) this.drawn.delete(el);
        else if (reply) this.fillReply(el, text);
        else fill(el, renderMarkdown(text));
      }
    });
    root.addEventListener('click', (e) => {
      // Google's Search Suggestions are links in a shadow root of their own: the click's path has them.
      const link = e.composedPath().find((node): node is HTMLAnchorElement => node instanceof HTMLAnchorElement);
      if (!link) return;
      e.preventDefault();
      const href = link.getAttribute('href');
      if (href && /^https?:/i.test(href)) actions.link(href);
    });
  }

  /** Shows these turns; `notice` says why earlier ones are missing (a Space that keeps no text). */
  show(turns: Turn[], notice: string | null = null): void {
    this.drawn.clear();
    const note = notice ? [h('p', { class: 'notice', role: 'note' }, notice)] : [];
    // Which of the two is shown follows the prompt box (playground.css): empty, or holding a draft.
    if (turns.length === 0 && !notice)
      fill(
        this.root,
        h(
          'p',
          { class: 'empty when-blank' },
          t('Send a prompt to start. Select code in an editor and press Ctrl+Alt+P to bring it here.'),
        ),
        h('p', { class: 'empty when-draft' }, t('Your prompt is ready below: press Send or Ctrl+Enter to send it.')),
      );
    else fill(this.root, ...note, ...turns.map((turn) => this.turnElement(turn)));
  }

  start(prompt: string, attached: string[] = []): LiveTurn {
    for (const empty of this.root.querySelectorAll('.empty')) empty.remove();
    const reply = h('div', { class: 'reply markdown', 'aria-busy': 'true' });
    const meta = h('footer', { class: 'meta' }, t('Waiting for the first tokens…'));
    const article = h('article', { class: 'turn' }, this.promptElement(prompt), attachedLine(attached), reply, meta);
    this.root.append(article);
    article.scrollIntoView({ block: 'end' });
    let text = '';
    let frame = 0;
    let firstAt: number | undefined;
    // When the request went: a model may think a while before it shows any of it (OpenAI's do).
    let sentAt = performance.now();
    const frames = watchFrames();
    let live: LiveMarkdown | undefined;
    let thinking: ThinkingView | undefined;
    const paint = () => {
      frame = 0;
      const stick = nearBottom(this.root);
      thinking?.paint();
      // Finished blocks are drawn once, without highlighting; see LiveMarkdown.
      if (text) (live ??= new LiveMarkdown(reply)).update(text);
      if (stick) article.scrollIntoView({ block: 'end' });
      if (firstAt !== undefined) {
        void reply.offsetHeight;
        document.body.dataset.firstPaintMs = String(performance.timeOrigin + performance.now() - firstAt);
        firstAt = undefined;
      }
    };
    return {
      get text() {
        return text;
      },
      get thought() {
        return thinking?.thought();
      },
      stage: (stage) => {
        if (text) return;
        // Nothing is under way while the user is asked: no "…" in the reply's place.
        reply.setAttribute('aria-busy', String(stage === 'sent'));
        if (stage === 'sent') sentAt = performance.now();
        meta.textContent =
          stage === 'asking'
            ? t('Not sent yet: waiting for your answer, as it would pass the soft spending limit.')
            : t('Waiting for the first tokens…');
      },
      think: (piece) => {
        if (!thinking) {
          thinking = new ThinkingView(sentAt);
          reply.before(thinking.element);
          meta.textContent = t('The model thinks before it answers…');
        }
        thinking.add(piece);
        if (!frame) frame = requestAnimationFrame(paint);
      },
      append: (delta, at) => {
        if (!text && at !== undefined) firstAt = at;
        if (!text) meta.textContent = t('Receiving the reply…');
        if (!text) thinking?.done();
        text += delta;
        if (!frame) frame = requestAnimationFrame(paint);
      },
      finish: (info) => {
        cancelAnimationFrame(frame);
        frames.stop();
        thinking?.done();
        reply.removeAttribute('aria-busy');
        this.fillReply(reply, info.content || text);
        reply.after(...underReply(info));
        const footer = metaOf(info);
        meta.replaceWith(footer);
        // Whoever can see the reply gets its figures in view too; on the next frame, once the code
        // blocks' buttons have rendered and taken their height.
        if (article.getBoundingClientRect().top < this.root.getBoundingClientRect().bottom)
          requestAnimationFrame(() => footer.scrollIntoView({ block: 'nearest' }));
      },
      fail: (message, stopped) => {
        cancelAnimationFrame(frame);
        frames.stop();
        thinking?.done();
        reply.removeAttribute('aria-busy');
        this.fillReply(reply, text);
        meta.replaceWith(
          h(
            'footer',
            { class: stopped ? 'meta' : 'meta error', role: 'alert' },
            stopped ? stoppedNote(text, this.actions.costOf?.(text)) : message,
          ),
        );
      },
    };
  }

  private turnElement({ prompt, attached, reply, error, thought }: Turn): HTMLElement {
    const body = h('div', { class: 'reply markdown' });
    if (reply) this.fillReply(body, reply.content);
    const footer = reply ? metaOf(reply) : h('footer', { class: 'meta error' }, error ?? t('No reply.'));
    const thinking = thought ? ThinkingView.finished(thought) : null;
    return h(
      'article',
      { class: 'turn' },
      this.promptElement(prompt),
      attachedLine(attached ?? []),
      thinking,
      body,
      ...(reply ? underReply(reply) : []),
      footer,
    );
  }

  private promptElement(prompt: string): HTMLElement {
    const el = h('div', { class: 'prompt markdown', 'aria-label': t('Prompt') });
    fill(el, renderMarkdown(prompt));
    this.drawn.set(el, { text: prompt, reply: false });
    return el;
  }

  private fillReply(el: HTMLElement, text: string): void {
    fill(el, renderMarkdown(text));
    this.drawn.set(el, { text, reply: true });
    for (const pre of el.querySelectorAll('pre')) {
      const code = () => pre.querySelector('code')?.textContent ?? pre.textContent ?? '';
      const button = (label: string, action: 'copy' | 'insert' | 'replace') => {
        const b = h('vscode-button', { secondary: true, 'aria-label': `${label} (code block)` }, label);
        b.addEventListener('click', () => this.actions.code(action, code()));
        return b;
      };
      pre.before(
        h(
          'div',
          { class: 'code-actions', role: 'toolbar' },
          button(t('Copy'), 'copy'),
          button(t('Insert at Cursor'), 'insert'),
          button(t('Replace Selection'), 'replace'),
        ),
      );
    }
  }
}

/** What goes under a reply's text: Google's Search Suggestions, then the pages it cites. */
const underReply = (reply: ReplyInfo) => [...suggestionsOf(reply), ...sourcesOf(reply)];

/**
 * Google's Search Suggestions under a Gemini model's reply grounded by Google Search, as wide as the
 * reply, as Google asks of whoever shows such a reply; their links open Google's results for the query.
 */
function suggestionsOf(reply: ReplyInfo): HTMLElement[] {
  if (!reply.searchSuggestions) return [];
  const host = h('div', { class: 'search-suggestions', role: 'group', 'aria-label': t('Google Search Suggestions') });
  showSearchSuggestions(host, reply.searchSuggestions);
  return [host];
}

/** The pages a reply cites (those its web search found), as links under it; none when it cites none. */
function sourcesOf(reply: ReplyInfo): HTMLElement[] {
  if (!reply.sources?.length) return [];
  const links = reply.sources.map((page) => h('li', {}, h('a', { href: page.url, title: page.url }, page.title)));
  return [
    h('nav', { class: 'sources', 'aria-label': t('Sources') }, h('span', {}, t('Sources')), h('ol', {}, ...links)),
  ];
}

/**
 * A model's reasoning above its reply: unfolded while it thinks, with its text as plain text (it is
 * the model talking to itself, not the answer), folded to "Thought for 4 s" once the reply starts,
 * unless the user opened or closed it meanwhile.
 */
class ThinkingView {
  readonly element: HTMLDetailsElement;
  private readonly summary = h('summary', {}, t('Thinking…'));
  private readonly body = h('div', { class: 'thought' });
  private text = '';
  private shown = 0;
  private seconds: number | undefined;
  private touched = false;

  /** `started`: when the request went, from which the model's thinking is timed. */
  constructor(private readonly started = performance.now()) {
    this.element = h('details', { class: 'thinking', open: true }, this.summary, this.body);
    this.summary.addEventListener('click', () => (this.touched = true));
  }

  static finished(thought: Thought): HTMLElement {
    const view = new ThinkingView();
    view.add(thought.text);
    view.paint();
    view.end(thought.seconds);
    view.element.open = false;
    return view.element;
  }

  add(piece: string): void {
    this.text += piece;
  }

  /** New text is appended as it is, without drawing again what is shown; followed while it is read at its end. */
  paint(): void {
    if (this.shown === this.text.length) return;
    const stick = this.body.scrollHeight - this.body.scrollTop - this.body.clientHeight < 24;
    this.body.append(this.text.slice(this.shown));
    this.shown = this.text.length;
    if (stick) this.body.scrollTop = this.body.scrollHeight;
  }

  /** The reply started (or ended): the reasoning folds away, with how long it took. */
  done(): void {
    if (this.seconds !== undefined) return;
    this.paint();
    this.end((performance.now() - this.started) / 1000);
    if (!this.touched) this.element.open = false;
  }

  thought(): Thought | undefined {
    return this.text
      ? { text: this.text, seconds: this.seconds ?? (performance.now() - this.started) / 1000 }
      : undefined;
  }

  private end(seconds: number): void {
    this.seconds = seconds;
    this.summary.textContent =
      seconds < 1 ? t('Thought for less than a second') : t('Thought for {0} s', Math.round(seconds));
  }
}

/**
 * The longest gap between two frames while a reply streams, in `data-max-frame-gap-ms` on the body:
 * how close the panel came to freezing (the benchmark reads it).
 */
function watchFrames(): { stop(): void } {
  let last = performance.now();
  let longest = 0;
  let running = true;
  const tick = (now: number) => {
    longest = Math.max(longest, now - last);
    last = now;
    if (running) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  return {
    stop: () => {
      running = false;
      document.body.dataset.maxFrameGapMs = String(longest);
    },
  };
}

const nearBottom = (el: HTMLElement) => el.scrollHeight - el.scrollTop - el.clientHeight < 80;

function metaOf(r: ReplyInfo): HTMLElement {
  const parts = [
    r.namespace,
    tokenFigures(r.usage, t),
    money(r.costs.total_tokens),
    // What the Space's benchmark model would have cost more; nothing to say without one, or when it costs less.
    ...(r.savings.total_tokens > 0 ? [`saved ${money(r.savings.total_tokens)}`] : []),
    `${r.latencySeconds.toFixed(2)} s`,
  ];
  if (r.retries > 0) parts.push(`${r.retries} ${r.retries === 1 ? 'retry' : 'retries'}`);
  const stopped = stoppedShort(r.finishReason, t);
  if (stopped) parts.push(stopped);
  return h(
    'footer',
    { class: 'meta', 'data-reply-id': r.id },
    h('span', { class: 'figures' }, parts.join(' · ')),
    r.warning ? h('div', { class: 'warning', role: 'note' }, `⚠ ${r.warning}`) : null,
    placeholder(r.namespace),
    r.routing ? receiptElement(r.routing) : null,
  );
}

/** The routing receipt: one line, unfolding to the candidates, what was left out, and each attempt. */
function receiptElement(r: ReceiptView): HTMLElement {
  const score = (n: number | null) => (n === null ? t('not scored') : n.toFixed(2));
  const table = (label: string, head: string[], rows: string[][]) =>
    h(
      'table',
      { class: 'receipt-table', 'aria-label': label },
      h('thead', {}, h('tr', {}, ...head.map((c) => h('th', { scope: 'col' }, c)))),
      h('tbody', {}, ...rows.map((row) => h('tr', {}, ...row.map((c) => h('td', {}, c))))),
    );
  const candidates = r.candidates.length
    ? table(
        t('Candidates'),
        [t('Model'), t('Score'), t('Cost'), t('Latency'), t('Quality'), t('Estimated cost')],
        r.candidates.map((c) => [
          c.namespace === r.answered ? `${c.namespace} ✓` : c.namespace,
          score(c.score),
          score(c.costScore),
          score(c.latencyScore),
          score(c.qualityScore),
          money(c.estimatedCost),
        ]),
      )
    : null;
  const excluded = r.excluded.length
    ? h(
        'p',
        {},
        t('Left out: {0}.', r.excluded.map((e) => t('{0} ({1})', e.namespace, reasonLabel(e.reason, t))).join(', ')),
      )
    : null;
  const inactive = r.inactive
    ? h(
        'p',
        { class: 'hint' },
        r.inactive === 1
          ? t('1 model of the Space is turned off.')
          : t('{0} models of the Space are turned off.', r.inactive),
      )
    : null;
  const attempts =
    r.attempts.length > 1
      ? table(
          t('Attempts'),
          [t('Model'), t('Result')],
          r.attempts.map((a) => [
            a.namespace,
            a.statusCode === 200 ? t('answered') : t('failed ({0}): {1}', a.statusCode, a.error ?? ''),
          ]),
        )
      : null;
  const estimate = r.estimated
    ? h(
        'p',
        { class: 'hint' },
        t(
          "The service sent no receipt: this is the extension's estimate from the Space's active models and their prices, at this reply's token counts. Latency and quality are not known to it.",
        ),
      )
    : null;
  const details = h(
    'details',
    { class: r.estimated ? 'receipt estimated' : 'receipt' },
    h('summary', {}, receiptLine(r, t)),
    estimate,
    candidates,
    excluded,
    inactive,
    attempts,
  ) as HTMLDetailsElement;
  // Unfolded at the foot of the conversation, its tables would open below what is in view.
  details.addEventListener('toggle', () => {
    if (details.open) details.scrollIntoView({ block: 'nearest' });
  });
  return details;
}

/**
 * The line under a prompt that names the files attached to it, or nothing: "Attached", not "Sent
 * with", as it stands under a prompt still on its way and one the service refused too.
 */
function attachedLine(names: readonly string[]): HTMLElement | null {
  return names.length ? h('div', { class: 'attached' }, t('Attached: {0}', names.join(', '))) : null;
}
