// Spend this cycle as one bar against the soft and hard spending limits, drawn in SVG (no inline styles:
// colours come from classes in media/organization.css).
import { h } from '../../page/dom';
import { t } from '../../page/l10n';
import { money } from '../../page/values';

const SVG = 'http://www.w3.org/2000/svg';

function svg(tag: string, attrs: Record<string, string | number>, text?: string): SVGElement {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

export function spendChart(spent: number, soft: number, hard: number): HTMLElement {
  const width = 600;
  const top = Math.max(spent, soft, hard, 0.01) * 1.1;
  const x = (v: number) => Math.round((v / top) * width);
  const level = hard > 0 && spent >= hard ? 'over-hard' : soft > 0 && spent >= soft ? 'over-soft' : 'ok';
  const chart = svg('svg', {
    viewBox: `0 0 ${width} 56`,
    class: 'spend',
    role: 'img',
    'aria-label': t(
      'Spent {0}; soft limit {1}; hard limit {2}',
      money(spent),
      soft ? money(soft) : t('none'),
      hard ? money(hard) : t('none'),
    ),
  });
  chart.append(
    svg('rect', { x: 0, y: 8, width, height: 20, class: 'track' }),
    svg('rect', { x: 0, y: 8, width: Math.max(2, x(spent)), height: 20, class: `bar ${level}` }),
  );
  for (const [value, name] of [
    [soft, 'soft'],
    [hard, 'hard'],
  ] as const) {
    if (value <= 0) continue;
    const label = name === 'soft' ? t('soft limit {0}', money(value)) : t('hard limit {0}', money(value));
    chart.append(
      svg('line', { x1: x(value), x2: x(value), y1: 2, y2: 34, class: `limit ${name}` }),
      svg('text', { x: Math.min(x(value), width - 4), y: 50, class: 'label', 'text-anchor': 'end' }, label),
    );
  }
  const spentText = hard ? t('{0} spent of {1}', money(spent), money(hard)) : t('{0} spent', money(spent));
  const summary = soft ? t('{0} (soft limit {1})', spentText, money(soft)) : spentText;
  return h('figure', { class: 'chart' }, chart, h('figcaption', {}, summary));
}
