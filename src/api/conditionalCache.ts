// Validated answers of GET requests that came with an ETag, per token and URL. The next request sends
// If-None-Match; a 304 reuses the answer without transferring or validating it again (the local
// service tags its catalogue and prompt lists; a service that sends no ETag is simply not cached).
import { createHash } from 'node:crypto';

const MAX_ENTRIES = 100;

export class ConditionalCache {
  private readonly entries = new Map<string, { etag: string; value: unknown }>();

  /** The token is part of the key: another account never sees this one's answers. */
  key(token: string | undefined, url: string): string {
    return `${createHash('sha256')
      .update(token ?? '')
      .digest('base64url')} ${url}`;
  }

  etag(key: string): string | undefined {
    return this.entries.get(key)?.etag;
  }

  /** The stored answer for a 304 to the given ETag. */
  reuse(key: string): unknown {
    return this.entries.get(key)?.value;
  }

  store(key: string, etag: string | undefined, value: unknown): void {
    if (!etag) {
      this.entries.delete(key);
      return;
    }
    if (this.entries.size >= MAX_ENTRIES && !this.entries.has(key))
      this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { etag, value });
  }
}
