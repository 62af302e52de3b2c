// Providers that keep failing are left alone for a while: after a run of failures (5xx, 429,
// timeouts, refused connections) a provider cools down and gets no requests, then one probe at a
// time; each failed probe doubles the wait, up to five minutes, and an answer ends the cooldown.
// A 429's Retry-After sets the wait when it is longer.

const FAILURES_TO_COOL = 3;
const FIRST_WAIT_MS = 15_000;
const LONGEST_WAIT_MS = 5 * 60_000;

interface State {
  failures: number;
  /** Until when no request is sent (epoch ms); 0 when not cooling. */
  until: number;
  wait: number;
}

export class Cooldown {
  private readonly states = new Map<string, State>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Whether a request may go to the provider now (when cooling: one probe once the wait is over). */
  allows(provider: string): boolean {
    const state = this.states.get(provider);
    if (!state || state.until === 0) return true;
    if (this.now() < state.until) return false;
    // The wait is over: this request is the probe; the next waits until it has answered or failed.
    state.until = this.now() + state.wait;
    return true;
  }

  /** Until when a cooling provider gets no requests, or null. */
  coolingUntil(provider: string): number | null {
    const until = this.states.get(provider)?.until ?? 0;
    return until > this.now() ? until : null;
  }

  succeeded(provider: string): void {
    this.states.delete(provider);
  }

  failed(provider: string, retryAfterMs: number | null): void {
    const state = this.states.get(provider) ?? { failures: 0, until: 0, wait: 0 };
    state.failures++;
    if (state.failures >= FAILURES_TO_COOL || retryAfterMs !== null) {
      state.wait = Math.min(LONGEST_WAIT_MS, Math.max(state.wait * 2 || FIRST_WAIT_MS, retryAfterMs ?? 0));
      state.until = this.now() + state.wait;
    }
    this.states.set(provider, state);
  }
}

/**
 * Whether a failure says the provider is unwell, and so counts toward its cooldown: no answer (a refused
 * connection, a timeout), a rate limit or a 5xx. A request it refused as the caller's mistake (400, 422),
 * a refused key or a model it does not have is the user's to fix: other requests may still be answered.
 */
export function countsAgainstProvider(status: number | undefined): boolean {
  return status === undefined || status === 429 || status >= 500;
}

/** This process's cooldowns, shared by every request and shown by GET /v1/providers. */
export const providerCooldown = new Cooldown();
