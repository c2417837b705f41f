/**
 * Builds the server for `npm start` (issue 13's memory budget; DESIGN §10): bundles `src/server/main.ts` and
 * the modules it imports (src/server, src/shared) into one ES module, `dist/server/main.mjs`, which `npm start`
 * then runs with plain `node`. The packages under node_modules stay imports (`packages: 'external'`), loaded
 * by Node as before, so the lazy loaders of core/lazy-libs.ts still load exceljs & co. at their first use.
 *
 * Why: run through tsx, the server carried tsx's loader (its hooks run in a thread with its own V8 heap) and
 * the source of every module twice (TypeScript and its transpiled JavaScript): measured at rest after a
 * collection, 265 MB resident through tsx, 209 MB as this bundle (bench:excel's server, node 20).
 *
 * The build takes well under a second (esbuild, which tsx and vite depend on), so `npm start` rebuilds every
 * time rather than checking staleness. `npm run dev` keeps running the sources through `tsx watch`.
 *
 * Usage: `tsx scripts/build-server.ts` (exit code 1 and esbuild's messages when the build fails).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The bundle `npm start` runs. */
export const SERVER_BUNDLE = path.join(root, 'dist/server/main.mjs');

/** Bundles the server into SERVER_BUNDLE (with a linked source map); rejects with esbuild's errors. */
export async function buildServer(): Promise<void> {
  await build({
    entryPoints: [path.join(root, 'src/server/main.ts')],
    outfile: SERVER_BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildServer().catch(() => {
    // esbuild has printed its messages
    process.exit(1);
  });
}
