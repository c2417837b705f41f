/**
 * Vite build of the React client (DESIGN §7): root `src/client`, output `dist/client` (served by the Fastify
 * server), dev server proxying /api to the running server. The designer (a later issue) is a lazily loaded
 * chunk of its own.
 */
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import path from 'node:path';

export default defineConfig({
  root: path.resolve(import.meta.dirname, 'src/client'),
  base: '/',
  plugins: [react()],
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
