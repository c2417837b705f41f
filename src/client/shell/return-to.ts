/**
 * The page asked for before the login (issue 18 defect 8: a deep link opened while logged out used to be lost).
 *
 * The route guard remembers the path (with its query) when it sends a visitor without a session to /login; so
 * does an expired session (a 401). After the login — and after the role choice when there are several roles —
 * the shell goes there instead of the home page. The path lives in sessionStorage (this browser tab only) and
 * is used once. Only in-app paths are kept: an absolute URL or `//host` could send the user elsewhere.
 *
 * The path is kept with the account that was signed in last in this tab (none for a deep link opened before any
 * login): it is taken only by that account, or by anyone when nobody was signed in. Without this, an explicit
 * logout (the guard sees the session gone and remembers the page) sent the next person to sign in at this
 * browser to the previous user's page — an administration screen a new colleague has no menu for, i.e. a 404
 * instead of the home page and the first-login dialog (issue 9's journey).
 */
import { getSession, subscribe, type SessionState } from '../runtime/session.js';

const KEY = 'kc-return-to';
const NOT_WORTH: ReadonlySet<string> = new Set(['/', '/login', '/wel', '/wel/index', '/home', '/lock', '/404', '/403', '/500']);

/** `tenantId/account` of the session's user, if any. */
const who = (s: SessionState): string | null => (s.user ? `${s.user.tenantId}/${s.user.account}` : null);

// the account signed in last in this tab (kept when the session ends: the guard remembers after it ended)
let lastSignedIn = who(getSession());
subscribe(() => {
  const now = who(getSession());
  if (now) lastSignedIn = now;
});

/** Remembers `path` (pathname + search) unless it is the login, the home page or not an in-app path. */
export function rememberReturn(path: string): void {
  const pathname = path.split(/[?#]/)[0];
  if (!path.startsWith('/') || path.startsWith('//') || NOT_WORTH.has(pathname)) return;
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ path, by: lastSignedIn }));
  } catch {
    /* storage unavailable: the user lands on the home page */
  }
}

/**
 * The remembered path, forgotten as it is read, when the signed-in account may take it (the account that was
 * signed in when it was remembered, or anyone when nobody was); `fallback` otherwise.
 */
export function takeReturn(fallback: string): string {
  try {
    const raw = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    if (!raw) return fallback;
    const kept = JSON.parse(raw) as { path?: unknown; by?: unknown };
    const path = typeof kept.path === 'string' ? kept.path : '';
    if (kept.by && kept.by !== who(getSession())) return fallback;
    return path.startsWith('/') && !path.startsWith('//') ? path : fallback;
  } catch {
    return fallback;
  }
}
