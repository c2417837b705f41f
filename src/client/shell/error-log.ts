/**
 * The shell's client error log (spec 000 §3 "Error log entry", §8 "Uncaught front-end errors are logged
 * locally (type, message, stack, info, url, time) and sent later", §9 "Log badge max 99"; issue 9 "client
 * errors submitted by the shell land in the error log").
 *
 * - `installErrorCapture(win)`: listens for the window's uncaught errors (`error`) and unhandled promise
 *   rejections (`unhandledrejection`) and records each as an entry; a route's render error reaches
 *   `recordError` through the router's error element (App.tsx). Installed once, before the app renders
 *   (main.tsx). ResizeObserver's "loop completed with undelivered notifications" is a browser notice, not a
 *   fault of the page, and is not recorded.
 * - Entries `{type, url, message, stack, info, time}` (type `error` — shown as bug — or `unhandledrejection`;
 *   url = the page's path and query; time `yyyy-MM-dd HH:mm:ss`, local) are kept in localStorage
 *   (`kc-error-log`), newest last, at most `MAX_ENTRIES` (the oldest go first), so they survive a reload or a
 *   crash until sent.
 * - `uploadErrorLog()`: while signed in, posts the kept entries (at most 100, the endpoint's limit) to
 *   `POST /api/blade-log/error/submit` (silently: a failure keeps them for the next try) and drops the ones
 *   sent. `startErrorLogUpload()` tries at once and then every `UPLOAD_INTERVAL_MS`, and `UPLOAD_DELAY_MS`
 *   after a new entry; it answers the stop function (the layout starts it while signed in).
 * - `useErrorLog()`: the entries, re-rendering on every change (the top bar's badge and dialog:
 *   ErrorLogButton.tsx).
 *
 * Browser-only module without antd, so the login route's chunk stays small.
 */
import { useSyncExternalStore } from 'react';
import { post } from '../runtime/api.js';
import { getSession } from '../runtime/session.js';

export const ERROR_LOG_KEY = 'kc-error-log';
export const ERROR_LOG_URL = '/api/blade-log/error/submit';
/** Entries kept locally; also the most one upload sends (the endpoint takes at most 100). */
export const MAX_ENTRIES = 100;
/** Text limits of an entry (the server cuts to its columns anyway; these keep localStorage small). */
const MAX_MESSAGE = 2_000;
const MAX_STACK = 8_000;
/** Upload retry period and the delay after a new entry, in ms. */
export const UPLOAD_INTERVAL_MS = 60_000;
export const UPLOAD_DELAY_MS = 3_000;

/** One client error (spec 000 §3). */
export interface ErrorLogEntry {
  /** `error` (an uncaught error, shown as bug) or `unhandledrejection`. */
  type: string;
  /** The page's path and query when it happened. */
  url: string;
  message: string;
  stack: string;
  /** Where: the script and line of an uncaught error, or a React component stack. */
  info: string;
  /** `yyyy-MM-dd HH:mm:ss`, local time. */
  time: string;
}

/** Browser notices that are not faults of the page. */
const IGNORED = [/ResizeObserver loop/i];

