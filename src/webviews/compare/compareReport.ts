// A comparison as a markdown report: the prompt, a table of figures (tokens, cost, latency, saving
// against the benchmark model), then each model's reply in full.
import * as vscode from 'vscode';
import type { ChatDraft, ReplyInfo } from '../../shared/protocol/playground';
import { money } from '../../shared/money';

const t = vscode.l10n.t;

export interface ReportColumn {
  body: ChatDraft & { model: string };
  benchmark: string | null;
  /** What arrived, for a reply stopped or failed part way. */
  text: string;
  reply: ReplyInfo | null;
  error: string | null;
}

export interface ReportInput {
  spaceName: string;
  benchmark: string | null;
  prompt: string;
  columns: ReportColumn[];
  when: Date;
}

/** A fence longer than any run of backticks in the text, so the text cannot close it. */
function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const bar = '`'.repeat(longest + 1);
  return `${bar}\n${text}\n${bar}`;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function compareReport(input: ReportInput): string {
  const { columns } = input;
  const head = [
    t('Model'),
    t('Tokens (in / out)'),
    t('Cost'),
    t('Latency'),
    input.benchmark ? t('Saving against {0}', input.benchmark) : t('Saving against the benchmark'),
  ];
  const rows = columns.map((c) => {
    const r = c.reply;
    if (!r) return [c.body.model, '—', '—', '—', c.error ?? t('no reply')];
    return [
      r.namespace === c.body.model ? r.namespace : t('{0} (answered by {1})', c.body.model, r.namespace),
      `${r.usage.prompt_tokens.toLocaleString('en')} / ${r.usage.completion_tokens.toLocaleString('en')}`,
      money(r.costs.total_tokens),
      `${r.latencySeconds.toFixed(2)} s`,
      money(r.savings.total_tokens),
    ];
  });
  const table = [head, head.map(() => '---'), ...rows].map((row) => `| ${row.map(cell).join(' | ')} |`).join('\n');
  const replies = columns.map((c) => {
    const text = c.reply?.content ?? c.text;
    const status = c.reply ? '' : `\n\n_${c.error ?? t('No reply.')}_`;
    return `## ${c.body.model}\n\n${text || t('(nothing arrived)')}${status}`;
  });
  const body = columns[0]?.body;
  const settings = [
    body?.max_tokens ? t('max tokens {0}', body.max_tokens) : null,
    typeof body?.temperature === 'number' ? t('temperature {0}', body.temperature) : null,
  ].filter(Boolean);
  return [
    `# ${t('Comparison of {0} models in "{1}"', columns.length, input.spaceName)}`,
    `${input.when.toISOString().slice(0, 16).replace('T', ' ')} UTC${settings.length ? ` · ${settings.join(' · ')}` : ''}`,
    `## ${t('Prompt')}`,
    fence(input.prompt),
    `## ${t('Figures')}`,
    table,
    ...replies,
    '',
  ].join('\n\n');
}
