/**
 * No import cycles in the client (DESIGN §3): the shell imports the runtime, the runtime imports the
 * components, the designer (a lazily loaded route of the shell) imports the runtime and the components — and
 * nothing imports back up. Components reach the API client and the session through React context
 * (components/env.tsx, amis's RendererEnv), the runtime reads i18next's instance without importing the
 * shell's set-up, and the `Texts` type lives in the bottom layer.
 *
 * The import graph is read with TypeScript's own scanner (`ts.preProcessFile`: static imports, `import type`,
 * re-exports and dynamic `import()`) over every source file of src/client and designer/ (tests excluded:
 * they may import across layers). Two checks:
 *
 * - no cycle between the folders src/client/shell, src/client/runtime, src/client/components and designer/
 *   (a folder imports another when one of its files imports one of the other's);
 * - no cycle between files at all (a file cycle inside one folder is a knot too: Layout ↔ MenuSearch was one).
 *
 * A failure names the cycle and, for folders, the file imports that make it.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../../..');
const FOLDERS = ['src/client/shell', 'src/client/runtime', 'src/client/components', 'designer'];

/** The source files under `dir` (recursively), tests and generated code left out. */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return d.name === 'node_modules' || d.name === 'generated' ? [] : sources(p);
    return /\.tsx?$/.test(d.name) && !/\.test\.tsx?$/.test(d.name) && !d.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** The file a relative import specifier of `from` denotes (`./x.js` → x.ts or x.tsx), or undefined. */
function resolveImport(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), spec).replace(/\.(js|jsx|ts|tsx)$/, '');
  return [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')].find((f) => fs.existsSync(f));
}

/** file → the files it imports (relative imports of TypeScript files only). */
function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const info = ts.preProcessFile(fs.readFileSync(f, 'utf8'), true, true);
    graph.set(f, [...new Set(info.importedFiles.map((i) => resolveImport(f, i.fileName)).filter((x): x is string => !!x))]);
  }
  return graph;
}

/** The cycles of a directed graph: its strongly connected components of more than one node, or with a self-loop (Tarjan). */
function cyclesOf(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

const rel = (f: string) => path.relative(ROOT, f);
const folderOf = (f: string) => FOLDERS.find((d) => rel(f).startsWith(d + '/'));

describe('import layering', () => {
  const files = FOLDERS.flatMap((d) => sources(path.join(ROOT, d)));
  const graph = importGraph(files);

  it('reads the imports of every client and designer file', () => {
    expect(files.length).toBeGreaterThan(50);
    // a known edge in each direction the layering allows
    const imports = (a: string, b: string) => (graph.get(path.join(ROOT, a)) ?? []).includes(path.join(ROOT, b));
    expect(imports('src/client/shell/App.tsx', 'src/client/runtime/api.ts')).toBe(true);
    expect(imports('src/client/runtime/FormBody.tsx', 'src/client/components/registry.ts')).toBe(true);
    expect(imports('src/client/shell/App.tsx', 'designer/DesignerPage.tsx')).toBe(true);
  });

  it('finds cycles when there are some (the checker itself)', () => {
    const g = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
    ]);
    expect(cyclesOf(g)).toEqual([['a', 'b', 'c'], ['e']]);
    expect(cyclesOf(new Map([['a', ['b']], ['b', []]]))).toEqual([]);
  });

  it('has no cycle between shell, runtime, components and designer', () => {
    const folders = new Map<string, string[]>(FOLDERS.map((d) => [d, []]));
    const why = new Map<string, string>();
    for (const [file, deps] of graph) {
      const a = folderOf(file);
      for (const dep of deps) {
        const b = folderOf(dep);
        if (!a || !b || a === b) continue;
        if (!folders.get(a)!.includes(b)) folders.get(a)!.push(b);
        if (!why.has(`${a} → ${b}`)) why.set(`${a} → ${b}`, `${rel(file)} imports ${rel(dep)}`);
      }
    }
    const cycles = cyclesOf(folders).map((c) => ({
      folders: c,
      imports: [...why].filter(([edge]) => c.some((x) => edge.startsWith(x + ' →')) && c.some((y) => edge.endsWith('→ ' + y))).map(([edge, example]) => `${edge}: ${example}`),
    }));
    expect(cycles).toEqual([]);
  });

  it('has no cycle between files', () => {
    expect(cyclesOf(graph).map((c) => c.map(rel))).toEqual([]);
  });
});
