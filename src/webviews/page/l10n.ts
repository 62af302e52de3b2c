// The webviews' words, localized as the host's are: `t('Save')` looks the English text up in VS Code's
// bundle of this extension's translations, which the host puts in the page (`data-l10n` on the body),
// and fills `{0}`, `{1}` with the arguments. Without a translation the English text is used.
let bundle: Record<string, string> = {};
let bundleText: string | undefined;

/** The page's bundle, parsed again only if the page's text of it changed (it does not, once loaded). */
function currentBundle(): Record<string, string> {
  // Read through globalThis: the unit tests run these modules in Node, which has no document.
  const page = (globalThis as { document?: { body?: { dataset: Record<string, string | undefined> } | null } })
    .document;
  const raw = page?.body?.dataset.l10n;
  if (raw === bundleText) return bundle;
  bundleText = raw;
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    bundle = parsed && typeof parsed === 'object' ? (parsed as Record<string, string>) : {};
  } catch {
    bundle = {};
  }
  return bundle;
}

export function t(message: string, ...args: Array<string | number>): string {
  const translated = currentBundle()[message];
  const text = typeof translated === 'string' ? translated : message;
  return text.replace(/\{(\d+)\}/g, (whole, n: string) => (Number(n) < args.length ? String(args[Number(n)]) : whole));
}
