/**
 * Vite build of the React client (DESIGN §7): root `src/client`, output `dist/client` (served by the Fastify
 * server), dev server proxying /api to the running server. The designer is a lazily loaded chunk of its own;
 * its run-time editor assets (monaco, prettier, typings) are copied into dist/client/npm by the designer's
 * plugin (and served from node_modules by the dev server), so nothing comes from a CDN (DESIGN §7).
 */
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import path from 'node:path';
import { designerAssets } from './designer/vite-plugin.js';

export default defineConfig({
  root: path.resolve(import.meta.dirname, 'src/client'),
  base: '/',
  plugins: [react(), designerAssets()],
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist/client'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
  },
  server: {
    host: '127.0.0.1',
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
});
