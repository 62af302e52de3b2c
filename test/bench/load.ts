// One autocannon run against a URL, reduced to the figures the table prints.
import autocannon from 'autocannon';

export interface LoadFigures {
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
}

export async function load(
  url: string,
  options: {
    method?: 'GET' | 'POST';
    headers: Record<string, string>;
    body?: string;
    connections: number;
    seconds?: number;
    amount?: number;
  },
): Promise<LoadFigures> {
  // autocannon takes a duration or an amount of requests, never both (nor an undefined one).
  const bound = options.amount ? { amount: options.amount } : { duration: options.seconds ?? 10 };
  const result = await autocannon({
    url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    connections: options.connections,
    ...bound,
  });
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}
