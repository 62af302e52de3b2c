// No import circle in src/, by value or by type: a module graph with a circle has no order to read it
// in, and a type-level circle is where a value-level one grows. Every static `import`/`export … from`
// (type-only ones included), `import()` and `require()` of a relative path counts.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const SRC = path.resolve(__dirname, '../../../../src');
const SPECIFIER =
  /(?:^|[\s;])(?:import|export)\s(?:[^'";]*?\sfrom\s)?['"](\.{1,2}\/[^'"]+)['"]|(?:import|require)\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : /\.ts$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The file a relative specifier names (`./x`, `./x.js` for `./x.ts`, `./dir` for its index.ts). */
function resolve(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier.replace(/\.js$/, ''));
  return [`${base}.ts`, path.join(base, 'index.ts')].find((f) => existsSync(f));
}

export function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources(root)) {
    const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '');
    const targets = new Set<string>();
    for (const match of text.matchAll(SPECIFIER)) {
      const target = resolve(file, (match[1] ?? match[2])!);
      if (target) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** The strongly connected components with more than one module, or one that imports itself (Tarjan). */
export function circles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    // Iterative depth-first walk: a frame is a node and the position in its list of targets.
    const frames: Array<{ node: string; next: number }> = [];
    const enter = (node: string) => {
      index.set(node, counter);
      low.set(node, counter++);
      stack.push(node);
      onStack.add(node);
      frames.push({ node, next: 0 });
    };
    enter(start);
    while (frames.length > 0) {
      const frame = frames.at(-1)!;
      const targets = graph.get(frame.node) ?? [];
      if (frame.next < targets.length) {
        const target = targets[frame.next++]!;
        if (!index.has(target)) enter(target);
        else if (onStack.has(target)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        continue;
      }
      frames.pop();
      const parent = frames.at(-1);
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1 || targets.includes(frame.node)) found.push(component);
      }
    }
  }
  return found;
}

describe('the import graph of src/', () => {
  it('finds a circle when there is one (the check itself)', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    assert.deepEqual(
      circles(graph).map((c) => c.sort()),
      [['a', 'b', 'c']],
    );
  });

  it('has no import circle, by value or by type', () => {
    const graph = importGraph(SRC);
    assert.ok(graph.size > 100, `read ${graph.size} modules`);
    const found = circles(graph).map((c) =>
      c
        .map((f) => path.relative(SRC, f))
        .sort()
        .join(' → '),
    );
    assert.deepEqual(found, []);
  });
});
