/**
 * Developer-tool blocking (spec 000 §9 'Developer-tool blocking is on when parameter disable_devtool equals 1';
 * §3.4 the parameter; issue 18). The parameter comes from the public `GET /api/blade-system/param/client-params`
 * (server: modules/system/client-params.ts), read once at start, before and after login alike.
 *
 * When on (`installDevtoolGuard`):
 * - the keys that open the tools or the page source are swallowed: F12, Ctrl/⌘+Shift+I, J, C, ⌘+⌥+I, J, C, and
 *   Ctrl/⌘+U (`blockedKey`);
 * - the context menu (Inspect) is not offered;
 * - once a second the window is checked for docked tools (`devtoolsOpen`: the outer window larger than the page
 *   by more than `DEVTOOL_GAP` px, across or down); while they are open the page is covered with
 *   请关闭浏览器开发者工具后继续使用 and cannot be used.
 * This keeps a casual user out, as the original's disable-devtool did; it is no security boundary — the
 * server enforces every rule itself (DESIGN §1.3). A failed read leaves the tools alone (spec 000 §8: failed
 * status calls are silently ignored).
 */
import i18n from 'i18next';
import { get } from '../runtime/api.js';

export const CLIENT_PARAMS_URL = '/api/blade-system/param/client-params';
/** The gap (px) between the outer window and the page beyond which docked developer tools are assumed. */
export const DEVTOOL_GAP = 200;
export const GUARD_ID = 'kc-devtool-guard';

type Key = Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>;

/** True for a key press that opens the developer tools or the page source. */
export function blockedKey(e: Key): boolean {
  const k = e.key.length === 1 ? e.key.toUpperCase() : e.key;
  if (k === 'F12') return true;
  const mod = e.ctrlKey || e.metaKey;
  if (mod && (e.shiftKey || (e.metaKey && e.altKey)) && ['I', 'J', 'C'].includes(k)) return true;
  return mod && !e.shiftKey && k === 'U';
}

/** True when the window looks like it has docked developer tools. */
export function devtoolsOpen(win: Pick<Window, 'outerWidth' | 'innerWidth' | 'outerHeight' | 'innerHeight'>): boolean {
  return win.outerWidth - win.innerWidth > DEVTOOL_GAP || win.outerHeight - win.innerHeight > DEVTOOL_GAP;
}

/** Blocks the developer tools in `win` (see the module comment); answers the function that lifts the block. */
export function installDevtoolGuard(win: Window, checkMs = 1000): () => void {
  const doc = win.document;
  const onKey = (e: KeyboardEvent) => {
    if (!blockedKey(e)) return;
    e.preventDefault();
    e.stopPropagation();
  };
  const onMenu = (e: Event) => e.preventDefault();
  const check = () => {
    const shown = doc.getElementById(GUARD_ID);
    if (!devtoolsOpen(win)) {
      shown?.remove();
      return;
    }
    if (shown) return;
    const cover = doc.createElement('div');
    cover.id = GUARD_ID;
    cover.setAttribute('role', 'alert');
    cover.textContent = i18n.t('devtool.blocked');
    Object.assign(cover.style, { position: 'fixed', inset: '0', zIndex: '100000', display: 'flex', alignItems: 'center', justifyContent: 'center', background: '#fff', color: '#333', fontSize: '18px' });
    doc.body.appendChild(cover);
  };
  win.addEventListener('keydown', onKey, true);
  win.addEventListener('contextmenu', onMenu, true);
  const timer = win.setInterval(check, checkMs);
  check();
  return () => {
    win.removeEventListener('keydown', onKey, true);
    win.removeEventListener('contextmenu', onMenu, true);
    win.clearInterval(timer);
    doc.getElementById(GUARD_ID)?.remove();
  };
}

/** Reads disable_devtool and, when it is '1', blocks the developer tools; answers whether the block is on. */
export async function guardDevtools(win: Window): Promise<boolean> {
  const params = await get<Record<string, string>>(CLIENT_PARAMS_URL, undefined, { silent: true }).catch(() => null);
  if (params?.disable_devtool !== '1') return false;
  installDevtoolGuard(win);
  return true;
}
