// The organization panel, browser side: usage and cost this cycle drawn against the spending limits,
// the subscription and its pause reasons, alert e-mails sent, and the observability integrations.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-label/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import {
  alertLabel,
  billingCycleLabel,
  planLabel,
  spacesPlanLabel,
  subscriptionStatusLabel,
  whenLabel,
} from '../../../shared/labels';
import type {
  MaskedOrganization,
  OrganizationCalls,
  OrganizationData,
  OrganizationEvent,
  OrganizationResults,
} from '../../../shared/protocol/organization';
import { checkRules, type Rules } from '../../../shared/rules';
import { fill, h, valueOf } from '../../page/dom';
import { field, markFields, textfield } from '../../page/fields';
import { CallFailed, HostChannel } from '../../page/hostChannel';
import { spendChart } from './spendChart';
import { costLine } from './costLine';
import { money } from '../../page/values';
import { t } from '../../page/l10n';

const channel = new HostChannel<typeof OrganizationCalls, OrganizationResults, OrganizationEvent>();
const app = document.getElementById('app')!;
const status = h('div', { class: 'status', role: 'status', 'aria-live': 'polite' });
const say = (text: string) => (status.textContent = text);
/** A day the service gives in seconds, or the words for none. */
const date = (seconds: number | null | undefined, none: string) => (seconds ? whenLabel(seconds * 1000, false) : none);
const table = (rows: Array<[string, string]>, label: string) =>
  h(
    'table',
    { class: 'kv', 'aria-label': label },
    h('tbody', {}, ...rows.map(([k, v]) => h('tr', {}, h('th', { scope: 'row' }, k), h('td', {}, v)))),
  );

function usage(org: MaskedOrganization): HTMLElement {
  const n = (x: number) => x.toLocaleString();
  return h(
    'section',
    { class: 'card', 'aria-label': t('Usage this cycle') },
    h('h2', {}, t('Usage this cycle')),
    spendChart(org.total_tokens_cost, org.spending_limit_soft ?? 0, org.spending_limit_hard ?? 0),
    table(
      [
        [t('Requests'), n(org.num_requests)],
        [
          t('Tokens'),
          t('{0} ({1} prompt, {2} completion)', n(org.total_tokens), n(org.prompt_tokens), n(org.completion_tokens)),
        ],
        [t('Cost'), costLine(org)],
        [
          t('Savings against the benchmark'),
          t(
            '{0} ({1} prompt, {2} completion)',
            money(org.total_tokens_cost_savings),
            money(org.prompt_tokens_cost_savings),
            money(org.completion_tokens_cost_savings),
          ),
        ],
        [t('Free balance'), money(org.free_balance ?? 0)],
        [t('Spaces, sandboxes included'), n(org.num_apps)],
        [t('Cycle started'), date(org.last_invoice_date, t('Not known'))],
      ],
      t('Usage figures'),
    ),
  );
}

function subscription(org: MaskedOrganization): HTMLElement {
  const invoices = org.subscription_pause_reason?.invoices ?? [];
  const alerts = Object.entries(org.alert_emails ?? {}).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string' && Number.isFinite(Date.parse(entry[1])),
  );
  return h(
    'section',
    { class: 'card', 'aria-label': t('Subscription') },
    h('h2', {}, t('Subscription')),
    table(
      [
        [
          t('Status'),
          org.is_active
            ? subscriptionStatusLabel(org.spaces_subscription_status)
            : t('{0} (paused)', subscriptionStatusLabel(org.spaces_subscription_status)),
        ],
        [
          t('Plan'),
          t('{0} · Spaces {1}', planLabel(org.subscription_tier), spacesPlanLabel(org.spaces_subscription_tier)),
        ],
        [t('Seats'), org.spaces_subscription_seats == null ? t('Not known') : String(org.spaces_subscription_seats)],
        [t('Billing cycle'), billingCycleLabel(org.subscription_cycle)],
        [t('Trial ends'), date(org.trial_end, t('No trial'))],
        [t('Cancels on'), date(org.spaces_subscription_cancel_at, t('Not set to cancel'))],
        [t('Billing e-mail'), org.billing_email || t('None given')],
      ],
      t('Subscription'),
    ),
    h('h3', {}, t('Pause reasons')),
    invoices.length
      ? h(
          'ul',
          { class: 'invoices' },
          ...invoices.map((inv) => {
            const pay = h(
              'vscode-button',
              { secondary: true, 'aria-label': t('Pay invoice {0}', inv.invoice_number) },
              t('Pay…'),
            );
            pay.addEventListener(
              'click',
              () => void channel.call('openLink', { href: inv.payment_link }).catch((e: Error) => say(e.message)),
            );
            return h(
              'li',
              {},
              `${inv.invoice_number} · ${inv.invoice_name} · ${money(inv.amount / 100)} · ${date(inv.timestamp, t('no date'))} · ${inv.pause_reason}`,
              pay,
            );
          }),
        )
      : h('p', { class: 'hint' }, t('None: the subscription is not paused.')),
    h('h3', {}, t('Alert e-mails sent')),
    alerts.length
      ? table(
          alerts.map(([k, at]) => [alertLabel(k), whenLabel(at)]),
          t('Alert e-mails sent'),
        )
      : h('p', { class: 'hint' }, t('None this cycle.')),
  );
}

