/**
 * Designable's run-time editor assets from our own origin (DESIGN §7; designer/assets.ts says which URLs the
 * designer asks for). A Vite plugin:
 *
 * - `vite build`: copies the assets from node_modules into `<outDir>/npm/` (dist/client/npm), which the
 *   server serves as static files like the rest of the client;
 * - `vite` (dev server): serves `/npm/...` straight from node_modules.
 *
 * `copyDesignerAssets(outDir)` does the copy on its own (scripts/copy-designer-assets.ts, `npm run designer:assets`).
 * The packages are found with Node's resolver from the repository, so the copies are always of the versions
 * installed (monaco-editor and prettier come with @pind/designable-react-settings-form).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Plugin } from 'vite';

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(path.join(root, 'package.json'));

/** The directory of an installed package (found from the settings-form package first, then from the root). */
function packageDir(name: string): string {
  const from = [path.join(root, 'node_modules/@pind/designable-react-settings-form/package.json'), path.join(root, 'package.json')];
  for (const f of from) {
    try {
      return path.dirname(createRequire(f).resolve(`${name}/package.json`));
    } catch {
      /* try the next */
    }
  }
  return path.dirname(require.resolve(`${name}/package.json`));
}

export interface DesignerAsset {
  /** Path under /npm/. */
  url: string;
  /** File or directory on disk. */
  from: () => string;
}

export const DESIGNER_ASSETS: DesignerAsset[] = [
  { url: 'monaco-editor/min/vs', from: () => path.join(packageDir('monaco-editor'), 'min/vs') },
  { url: 'prettier@2.x/esm/standalone.mjs', from: () => path.join(packageDir('prettier'), 'esm/standalone.mjs') },
  { url: '@formily/core/dist/formily.core.all.d.ts', from: () => path.join(packageDir('@formily/core'), 'dist/formily.core.all.d.ts') },
];

/** Copies every asset into `<outDir>/npm/`; answers the number of files copied. */
export function copyDesignerAssets(outDir: string): number {
  let count = 0;
  for (const a of DESIGNER_ASSETS) {
    const src = a.from();
    const dest = path.join(outDir, 'npm', a.url);
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.cpSync(src, dest, { recursive: true, filter: (p) => !p.endsWith('.map') });
    count += fs.statSync(src).isDirectory() ? fs.readdirSync(src, { recursive: true }).length : 1;
  }
  return count;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.ttf': 'font/ttf',
  '.ts': 'text/plain',
  '.json': 'application/json',
};

/** The file on disk for a request path under /npm/, or null (outside the assets, or missing). */
export function resolveAssetPath(urlPath: string): string | null {
  const rel = decodeURIComponent(urlPath.split('?')[0]).replace(/^\/+/, '');
  for (const a of DESIGNER_ASSETS) {
    if (rel !== a.url && !rel.startsWith(`${a.url}/`)) continue;
    const base = a.from();
    const file = path.resolve(base, rel.slice(a.url.length).replace(/^\/+/, ''));
    if (file !== base && !file.startsWith(base + path.sep)) return null;
    return fs.existsSync(file) && fs.statSync(file).isFile() ? file : null;
  }
  return null;
}

export function designerAssets(): Plugin {
  let outDir = 'dist';
  return {
    name: 'kc-designer-assets',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    configureServer(server) {
      server.middlewares.use('/npm', (req, res, next) => {
        const file = resolveAssetPath(req.url ?? '');
        if (!file) return next();
        res.setHeader('Content-Type', TYPES[path.extname(file)] ?? 'application/octet-stream');
        fs.createReadStream(file).pipe(res);
      });
    },
    writeBundle() {
      const n = copyDesignerAssets(outDir);
      this.info?.(`designer assets: ${n} files copied to ${path.relative(root, path.join(outDir, 'npm'))}`);
    },
  };
}
