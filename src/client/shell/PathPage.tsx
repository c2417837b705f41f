/**
 * PathPage: a fixed route of the shell served by the page schema naming its path (runtime/menu-pages.ts
 * `pageForPath`) — the two dictionary layouts of spec 000 §2.3 (`/dict-horizontal/index`,
 * `/dict-vertical/index`: schemas/_pages/dict-horizontal.json, dict-vertical.json), which the spec lists as
 * logged-in routes outside the menu. A path without a page schema goes to /404.
 */
import { Navigate } from 'react-router-dom';
import { SchemaPage } from '../runtime/SchemaPage.js';
import { pageForPath } from '../runtime/menu-pages.js';

export function PathPage({ path }: { path: string }) {
  const page = pageForPath(path);
  if (!page) return <Navigate to="/404" replace />;
  return <SchemaPage key={page.name} page={page} />;
}
