/**
 * Test helpers of the client (used by the *.test.tsx files only, never by the app):
 *
 * - `FakeServer`: a small in-memory stand-in for the API behind `fetch` — routes by method and path answer
 *   the envelope (`ok(data)`, `fail(code, msg, data)`), every request is recorded (method, path, query, JSON
 *   body, headers). Unrouted paths answer 404 in the envelope, like the real server (the app then toasts
 *   接口不存在; `KC_LOG_UNROUTED=1 npx vitest run --project client` lists them on the console).
 * - `renderApp(ui)`: renders inside the app's renderer environment (runtime/env.tsx: the API client and the
 *   session's language, which components read through context) with a fresh swr cache (no state leaks
 *   between tests).
 * - i18next is initialised by the client tests' set-up (tests/client-setup.ts imports shell/i18n.ts): this
 *   runtime module does not import the shell (components/layering.test.ts).
 * - `setLang(lang)`: switches the session and i18next language.
 */
import React from 'react';
import { render } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { vi } from 'vitest';
import i18n from 'i18next';
import { updateSession } from './session.js';
import { RuntimeEnvProvider } from './env.js';

export interface FakeRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  headers: Record<string, string>;
}

export interface FakeAnswer {
  status?: number;
  json: unknown;
}

type Handler = (req: FakeRequest) => FakeAnswer | Promise<FakeAnswer>;

export const ok = (data: unknown): FakeAnswer => ({ status: 200, json: { code: 200, success: true, data, msg: '操作成功' } });
export const fail = (code: number, msg: string, data: unknown = null): FakeAnswer => ({ status: code, json: { code, success: false, data, msg } });

export class FakeServer {
  readonly requests: FakeRequest[] = [];
  private readonly routes = new Map<string, Handler>();

  /** Routes `method path` to a handler, a ready answer (`ok(...)`, `fail(...)`), or data answered with `ok`. */
  on(method: 'GET' | 'POST', path: string, handler: Handler | FakeAnswer | unknown): this {
    const isAnswer = (h: unknown): h is FakeAnswer => !!h && typeof h === 'object' && 'json' in h && 'status' in h;
    this.routes.set(`${method} ${path}`, typeof handler === 'function' ? (handler as Handler) : isAnswer(handler) ? () => handler : () => ok(handler));
    return this;
  }

  /** Requests to `path` (optionally one method). */
  calls(path: string, method?: string): FakeRequest[] {
    return this.requests.filter((r) => r.path === path && (!method || r.method === method));
  }

  readonly fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    let body: unknown = init.body;
    if (typeof init.body === 'string') {
      try {
        body = JSON.parse(init.body);
      } catch {
        body = init.body;
      }
    }
    const req: FakeRequest = { method, path: url.pathname, query: Object.fromEntries(url.searchParams), body, headers: (init.headers ?? {}) as Record<string, string> };
    this.requests.push(req);
    const handler = this.routes.get(`${method} ${url.pathname}`);
    if (!handler && process.env.KC_LOG_UNROUTED) console.warn(`UNROUTED ${method} ${url.pathname}`);
    const answer = handler ? await handler(req) : fail(404, `接口不存在: ${url.pathname}`);
    return new Response(JSON.stringify(answer.json), { status: answer.status ?? 200, headers: { 'Content-Type': 'application/json' } });
  };

  install(): this {
    vi.stubGlobal('fetch', this.fetch);
    return this;
  }
}

/** Switches the session's and i18next's language. */
export function setLang(lang: 'zh' | 'en'): void {
  updateSession({ lang });
  void i18n.changeLanguage(lang);
}

/** Renders `ui` inside the renderer environment and a fresh swr cache (RTL's `render` result). */
export function renderApp(ui: React.ReactElement) {
  return render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <RuntimeEnvProvider>{ui}</RuntimeEnvProvider>
    </SWRConfig>,
  );
}
