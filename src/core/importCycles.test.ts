// core/ reads top-down (ARCHITECTURE.md, "Layers"): no module under it imports, directly or round
// about, a module that imports it. Type-only imports count: a circle of types is a circle to read.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = dirname(fileURLToPath(import.meta.url));

/** Every .ts file under a folder, as an absolute path. */
function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Each file's imports (and re-exports) of other files under core/, read by TypeScript's own pre-processor. */
function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map(({ fileName }) => fileName)
      .filter((name) => name.startsWith('.'))
      .flatMap((name) => [`${resolve(dirname(file), name)}.ts`, join(resolve(dirname(file), name), 'index.ts')])
      .filter((target) => known.has(target));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Each group of files that import one another round about (Tarjan): its files, and one way round it. */
function importCycles(graph: Map<string, string[]>): { files: string[]; round: string[] }[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: { files: string[]; round: string[] }[] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || graph.get(file)?.includes(file)) cycles.push({ files: group.sort(), round: pathRound(graph, new Set(group), file) });
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

/** A shortest way from a file of the group back to itself, inside the group (breadth first). */
function pathRound(graph: Map<string, string[]>, group: Set<string>, start: string): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const file = queue.shift()!;
    for (const next of graph.get(file) ?? []) {
      if (!group.has(next) || cameFrom.has(next)) continue;
      cameFrom.set(next, file);
      if (next === start) queue.length = 0;
      else queue.push(next);
    }
  }
  const between: string[] = [];
  for (let file = cameFrom.get(start)!; file !== start; file = cameFrom.get(file)!) between.unshift(file);
  return [start, ...between, start];
}

describe('core/ imports', () => {
  it('form no circle: every module under src/core/ can be read before the ones that import it', () => {
    const name = (file: string) => relative(root, file);
    const cycles = importCycles(importGraph(sources(root))).map(({ files, round }) => `${round.map(name).join(' -> ')} (a circle of ${files.length} files: ${files.map(name).join(', ')})`);
    expect(cycles).toEqual([]);
  });

  it('are read by the check: a circle of two files and one of three are found, a chain is not', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['a', 'c']],
      ['c', ['d']],
      ['d', ['e']],
      ['e', ['c']],
      ['f', ['a']],
    ]);
    expect(importCycles(graph).map(({ files, round }) => [files.join(), round.join(' -> ')]).sort()).toEqual([['a,b', 'a -> b -> a'], ['c,d,e', 'c -> d -> e -> c']]);
    expect(importCycles(new Map([['a', ['b']], ['b', ['c']], ['c', []]]))).toEqual([]);
    // and the graph of this very folder knows its imports (so an empty answer is not one from reading nothing)
    expect(importGraph(sources(root)).get(join(root, 'app.ts'))).toContain(join(root, 'process', 'flow.ts'));
  });
});
