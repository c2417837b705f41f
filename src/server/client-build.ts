/**
 * Keeps the web client's build current for `npm start` (DESIGN §7: the server serves `dist/client`).
 *
 * `ensureClientBuild()` runs before the server listens: when `dist/client/index.html` is missing or older
 * than any file of the client's inputs (`src/client` with its index.html, `src/shared`, `schemas`, `designer`,
 * `vite.config.ts`), it runs the Vite build programmatically with the repository's `vite.config.ts`, printing
 * one line. Without a `vite.config.ts` (the client not written yet) it says so and skips. A failed build is
 * reported and the server starts anyway, serving the API (and the previous build, if any).
 */
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './core/config.js';

/** The newest modification time (ms) among `p` and, for a folder, every file below it; 0 when `p` is missing. */
function newestMtime(p: string): number {
  let st: fs.Stats;
  try {
    st = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const e of fs.readdirSync(p, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(path.join(p, e.name)));
  }
  return newest;
}

/**
 * True when `outFile` is missing or older than any of `inputs` (files or folders, searched recursively;
 * missing inputs are ignored).
 */
export function isStale(outFile: string, inputs: string[]): boolean {
  let built: number;
  try {
    built = fs.statSync(outFile).mtimeMs;
  } catch {
    return true;
  }
  return inputs.some((p) => newestMtime(p) > built);
}

/** Builds the client when its build is missing or stale; `say` prints one line. */
export async function ensureClientBuild(say: (line: string) => void = (l) => console.log(l), root = repoRoot): Promise<void> {
  const configFile = path.join(root, 'vite.config.ts');
  if (!fs.existsSync(configFile)) {
    say('web client: no vite.config.ts yet, skipping the client build');
    return;
  }
  const outFile = path.join(root, 'dist/client/index.html');
  const inputs = ['src/client', 'src/shared', 'schemas', 'designer', 'vite.config.ts'].map((p) => path.join(root, p));
  if (!isStale(outFile, inputs)) return;
  say('web client: building with Vite (dist/client is missing or older than its sources) ...');
  try {
    const { build } = await import('vite');
    // always a production build, whatever NODE_ENV the server runs with (a test server would otherwise get
    // React's development runtime: twice the size, and StrictMode's double effects fetch two captchas)
    const before = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({ configFile, logLevel: 'warn', mode: 'production' });
    } finally {
      if (before === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = before;
    }
  } catch (e) {
    say(`web client: the build failed, serving the API only: ${(e as Error).message}`);
  }
}
