/**
 * The API scope check of the request pipeline (DESIGN §5: token → tenant and user context → **API scope
 * check** → route; §11 'data scope and API scope on the server'; spec 002 §1 接口权限 'API scopes granted to
 * roles'; BladeX `blade_scope_api`).
 *
 * Rule:
 * - An API scope is a row of `blade_scope_api`: `scope_path`, an Ant-style pattern over the request path
 *   (`/api/basic/patent/**`), and `scope_method` (migration 0006): `*` (any method, the default) or a comma
 *   list of HTTP methods (`GET`, `GET,POST`). It is granted to a role through `blade_role_scope` with
 *   `scope_category = 2`; `GrantCache` reads and caches the grants (invalidated by `NOTIFY kc_cache 'grants'`).
 * - A role that holds at least one API scope is limited to them. A request under `/api/` whose active roles
 *   ALL hold API scopes is allowed only when one of those scopes matches its method and path; one active role
 *   without API scopes lifts the limit (roles combine by union, like data scopes). Administrators are never
 *   limited; a request without a user is the pipeline's business (401 or public).
 * - Exempt, whatever the scopes: public routes (`config: { public: true }`: login / token refresh, captcha,
 *   the API description) and what a signed-in user needs to start the shell and render a screen it was
 *   granted — see `API_SCOPE_EXEMPT`.
 * - Refusal: 403 `apiScopeDenied` (zh 当前角色无权访问接口 {method} {path}, en text beside it), before the
 *   route runs, so nothing is read or written.
 *
 * The check only narrows: tenant isolation, menu/button grants and data scopes still apply to an allowed
 * request. A limited role calling a path under `/api/` that no route serves gets the same 403 as for any
 * other path its scopes do not cover.
 *
 * Ant patterns (as Spring's AntPathMatcher, which BladeX uses): `?` one character of a segment, `*` any
 * characters of one segment (none included), `**` any number of whole segments (none included, so
 * `/api/basic/patent/**` matches `/api/basic/patent` too), `{name}` one non-empty segment part. Matching is
 * case-sensitive, like the router; a trailing slash is ignored on both sides (the router ignores it too).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GrantCache } from './context.js';
import { ApiError } from './envelope.js';

/** One API scope, compiled for matching. */
export interface ApiScope {
  /** `blade_scope_api.id` (decimal string). */
  id: string;
  /** The pattern as stored (`scope_path`). */
  path: string;
  /** The methods it admits (upper case), or '*' for any. */
  methods: '*' | string[];
  /** `path` as an anchored regular expression over a request path without its query string. */
  regex: RegExp;
}

/**
 * Routes no API scope can take away: `method` and the route's URL as registered (the pattern, not the
 * request path), matched exactly. HEAD counts as GET.
 * - who am I, and logging out: `/api/blade-auth/oauth/user-info`, `/api/blade-user/info`,
 *   `/api/blade-auth/oauth/logout` (spec 000 §2.6, §7);
 * - the shell's menus and permission map for the current role: `/api/blade-system/menu/routes`,
 *   `/menu/buttons`, `/menu/top-menu` (spec 000 §2.4, §6; src/client/shell/menu.ts);
 * - what a granted screen needs to render: its schema (`/api/system/schema/detail`, DESIGN §7 'every routed
 *   screen is a schema') and the labels of coded values (`/api/blade-system/dict/dictionary`,
 *   `/api/blade-system/dict-biz/dictionary`) — definitions and reference values, no business records;
 * - the account's own onboarding and password change (checkInit, showInitPassWord, checkPasswordTime,
 *   update-password, update-password-by-smscode, the SMS code calls; spec 000 §2.9–§2.10);
 * - the shell's report of its own client errors (`POST /api/blade-log/error/submit`, spec 000 §8: the page's
 *   faults reach the error log whatever the role may call; the entries are the caller's own).
 * Public routes (login and token refresh `/api/blade-auth/oauth/token`, `/api/blade-auth/oauth/captcha`,
 * `/api/docs`) are exempt through their `config.public` flag, not through this list.
 */
