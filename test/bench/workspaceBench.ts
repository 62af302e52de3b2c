// Model ids in a file: the time to find them (and place them by line and column, as diagnostics need)
// in a 5,000-line file, against the catalogue and 10,000 more models; and, as the baseline measured
// in the same run, one bare pass of the same token pattern over the same text with no lookup.
import { performance } from 'node:perf_hooks';
import { hostedCatalogue } from '../unit/support/hostedCatalogue';
import { ModelIndex } from '../../src/workspace/modelIndex';
import { median } from './stats';
import { syntheticModels } from './synthetic';

/** A config-and-code file: mostly ordinary lines, a model id every 25 lines (some deprecated). */
function syntheticFile(lines: number): string {
  const ids = [
    'openai/gpt-4o-mini',
    'anthropic/claude-2.1',
    'gpt-4-turbo',
    'openai/gpt-9-mini',
    'claude-3-5-haiku-20241022',
  ];
  return Array.from({ length: lines }, (_, i) =>
    i % 25 === 0
      ? `    model: "${ids[(i / 25) % ids.length]}",  # step ${i}`
      : i % 3 === 0
        ? `  const total_${i} = items.reduce((sum, item) => sum + item.price * item.count, 0);`
        : `    return await fetchWithRetry(url_${i}, { timeout: 30_000, retries: 3 });`,
  ).join('\n');
}

export interface ScanFigures {
  lines: number;
  models: number;
  found: number;
  scanMs: number;
  baselineMs: number;
}

export function modelIdScan(lines = 5_000, runs = 9): ScanFigures {
  const models = [...hostedCatalogue('2026-01-01T00:00:00Z'), ...syntheticModels(10_000)];
  const index = new ModelIndex(models);
  const text = syntheticFile(lines);
  const token = /[A-Za-z0-9][A-Za-z0-9._:/-]*[A-Za-z0-9]/g;
  const time = (fn: () => unknown) => {
    const samples: number[] = [];
    for (let i = 0; i < runs + 2; i++) {
      const start = performance.now();
      fn();
      samples.push(performance.now() - start);
    }
    return median(samples.slice(2));
  };
  let found = 0;
  const scanMs = time(() => {
    // What a diagnostic needs: each id, and its line and column.
    const starts = [0];
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    const hits = index.scan(text).filter((f) => f.kind !== 'current');
    let line = 0;
    for (const hit of hits) {
      while (line + 1 < starts.length && starts[line + 1]! <= hit.start) line++;
      found += hit.start - starts[line]! >= 0 ? 1 : 0;
    }
  });
  const baselineMs = time(() => {
    let n = 0;
    token.lastIndex = 0;
    while (token.exec(text)) n++;
    return n;
  });
  return { lines, models: models.length, found: found / (runs + 2), scanMs, baselineMs };
}
