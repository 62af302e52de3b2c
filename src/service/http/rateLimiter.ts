// Per-organization rate limit over a sliding minute, counted across all of the organization's tokens.
const WINDOW_MS = 60_000;

export interface Verdict {
  allowed: boolean;
  limit: number;
  retryAfter: number;
  headers: Record<string, string>;
}

/** One organization's requests in the window, oldest first; expired ones leave from the front. */
class Window {
  private times: number[] = [];
  private start = 0;

  prune(since: number): void {
    while (this.start < this.times.length && this.times[this.start]! <= since) this.start++;
    // Compact now and then, so the array does not grow with every request ever made.
    if (this.start > 1024 && this.start * 2 > this.times.length) {
      this.times = this.times.slice(this.start);
      this.start = 0;
    }
  }

  get size(): number {
    return this.times.length - this.start;
  }

  get oldest(): number | undefined {
    return this.times[this.start];
  }

  push(time: number): void {
    this.times.push(time);
  }
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly limitOf: (orgId: string) => number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Constant time per request (amortized): the cost does not grow with the traffic of the minute. */
  take(orgId: string): Verdict {
    const now = this.now();
    const limit = this.limitOf(orgId);
    let recent = this.windows.get(orgId);
    if (!recent) this.windows.set(orgId, (recent = new Window()));
    recent.prune(now - WINDOW_MS);
    const allowed = recent.size < limit;
    if (allowed) recent.push(now);
    const oldest = recent.oldest ?? now;
    // Seconds until the oldest request in the window leaves it and frees a place.
    const reset = Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000));
    return {
      allowed,
      limit,
      retryAfter: reset,
      headers: {
        'x-ratelimit-limit': String(limit),
        'x-ratelimit-remaining': String(Math.max(0, limit - recent.size)),
        'x-ratelimit-reset': String(reset),
      },
    };
  }
}