/** What the built-in service does with each group. */
const BUILT_IN_DOES = {
  logs: () =>
    t(
      "The built-in service sends each request it logs here, through Loki's push API: its Space, model, status, tokens, cost and error, never its prompt or reply.",
    ),
  metrics: () =>
    t(
      "The built-in service sends its request counts here every 15 seconds, through Prometheus's remote write (the endpoint is its push URL): requests, tokens, cost and time taken, by Space and model.",
    ),
};

function integration(group: 'metrics' | 'logs', org: MaskedOrganization | null, builtIn: boolean): HTMLElement {
  const groupName = group === 'metrics' ? t('Metrics') : t('Logs');
  const id = field(
    'id',
    t('Account ID'),
    textfield(org?.[`${group}_id`] ?? ''),
    t('The ID your {0} service gives your account or instance, sent with the token.', groupName.toLowerCase()),
  );
  const token = field(
    'token',
    t('Token'),
    textfield('', {
      type: 'password',
      placeholder: org?.[`${group}_token`]
        ? t('{0} (leave empty to keep)', org[`${group}_token`] ?? '')
        : t('required'),
    }),
  );
  const endpoint = field(
    'endpoint',
    t('Endpoint'),
    textfield(org?.[`${group}_endpoint`] ?? '', { type: 'url', placeholder: 'https://…' }),
  );
  const fields = [id, token, endpoint];
  const run = async (value: { id: string; token: string; endpoint: string } | null) => {
    if (value) {
      const errors = checkRules(rules, value);
      if (Object.keys(errors).length) return void markFields(fields, errors);
    }
    markFields(fields, {});
    try {
      show(await channel.call('saveIntegration', { group, value }));
      say(value ? t('{0} integration saved.', groupName) : t('{0} integration cleared.', groupName));
    } catch (error) {
      const failure = error instanceof CallFailed ? error.error : { message: String(error), fields: {} };
      const stripped = Object.fromEntries(
        Object.entries(failure.fields).map(([k, m]) => [k.replace(new RegExp(`^(${group}|value)\\.`), ''), m]),
      );
      markFields(fields, stripped);
      say(failure.message);
    }
  };
  const save = h('vscode-button', {}, t('Save {0}', groupName));
  save.addEventListener(
    'click',
    () =>
      void run({
        id: valueOf(id.control).trim(),
        token: valueOf(token.control).trim(),
        endpoint: valueOf(endpoint.control).trim(),
      }),
  );
  const clear = h('vscode-button', { secondary: true, disabled: !org?.[`${group}_id`] }, t('Clear {0}', groupName));
  clear.addEventListener('click', () => void run(null));
  return h(
    'fieldset',
    { class: 'integration', 'aria-label': t('{0} integration', groupName) },
    h('legend', {}, groupName),
    builtIn ? h('p', { class: 'hint' }, BUILT_IN_DOES[group]()) : null,
    ...fields.map((f) => f.row),
    h('div', { class: 'actions' }, save, clear),
  );
}

/** An integration group's rules, from the host's last answer. */
let rules: Rules = {};

function show(data: OrganizationData): void {
  const org = data.org;
  rules = data.rules;
  fill(
    app,
    // The organization's id is for support requests, not for reading: it is the heading's tooltip.
    h(
      'header',
      { class: 'title' },
      h(
        'h1',
        org ? { title: t('Organization id: {0}', org.id) } : {},
        org ? org.org_display_name || org.org_name : t('Organization'),
      ),
    ),
    data.unavailable
      ? h(
          'div',
          { class: 'banner', role: 'note' },
          t('{0} Usage and the subscription cannot be shown; the integrations can still be set.', data.unavailable),
        )
      : null,
    org ? h('div', { class: 'cards' }, usage(org), subscription(org)) : null,
    h(
      'section',
      { class: 'card', 'aria-label': t('Observability integrations') },
      h('h2', {}, t('Observability integrations')),
      h('p', { class: 'hint' }, t('Tokens stay on the service; only their last four characters are shown.')),
      h(
        'div',
        { class: 'integrations' },
        integration('metrics', org, data.builtIn),
        integration('logs', org, data.builtIn),
      ),
    ),
    status,
  );
  app.removeAttribute('aria-busy');
}

async function load(): Promise<void> {
  try {
    show(await channel.call('load', {}));
  } catch (error) {
    fill(
      app,
      h('div', { class: 'banner error', role: 'alert' }, error instanceof Error ? error.message : String(error)),
      status,
    );
  }
}

channel.onEvent((event) => {
  // A refresh while the user types in the form would drop the typing: only when nothing is focused there.
  if (event.type === 'reload' && !document.activeElement?.closest('fieldset')) void load();
});
channel.ready();
void load();
