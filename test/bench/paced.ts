// Requests at a fixed rate, evenly spaced (open loop): one every 1000/rate ms whether or not earlier ones
// have answered, each on a free connection of a pool, and the latency of every one from the moment it
// was due. autocannon's `overallRate` is not that: each connection sends its share of a second back to
// back when the second starts, so a gateway is measured on bursts, not on the rate.
import { Pool } from 'undici';
import { percentile } from './stats';

export interface PacedFigures {
  p50: number;
  p99: number;
  errors: number;
}

export async function paced(
  url: string,
  options: { headers: Record<string, string>; body: string; rate: number; seconds: number },
): Promise<PacedFigures> {
  const target = new URL(url);
  const pool = new Pool(target.origin, { connections: 256, pipelining: 1 });
  const interval = 1000 / options.rate;
  const total = Math.round(options.rate * options.seconds);
  const latencies: number[] = [];
  let errors = 0;
  const one = async (due: number) => {
    // From when it was due, or from when it went out if that was a little earlier (the timer's grain).
    const from = Math.min(due, performance.now());
    try {
      const answer = await pool.request({
        path: target.pathname,
        method: 'POST',
        headers: options.headers,
        body: options.body,
      });
      await answer.body.text();
      if (answer.statusCode !== 200) errors++;
      else latencies.push(performance.now() - from);
    } catch {
      errors++;
    }
  };
  const running: Array<Promise<void>> = [];
  const start = performance.now();
  for (let i = 0; i < total; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    running.push(one(due));
  }
  await Promise.all(running);
  await pool.close();
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors };
}
