// The service's answer about the Space: its main and sandbox views side by side, and the sandbox's
// status, with a way to open the sandbox (or the main Space) when it is outdated.
import type { SpaceDetail, SpaceUpdateResponse } from '../../../api/schemas';
import { permissionLabel, sandboxStatusLabel, whenLabel } from '../../../shared/labels';
import { h } from '../../page/dom';
import { t } from '../../page/l10n';

function card(title: string, detail: SpaceDetail, extra: HTMLElement | null): HTMLElement {
  const a = detail.app;
  const row = (k: string, v: string) =>
    h('div', { class: 'kv' }, h('span', { class: 'k' }, k), h('span', { class: 'v' }, v));
  return h(
    'section',
    { class: 'card', 'aria-label': title },
    h('h2', {}, title),
    row(t('Name'), a.name ?? t('unnamed')),
    row(t('Active models'), String(detail.active_models)),
    row(
      t('Failover chain'),
      a.has_failover_chain ? detail.failover_models.map((m) => m.namespace).join(' → ') || t('on, empty') : t('off'),
    ),
    row(t('Your permissions'), detail.current_user_permissions.map(permissionLabel).join(', ') || t('none')),
    row(t('Modified'), whenLabel(a.modified_on)),
    extra,
  );
}

export function viewSummary(view: SpaceUpdateResponse, open: (spaceId: string) => void): HTMLElement {
  const button = (label: string, id: string) => {
    const b = h('vscode-button', { secondary: true }, label);
    b.addEventListener('click', () => open(id));
    return b;
  };
  const status = view.sandbox_status;
  const sandbox = view.sandbox
    ? card(
        t('Sandbox'),
        view.sandbox,
        h(
          'div',
          { class: `sandbox-status ${status ?? ''}` },
          status === 'outdated'
            ? t('⚠ The sandbox is outdated: the main Space changed after it. ')
            : t('The sandbox is {0}. ', sandboxStatusLabel(status, t('in an unknown state'))),
          button(t('Open Sandbox'), view.sandbox.app.id),
        ),
      )
    : null;
  const parent = view.main.app.sandbox_of
    ? h('div', {}, t('This Space is a sandbox. '), button(t('Open Main Space'), view.main.app.sandbox_of))
    : null;
  return h('div', { class: 'views' }, card(t('Main'), view.main, parent), sandbox);
}