export const API_SCOPE_EXEMPT: ReadonlyArray<{ method: 'GET' | 'POST'; url: string }> = [
  { method: 'GET', url: '/api/blade-auth/oauth/user-info' },
  { method: 'GET', url: '/api/blade-user/info' },
  { method: 'GET', url: '/api/blade-auth/oauth/logout' },
  { method: 'GET', url: '/api/blade-system/menu/routes' },
  { method: 'GET', url: '/api/blade-system/menu/buttons' },
  { method: 'GET', url: '/api/blade-system/menu/top-menu' },
  { method: 'GET', url: '/api/system/schema/detail' },
  { method: 'GET', url: '/api/blade-system/dict/dictionary' },
  { method: 'GET', url: '/api/blade-system/dict-biz/dictionary' },
  // the account's own onboarding and password (spec 000 §2.9, §2.10): a role limited by API scopes must still
  // be able to change a generated password, or it could never use the platform
  { method: 'GET', url: '/api/blade-user/checkInit' },
  { method: 'GET', url: '/api/blade-user/showInitPassWord' },
  { method: 'GET', url: '/api/blade-user/checkPasswordTime' },
  { method: 'POST', url: '/api/blade-user/update-password' },
  { method: 'POST', url: '/api/blade-user/update-password-by-smscode' },
  { method: 'POST', url: '/api/blade-resource/sms/endpoint/send-validate' },
  { method: 'POST', url: '/api/blade-resource/sms/endpoint/validate-message' },
  // the shell's client error log (spec 000 §8; modules/system/logs.ts)
  { method: 'POST', url: '/api/blade-log/error/submit' },
];

const exempt = new Set(API_SCOPE_EXEMPT.map((e) => `${e.method} ${e.url}`));

const escapeRe = (text: string) => text.replace(/[.+^$|()[\]\\{}*?]/g, '\\$&');

/** `path` without its query string and trailing slash (`/` stays `/`). */
function withoutTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.replace(/\/+$/, '') || '/' : path;
}

/**
 * Compiles an Ant-style path pattern (see the module comment) to an anchored RegExp over request paths
 * (`/api/...`, no query string, no trailing slash). A pattern without a leading `/` gets one. Consecutive `*`
 * in a segment and consecutive `**` segments are collapsed, so matching stays linear in the path.
 */
export function antPatternToRegExp(pattern: string): RegExp {
  let p = pattern.trim();
  if (!p.startsWith('/')) p = '/' + p;
  p = withoutTrailingSlash(p);
  const segs = p.split('/').slice(1);
  let re = '';
  let prevDouble = false;
  for (const seg of segs) {
    if (seg === '**') {
      if (!prevDouble) re += '(?:/[^/]*)*';
      prevDouble = true;
      continue;
    }
    prevDouble = false;
    let part = '';
    for (let i = 0; i < seg.length; i++) {
      const ch = seg[i];
      if (ch === '*') {
        if (!part.endsWith('[^/]*')) part += '[^/]*';
      } else if (ch === '?') part += '[^/]';
      else if (ch === '{' && seg.indexOf('}', i) > i) {
        part += '[^/]+';
        i = seg.indexOf('}', i);
      } else part += escapeRe(ch);
    }
    re += '/' + part;
  }
  return new RegExp(`^${re || '/'}$`);
}

/**
 * Compiles a `blade_scope_api` row: `path` is `scope_path`, `method` is `scope_method` ('*' or a comma list
 * of methods, any case; blank means '*', the column's default).
 */
export function compileApiScope(id: string, path: string, method: string): ApiScope {
  const list = method.split(',').map((m) => m.trim().toUpperCase()).filter(Boolean);
  return { id, path, methods: list.length === 0 || list.includes('*') ? '*' : list, regex: antPatternToRegExp(path) };
}

/**
 * True when `scope` admits `method` (upper case; HEAD is admitted by a GET scope) on `path` (the request
 * path, no query string).
 */
export function apiScopeMatches(scope: ApiScope, method: string, path: string): boolean {
  const m = method.toUpperCase();
  if (scope.methods !== '*' && !scope.methods.includes(m) && !(m === 'HEAD' && scope.methods.includes('GET'))) return false;
  return scope.regex.test(withoutTrailingSlash(path));
}

/** The request path as the router saw it: query string cut, percent-escapes of non-reserved characters decoded. */
export function requestPath(url: string): string {
  const raw = url.split('?')[0];
  try {
    return decodeURI(raw);
  } catch {
    return raw;
  }
}

/**
 * Installs the API scope check as a `preHandler` hook on `app`. Register it after `installPipeline` (its
 * `preHandler` answers 401 first) and before the routes. Throws (→ envelope) `ApiError(403, 'apiScopeDenied')`
 * when the active roles are all limited and no scope of theirs matches the request.
 */
export function installApiScopeCheck(app: FastifyInstance, grants: GrantCache): void {
  app.addHook('preHandler', async (req: FastifyRequest) => {
    const user = req.user;
    if (!user || user.isAdmin) return;
    const path = requestPath(req.url);
    const route = req.routeOptions.url ?? '';
    if (!path.startsWith('/api/') && !route.startsWith('/api/')) return;
    if (req.routeOptions.config?.public) return;
    const method = req.method.toUpperCase();
    if (exempt.has(`${method === 'HEAD' ? 'GET' : method} ${route}`)) return;
    const scopes = await grants.apiScopes(user.activeRoleIds);
    if (scopes === null || scopes.some((s) => apiScopeMatches(s, method, path))) return;
    throw new ApiError(403, 'apiScopeDenied', { method, path });
  });
}
