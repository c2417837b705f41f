/**
 * The API client (DESIGN §6, §7; spec 000 §4, §8): every request carries the web client's Basic header, the
 * `Blade-Auth: bearer` token, the tenant, the current role (`Role-Id`) and the language; answers are the
 * envelope `{code, success, data, msg}`.
 *
 * - `code` 200 resolves with `data`.
 * - 401 logs out and goes to /login.
 * - 499 rejects silently (no toast).
 * - Any other failure shows one error toast at a time, 300 ms after the failure, with `msg` (or
 *   `error_description`, default 'unknown error'), and rejects with `ApiError` (carrying the field errors of a
 *   400, so forms can show them on their fields). Pass `silent: true` to handle the error yourself.
 * - A request still unanswered after REQUEST_TIMEOUT_MS (300,000 ms, spec 000 §9) is aborted: ApiError code 0
 *   with 'request timed out' (toasted unless silent).
 * - Token refresh: `startTokenRefresh()` checks every 10 s and refreshes when the token is `expires_in - 10`
 *   seconds old; a failed refresh logs out.
 *
 * The session it reads and writes is runtime/session.ts; its messages come from i18next's instance (set up by
 * the shell's shell/i18n.ts before anything renders) — the runtime does not import the shell
 * (components/layering.test.ts). Registry components reach this client through the renderer environment
 * (runtime/env.tsx), not by importing it.
 */
import { message } from 'antd';
import { clearSession, getSession, updateSession } from './session.js';
import i18n from 'i18next';
import { SILENT_CODE, type TokenAnswer } from '../../shared/contract/envelope.js';

export const CLIENT_BASIC = 'Basic ' + btoa('saber:saber_secret');
/** How long a request may take before it is given up, ms (spec 000 §9 'Request timeout 300000 ms'). */
export const REQUEST_TIMEOUT_MS = 300_000;
export const TOKEN_URL = '/api/blade-auth/oauth/token';

export interface FieldError {
  field: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly code: number,
    msg: string,
    readonly fields: FieldError[] = [],
    readonly body: unknown = null,
  ) {
    super(msg);
  }
}

type Params = Record<string, string | number | boolean | undefined | null>;

export interface RequestOptions {
  params?: Params;
  /** JSON body. */
  data?: unknown;
  /** x-www-form-urlencoded body. */
  form?: Record<string, string>;
  /** Multipart body (uploads). */
  formData?: FormData;
  headers?: Record<string, string>;
  /** Do not toast on failure. */
  silent?: boolean;
  /** Answer the raw JSON instead of unwrapping the envelope (the token endpoint). */
  raw?: boolean;
}

/** Called on 401; the shell installs a navigation to /login. */
let onUnauthorized: () => void = () => {
  window.location.assign('/login');
};
export function setUnauthorizedHandler(fn: () => void): void {
  onUnauthorized = fn;
}

/** Shows an error toast; the shell installs antd's App-context `message.error` (themed, no static-call warning). */
let showError: (text: string, onClose: () => void) => void = (text, onClose) => void message.error({ content: text, onClose });
export function setErrorToaster(fn: (text: string, onClose: () => void) => void): void {
  showError = fn;
}

let toastTimer: ReturnType<typeof setTimeout> | undefined;
let toastOpen = false;
/** One error toast at a time, shown 300 ms after the failure (spec 000 §8). */
export function toastError(text: string): void {
  if (toastOpen || toastTimer) return;
  toastTimer = setTimeout(() => {
    toastTimer = undefined;
    toastOpen = true;
    showError(text, () => (toastOpen = false));
    setTimeout(() => (toastOpen = false), 3000);
  }, 300);
}

/**
 * Drops a toast still waiting its 300 ms and forgets an open one. The app never needs it (a page lives on); the
 * client tests call it after each test (tests/client-setup.ts) so a failure at the end of one test neither toasts
 * into the next nor fires after jsdom is gone (antd's message then finds no `document`: an unhandled error).
 */
export function cancelErrorToast(): void {
  if (toastTimer) clearTimeout(toastTimer);
  toastTimer = undefined;
  toastOpen = false;
}

/** Builds `url?params`, dropping empty values (spec 000 §9: empty search values are dropped). */
export function withParams(url: string, params?: Params): string {
  if (!params) return url;
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
  const s = qs.toString();
  return s ? `${url}${url.includes('?') ? '&' : '?'}${s}` : url;
}

