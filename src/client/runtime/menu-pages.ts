/// <reference types="vite/client" />
/**
 * Page schemas that serve a menu path (DESIGN §4; spec 000 §2.4: the menu says what a path is). A page schema
 * of `schemas/_pages/` with a `path` (e.g. schemas/_pages/portalaccess.json, `/portal/access`: the portal's
 * access statistics, issue 14) is the screen of the menu item at that path when the item names no resource —
 * so a new dashboard-like screen is a JSON file and a menu row, no code. Pages without `path` (the home
 * dashboard, the personal info page) are placed by the shell itself.
 *
 * The files are read at build time (Vite's eager glob); `pageForPath(path)` answers the page or undefined.
 */
import type { PageSchema } from './SchemaPage.js';

/** A page schema that names the menu path it serves. */
export type MenuPageSchema = PageSchema & { path?: string };

const files = import.meta.glob<MenuPageSchema>('../../../schemas/_pages/*.json', { eager: true, import: 'default' });

const byPath = new Map<string, MenuPageSchema>();
for (const page of Object.values(files)) if (typeof page.path === 'string' && page.path.startsWith('/')) byPath.set(page.path, page);

/** The page schema serving menu path `path`, or undefined. */
export function pageForPath(path: string | null | undefined): MenuPageSchema | undefined {
  return path ? byPath.get(path) : undefined;
}
