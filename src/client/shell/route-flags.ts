/**
 * Route meta flags (spec 000 §2.1): 'Any route opens a tab unless its meta disables tabs; a query flag opens it
 * in a new window', 'Scroll position is restored for cached pages'; issue 18.
 *
 * - `routeMeta(menus, path)`: the flags of the page at `path` — a menu's `meta.isTab` (false: no tab in the tag
 *   bar, TagBar.tsx) and `meta.keepAlive` (a cached page: its scroll position is kept), from the menu screen's
 *   显示标签 / 缓存页面 (server: modules/system/routes.ts); the fixed routes (personal info, console, page
 *   schemas) open a tab and are not cached.
 * - `useRouteFlags(menus)` (the main layout): a route opened with the query flag `target` (e.g.
 *   `/basic/patent?target=_blank`) opens, without the flag, in a new window, and this window goes back to where it
 *   was (the home page when there was nothing before); leaving a cached page keeps its scroll position and
 *   coming back restores it (retried while the page is still growing, up to `RESTORE_MS`); any other page
 *   starts at the top.
 */
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { findByPath, type MenuItem } from './menu.js';

/** The query flag that opens a route in a new window. */
export const NEW_WINDOW_FLAG = 'target';
/** How long a restore keeps trying while the page renders its data (ms). */
export const RESTORE_MS = 2000;
const HOME = '/wel/index';

export interface RouteMeta {
  isTab: boolean;
  keepAlive: boolean;
}

/** The flags of the page at `path` (see the module comment). */
export function routeMeta(menus: MenuItem[], path: string): RouteMeta {
  const chain = findByPath(menus, path);
  const meta = chain?.[chain.length - 1]?.meta;
  return { isTab: meta?.isTab !== false, keepAlive: meta?.keepAlive === true };
}

/** `search` without the new-window flag ('' or '?…'). */
export function withoutFlag(search: string): string {
  const q = new URLSearchParams(search);
  q.delete(NEW_WINDOW_FLAG);
  const rest = q.toString();
  return rest ? `?${rest}` : '';
}

/** Scroll positions of cached pages left in this window, by path. */
const kept = new Map<string, number>();

/** Scrolls the window to `y` once the page is tall enough, trying for up to RESTORE_MS. */
function restore(y: number): () => void {
  const started = Date.now();
  let timer = 0;
  const attempt = () => {
    const room = document.documentElement.scrollHeight - window.innerHeight;
    window.scrollTo(0, Math.min(y, Math.max(room, 0)));
    if (room < y && Date.now() - started < RESTORE_MS) timer = window.setTimeout(attempt, 50);
  };
  attempt();
  return () => window.clearTimeout(timer);
}

/** Applies the flags on every navigation inside the main layout (see the module comment). */
export function useRouteFlags(menus: MenuItem[]): void {
  const location = useLocation();
  const navigate = useNavigate();
  const previous = useRef<string | null>(null);
  const menusRef = useRef(menus);
  menusRef.current = menus;
  useEffect(() => {
    const path = location.pathname;
    if (new URLSearchParams(location.search).has(NEW_WINDOW_FLAG)) {
      window.open(`${path}${withoutFlag(location.search)}${location.hash}`, '_blank', 'noopener');
      if (location.key === 'default') navigate(HOME, { replace: true });
      else navigate(-1);
      return;
    }
    const before = previous.current;
    if (before !== null && before !== path && routeMeta(menusRef.current, before).keepAlive) kept.set(before, window.scrollY);
    previous.current = path;
    if (before === path) return;
    const y = routeMeta(menusRef.current, path).keepAlive ? kept.get(path) : undefined;
    if (y !== undefined) return restore(y);
    window.scrollTo(0, 0);
  }, [location.pathname, location.search, location.key, location.hash, navigate]);
}
