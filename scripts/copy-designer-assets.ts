/**
 * Copies Designable's run-time editor assets into the built client (`dist/client/npm`, or the directory given
 * as the first argument). `vite build` does it already through designer/vite-plugin.ts; this is the same copy
 * for a build made otherwise. Run: `npm run designer:assets`.
 */
import path from 'node:path';
import { copyDesignerAssets } from '../designer/vite-plugin.js';

const outDir = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '../dist/client'));
const n = copyDesignerAssets(outDir);
console.log(`designer assets: ${n} files copied to ${path.join(outDir, 'npm')}`);
