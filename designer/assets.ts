/**
 * Where Designable's run-time editor assets come from (DESIGN §7: nothing from the internet). Designable's
 * MonacoInput loads monaco-editor with an AMD loader, formats with prettier's standalone build and (in the
 * reactions setter) fetches typings — by default from a public CDN. Here they come from our own origin, under
 * `/npm/`, where designer/vite-plugin.ts puts copies taken from node_modules (the build writes them to
 * dist/client/npm; the dev server serves them from node_modules):
 *
 *   /npm/monaco-editor/min/vs/…                     monaco-editor's AMD build (the version installed)
 *   /npm/prettier@2.x/esm/standalone.mjs           prettier 2's standalone module (the path Designable asks for)
 *   /npm/@formily/core/dist/formily.core.all.d.ts  typings for the reactions editor
 *
 * `useLocalEditorAssets()` is called once when the designer module loads.
 */
import { MonacoInput, setNpmCDNRegistry } from '@pind/designable-react-settings-form';

export const NPM_BASE = '/npm';
export const MONACO_VS = `${NPM_BASE}/monaco-editor/min/vs`;

let done = false;
export function useLocalEditorAssets(): void {
  if (done) return;
  done = true;
  setNpmCDNRegistry(NPM_BASE);
  // setNpmCDNRegistry names monaco-editor@0.30.1; we serve the installed version under a version-free path
  MonacoInput.loader.config({ paths: { vs: MONACO_VS } });
}
