/**
 * Vite configuration of Storybook (named in main.ts), instead of the app's vite.config.ts, which Storybook
 * would otherwise load: the app's is for the app (root src/client, the /api proxy, the designer's plugin
 * that copies monaco and prettier into the output), none of which the stories use. The stories need only
 * React's plugin.
 */
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
});