/** The headers every call carries: client Basic, tenant, language, and the token and role when signed in. */
export function authHeaders(): Record<string, string> {
  const s = getSession();
  const headers: Record<string, string> = {
    Authorization: CLIENT_BASIC,
    'Tenant-Id': s.tenantId,
    'Accept-Language': s.lang === 'en' ? 'en' : 'zh-CN',
  };
  if (s.token) headers['Blade-Auth'] = `bearer ${s.token}`;
  if (s.currentRoleId) headers['Role-Id'] = s.currentRoleId;
  return headers;
}

/** Sends one request; resolves with the envelope's data (or the raw JSON with `raw`). */
export async function request<T = unknown>(method: 'GET' | 'POST', url: string, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { ...authHeaders(), ...opts.headers };
  let body: BodyInit | undefined;
  if (opts.formData) body = opts.formData;
  else if (opts.form) {
    body = new URLSearchParams(opts.form).toString();
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
  } else if (opts.data !== undefined) {
    body = JSON.stringify(opts.data);
    headers['Content-Type'] = 'application/json';
  }
  let res: Response;
  // spec 000 §9: a request gives up after 300,000 ms (REQUEST_TIMEOUT_MS) and says so
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), REQUEST_TIMEOUT_MS);
  try {
    res = await fetch(withParams(url, opts.params), { method, headers, body, signal: abort.signal });
  } catch (e) {
    const text = i18n.t(abort.signal.aborted ? 'error.timeout' : 'error.network');
    if (!opts.silent) toastError(text);
    throw new ApiError(0, text, [], e);
  } finally {
    clearTimeout(timer);
  }
  let json: any = null;
  try {
    json = await res.json();
  } catch {
    json = null;
  }
  if (opts.raw && res.ok) return json as T;
  const code: number = json?.code ?? res.status;
  if (res.ok && (opts.raw || code === 200)) return (opts.raw ? json : json?.data) as T;
  const msg: string = json?.msg || json?.error_description || i18n.t('error.unknown');
  const fields: FieldError[] = Array.isArray(json?.data) ? json.data : [];
  if (code === 401 && !url.startsWith(TOKEN_URL)) {
    clearSession();
    onUnauthorized();
  } else if (code !== SILENT_CODE && !opts.silent) toastError(msg);
  throw new ApiError(code, msg, fields, json);
}

export const get = <T = unknown>(url: string, params?: Params, opts: RequestOptions = {}) => request<T>('GET', url, { ...opts, params });
export const post = <T = unknown>(url: string, data?: unknown, opts: RequestOptions = {}) => request<T>('POST', url, { ...opts, data });

/** The OAuth answer of the token endpoint (DESIGN §6; shared/contract/envelope.ts). */
export type { TokenAnswer };

/** Stores a token answer in the session. */
export function storeToken(t: TokenAnswer): void {
  updateSession({
    token: t.access_token,
    refreshToken: t.refresh_token,
    expiresIn: t.expires_in,
    tokenTime: Date.now(),
    tenantId: t.tenant_id,
    user: { userId: t.user_id, tenantId: t.tenant_id, account: t.account, realName: t.real_name, nickName: t.nick_name, avatar: t.avatar, deptId: t.dept_id },
  });
}

/** Exchanges the refresh token for a new pair; false (and logged out) when that fails. */
export async function refreshToken(): Promise<boolean> {
  const s = getSession();
  if (!s.refreshToken) return false;
  try {
    const t = await request<TokenAnswer>('POST', TOKEN_URL, { form: { grant_type: 'refresh_token', refresh_token: s.refreshToken, tenantId: s.tenantId }, raw: true, silent: true });
    storeToken(t);
    return true;
  } catch {
    clearSession();
    onUnauthorized();
    return false;
  }
}

/** True when the token is `expires_in - 10` seconds old or older (spec 000 §4). */
export function tokenDue(now = Date.now(), s = getSession()): boolean {
  if (!s.token || !s.tokenTime || !s.expiresIn) return false;
  return (now - s.tokenTime) / 1000 >= s.expiresIn - 10;
}

let refreshTimer: ReturnType<typeof setInterval> | undefined;
/** Starts the 10-second refresh check (idempotent). */
export function startTokenRefresh(): void {
  if (refreshTimer) return;
  refreshTimer = setInterval(() => {
    if (tokenDue()) void refreshToken();
  }, 10_000);
}
