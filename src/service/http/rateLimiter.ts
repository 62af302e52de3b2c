// Per-organization rate limit over a sliding minute, counted across all of the organization's tokens.
const WINDOW_MS = 60_000;

export interface Verdict {
  allowed: boolean;
  limit: number;
  retryAfter: number;
  headers: Record<string, string>;
}

export class RateLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly limitOf: (orgId: string) => number,
    private readonly now: () => number = Date.now,
  ) {}

  take(orgId: string): Verdict {
    const now = this.now();
    const limit = this.limitOf(orgId);
    const recent = (this.hits.get(orgId) ?? []).filter((t) => t > now - WINDOW_MS);
    const allowed = recent.length < limit;
    if (allowed) recent.push(now);
    this.hits.set(orgId, recent);
    const oldest = recent[0] ?? now;
    // Seconds until the oldest request in the window leaves it and frees a place.
    const reset = Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000));
    return {
      allowed,
      limit,
      retryAfter: reset,
      headers: {
        'x-ratelimit-limit': String(limit),
        'x-ratelimit-remaining': String(Math.max(0, limit - recent.length)),
        'x-ratelimit-reset': String(reset),
      },
    };
  }
}