const pad = (n: number) => String(n).padStart(2, '0');
/** `yyyy-MM-dd HH:mm:ss` of `d` in local time (DESIGN §6 date format). */
export function formatTime(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

function load(): ErrorLogEntry[] {
  try {
    const raw = localStorage.getItem(ERROR_LOG_KEY);
    const list: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(list) ? (list.filter((e) => e && typeof e === 'object') as ErrorLogEntry[]) : [];
  } catch {
    return [];
  }
}

let entries: ErrorLogEntry[] = load();
const listeners = new Set<() => void>();

function save(next: ErrorLogEntry[]): void {
  entries = next.slice(-MAX_ENTRIES);
  try {
    localStorage.setItem(ERROR_LOG_KEY, JSON.stringify(entries));
  } catch {
    /* storage full or private mode: kept in memory */
  }
  for (const l of listeners) l();
}

/** The kept entries, oldest first (a snapshot; do not mutate). */
export function readErrorLog(): ErrorLogEntry[] {
  return entries;
}

/** Forgets every kept entry (the dialog's clear button). */
export function clearErrorLog(): void {
  save([]);
}

/** Calls `l` after every change of the log; answers the unsubscribe function. */
export function subscribeErrorLog(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** React hook: the kept entries, re-rendering on every change. */
export function useErrorLog(): ErrorLogEntry[] {
  return useSyncExternalStore(subscribeErrorLog, readErrorLog, readErrorLog);
}

const text = (v: unknown, max: number): string => {
  if (v === undefined || v === null) return '';
  let s: string;
  if (typeof v === 'string') s = v;
  else {
    try {
      s = JSON.stringify(v) ?? String(v);
    } catch {
      s = String(v);
    }
  }
  // NUL characters: PostgreSQL refuses them and the server would refuse the whole batch (DESIGN §11)
  return s.split(String.fromCharCode(0)).join('').slice(0, max);
};

/**
 * Records one error: `reason` is what was thrown (an Error, a string, anything); `info` says where. Ignored
 * notices, an empty message and an Error object already recorded record nothing. Answers the entry recorded, if any.
 */
export function recordError(type: string, reason: unknown, info = ''): ErrorLogEntry | undefined {
  const err = reason instanceof Error ? reason : undefined;
  // one thrown object is one entry, however many ways it is reported (React's development build replays a
  // render error on the window before the route's error element sees it)
  if (err) {
    if (seen.has(err)) return undefined;
    seen.add(err);
  }
  const message = text(err ? `${err.name}: ${err.message}` : reason, MAX_MESSAGE);
  if (!message || IGNORED.some((re) => re.test(message))) return undefined;
  const entry: ErrorLogEntry = {
    type,
    url: typeof location !== 'undefined' ? location.pathname + location.search : '',
    message,
    stack: text(err?.stack, MAX_STACK),
    info: text(info, MAX_STACK),
    time: formatTime(new Date()),
  };
  save([...entries, entry]);
  scheduleSoon();
  return entry;
}

const seen = new WeakSet<Error>();

let installed = false;
/** Listens for `win`'s uncaught errors and unhandled rejections (once per page). */
export function installErrorCapture(win: Window = window): void {
  if (installed) return;
  installed = true;
  win.addEventListener('error', (e: ErrorEvent) => {
    // a resource that failed to load fires a plain Event without message: not a script error
    if (!(e instanceof ErrorEvent)) return;
    const where = e.filename ? `${e.filename}:${e.lineno}:${e.colno}` : '';
    recordError('error', e.error ?? e.message, where);
  });
  win.addEventListener('unhandledrejection', (e: PromiseRejectionEvent) => {
    recordError('unhandledrejection', e.reason);
  });
}

let sending: Promise<number> | undefined;
/**
 * Sends the kept entries while signed in (at most `MAX_ENTRIES`), silently; drops those sent. Answers how
 * many were sent (0 when signed out, empty or refused: the entries stay for the next try).
 */
export function uploadErrorLog(): Promise<number> {
  if (sending) return sending;
  const batch = entries.slice(0, MAX_ENTRIES);
  if (!getSession().token || batch.length === 0) return Promise.resolve(0);
  sending = post<{ count: number }>(ERROR_LOG_URL, batch, { silent: true })
    .then(() => {
      // entries recorded while sending stay; the sent ones are the first `batch.length`
      save(entries.filter((e) => !batch.includes(e)));
      return batch.length;
    })
    .catch(() => 0)
    .finally(() => {
      sending = undefined;
    });
  return sending;
}

let soon: ReturnType<typeof setTimeout> | undefined;
let running = 0;
function scheduleSoon(): void {
  if (!running || soon) return;
  soon = setTimeout(() => {
    soon = undefined;
    void uploadErrorLog();
  }, UPLOAD_DELAY_MS);
}

/** Uploads now, then every `UPLOAD_INTERVAL_MS` and shortly after each new entry; answers the stop function. */
export function startErrorLogUpload(): () => void {
  running++;
  void uploadErrorLog();
  const every = setInterval(() => void uploadErrorLog(), UPLOAD_INTERVAL_MS);
  return () => {
    clearInterval(every);
    running--;
    if (!running && soon) {
      clearTimeout(soon);
      soon = undefined;
    }
  };
}
