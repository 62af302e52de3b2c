// Who a token is, remembered until the next write, and only for tokens that exist, in a bounded map:
// a flood of unknown tokens costs a lookup each and no memory.
import type { Database } from '../db';
import { authenticate } from '../domain/auth';
import type { Caller } from '../domain/caller';

export class TokenCache {
  private readonly known = new Map<string, Caller>();
  private version = -1;

  constructor(
    private readonly db: Database,
    private readonly capacity: number,
  ) {}

  caller(token: string): Caller | undefined {
    if (this.db.version !== this.version) {
      this.known.clear();
      this.version = this.db.version;
    }
    const cached = this.known.get(token);
    if (cached) return cached;
    const caller = authenticate(this.db, token);
    if (caller) {
      // The oldest entry makes room (a Map keeps insertion order).
      if (this.known.size >= this.capacity) this.known.delete(this.known.keys().next().value!);
      this.known.set(token, caller);
    }
    return caller;
  }

  get size(): number {
    return this.known.size;
  }
}
