/**
 * Storybook configuration (`npm run storybook`: `storybook dev -c storybook`; `npm run storybook:build`: a
 * static build into storybook-static/, which is gitignored). The config folder is storybook/ itself (not
 * storybook/.storybook) so that tsc and eslint check these files like the rest of the project.
 *
 * - Stories: storybook/**\/*.stories.tsx — the generated ones (storybook/generated/, one file per schema,
 *   written by storybook/generate.ts) and any written by hand.
 * - Framework @storybook/react-vite, with its own Vite configuration (storybook/vite.config.ts: React's
 *   plugin only; the app's vite.config.ts carries the app's root, proxy and designer assets). The preview
 *   bundle holds antd and Formily whole (~2.3 MB): the chunk-size warning limit is raised accordingly.
 * - Offline: no telemetry, no "what's new" fetch; react-docgen is off (the stories have no args, and it
 *   would parse every module for nothing). Nothing is fetched from the internet, by the build or by the
 *   stories (their API calls are answered by storybook/mock.ts).
 */
import { fileURLToPath } from 'node:url';
import type { StorybookConfig } from '@storybook/react-vite';

const config: StorybookConfig = {
  framework: {
    name: '@storybook/react-vite',
    options: { builder: { viteConfigPath: fileURLToPath(new URL('./vite.config.ts', import.meta.url)) } },
  },
  stories: ['./**/*.stories.tsx'],
  addons: [],
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  typescript: { reactDocgen: false },
  viteFinal: (config) => ({ ...config, build: { ...config.build, chunkSizeWarningLimit: 4000 } }),
};

export default config;
