/** Who makes a request: an organization token, or a Space key limited to one Space. */
export interface Caller {
  orgId: string;
  /** Set for a Space key: the only Space it may see. */
  appId: string | null;
  identity: string;
}

export const nowIso = () => new Date().toISOString();

/** A modification time strictly after `previous`, so that ordering by modified_on never ties. */
export function laterThan(previous: string): string {
  const now = new Date();
  const before = Date.parse(previous);
  return (Number.isFinite(before) && now.getTime() <= before ? new Date(before + 1) : now).toISOString();
}

export function parseJson<T>(text: unknown, fallback: T): T {
  if (typeof text !== 'string') return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
