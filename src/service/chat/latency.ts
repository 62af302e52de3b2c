// How fast each model answers, as this service measured it: the time to its first token (the whole
// reply's time when it did not stream), a moving average per model. Routing weighs it once measured;
// until then the catalogue's prior. The routing receipt says which of the two each candidate had.

/** How much one new measurement moves the average. */
const WEIGHT = 0.3;

export class LatencyBook {
  private readonly averages = new Map<string, number>();

  record(namespace: string, ms: number): void {
    const before = this.averages.get(namespace);
    this.averages.set(namespace, before === undefined ? ms : before + WEIGHT * (ms - before));
  }

  /** The measured average, or undefined before the first answer. */
  measured(namespace: string): number | undefined {
    return this.averages.get(namespace);
  }
}

/** This process's measurements, shared by every request. */
export const latencyBook = new LatencyBook();
