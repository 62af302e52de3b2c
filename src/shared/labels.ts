// The words a person reads for the service's enumerations (plans, statuses, cycles, alerts). Shared by the host
// and the webviews; a value this version does not know is shown in plain words, never as `_TRIAL_`.

const PLANS: Record<string, string> = {
  _NONE_: 'No plan',
  _TRIAL_: 'Trial',
  _INTERNAL_: 'Internal',
  STARTUP: 'Startup',
  GROWTH: 'Growth',
  SCALE: 'Scale',
  ENTERPRISE: 'Enterprise',
};
const SPACES_PLANS: Record<string, string> = {
  INTERNAL: 'Internal',
  FREE: 'Free',
  PRO: 'Pro',
  TEAM: 'Team',
  ENTERPRISE: 'Enterprise',
};
const STATUSES: Record<string, string> = { active: 'Active', unpaid: 'Unpaid' };
const CYCLES: Record<string, string> = { monthly: 'Monthly', yearly: 'Yearly' };
const SANDBOX: Record<string, string> = { up_to_date: 'up to date', outdated: 'outdated' };
/** The alert e-mails the organization record stamps (usage_N: N% of the hard spending limit). */
const ALERTS: Record<string, string> = {
  soft_limit: 'Soft spending limit passed',
  hard_limit: 'Hard spending limit reached',
  payment_failed: 'Payment failed',
  usage_reset: 'Usage reset for the new cycle',
  usage_50: 'Half of the hard limit spent',
  usage_80: '80% of the hard limit spent',
  usage_90: '90% of the hard limit spent',
  usage_100: 'All of the hard limit spent',
};
const PERMISSIONS: Record<string, string> = {
  view: 'view',
  edit: 'edit',
  delete: 'delete',
  manage_keys: 'manage keys',
  use_playground: 'use the playground',
};

/** `SOME_VALUE` or `some_value` as "Some value". */
export function plainWords(value: string): string {
  const words = value
    .replace(/^_+|_+$/g, '')
    .replace(/_+/g, ' ')
    .toLowerCase()
    .trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : value;
}

const label =
  (table: Record<string, string>) =>
  (value: string | null | undefined, none = 'not set') =>
    value ? (table[value] ?? plainWords(value)) : none;

export const planLabel = label(PLANS);
export const spacesPlanLabel = label(SPACES_PLANS);
export const subscriptionStatusLabel = label(STATUSES);
export const billingCycleLabel = label(CYCLES);
export const sandboxStatusLabel = label(SANDBOX);
export const alertLabel = label(ALERTS);
/** A permission on a Space in words ("manage keys"); one this version does not know in lower-case words. */
export const permissionLabel = (value: string) => PERMISSIONS[value] ?? plainWords(value).toLowerCase();

/** How every view writes a day ("21 Nov 2026"). */
const DAY_STYLE = { day: 'numeric', month: 'short', year: 'numeric' } as const;

/**
 * A timestamp as people read it, the one style of every view ("21 Nov 2026, 14:05", or "21 Nov 2026"
 * without the time): an ISO string, epoch milliseconds or a Date; anything unreadable as it came.
 */
export function whenLabel(when: string | number | Date | null | undefined, withTime = true): string {
  if (when === null || when === undefined || when === '') return 'unknown';
  const at = new Date(when);
  if (Number.isNaN(at.getTime())) return String(when);
  const date = at.toLocaleDateString('en-GB', DAY_STYLE);
  return withTime ? `${date}, ${timeLabel(at)}` : date;
}

/**
 * A day or a month as people read it, in the same style ("23 Sept 2026", "May 2024"): the catalogue's
 * dates (a deprecation, a training cut-off) are days or months, not instants, so no time zone moves
 * them. Anything unreadable as it came.
 */
export function dayLabel(iso: string): string {
  const day = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/.exec(iso);
  if (!day) return iso;
  const at = new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3] ?? 1)));
  if (Number.isNaN(at.getTime())) return iso;
  return day[3]
    ? at.toLocaleDateString('en-GB', { ...DAY_STYLE, timeZone: 'UTC' })
    : at.toLocaleDateString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** The time of day in the same style ("14:05"). */
export const timeLabel = (at: Date = new Date()) =>
  at.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });

/** A file's size as people read it ("640 bytes", "12 KB", "3.4 MB"), never rounded up from nothing. */
export function sizeLabel(bytes: number): string {
  if (bytes < 1024) return bytes === 1 ? '1 byte' : `${bytes} bytes`;
  const [value, unit] = bytes < 1024 * 1024 ? [bytes / 1024, 'KB'] : [bytes / (1024 * 1024), 'MB'];
  return `${value < 10 ? value.toFixed(1).replace(/\.0$/, '') : Math.round(value)} ${unit}`;
}
