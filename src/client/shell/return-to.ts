/**
 * The page asked for before the login (issue 18 defect 8: a deep link opened while logged out used to be lost).
 *
 * The route guard remembers the path (with its query) when it sends a visitor without a session to /login; so
 * does an expired session (a 401). After the login — and after the role choice when there are several roles —
 * the shell goes there instead of the home page. The path lives in sessionStorage (this browser tab only) and
 * is used once. Only in-app paths are kept: an absolute URL or `//host` could send the user elsewhere.
 */
const KEY = 'kc-return-to';
const NOT_WORTH: ReadonlySet<string> = new Set(['/', '/login', '/wel', '/wel/index', '/home', '/lock', '/404', '/403', '/500']);

/** Remembers `path` (pathname + search) unless it is the login, the home page or not an in-app path. */
export function rememberReturn(path: string): void {
  const pathname = path.split(/[?#]/)[0];
  if (!path.startsWith('/') || path.startsWith('//') || NOT_WORTH.has(pathname)) return;
  try {
    sessionStorage.setItem(KEY, path);
  } catch {
    /* storage unavailable: the user lands on the home page */
  }
}

/** The remembered path, forgotten as it is read; `fallback` when there is none. */
export function takeReturn(fallback: string): string {
  try {
    const path = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    return path && path.startsWith('/') && !path.startsWith('//') ? path : fallback;
  } catch {
    return fallback;
  }
}
