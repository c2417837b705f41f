/**
 * Security and caching headers on every response (DESIGN §11): API replies, the client's static files,
 * index.html, 404s and errors alike.
 *
 * Security headers come from @fastify/helmet (helmet 8), set in an `onRequest` hook on the raw response, so
 * they stay on whatever answers the request afterwards (the error handler, the not-found handler, a rate-limit
 * refusal). Register this plugin before any other `onRequest` hook that can fail (the token check of
 * pipeline.ts), or a request refused there would leave without them. A few answers never reach a hook:
 * Fastify answers a malformed URL (`/%E0%A4%A`: 400 FST_ERR_BAD_URL) straight from its router. For those, the
 * three headers DESIGN §11 names (`BASELINE_HEADERS`) are also put on every raw response by a listener of the
 * HTTP server that runs before Fastify's (helmet then sets the same values again).
 *
 * - `Content-Security-Policy` (`CSP_DIRECTIVES`): scripts only from our origin — no `'unsafe-eval'`, no inline
 *   script, no inline event handlers (`script-src-attr 'none'`); `'report-sample'` allows nothing, it only
 *   puts the first 40 characters of a refused script into the violation event (tests/e2e/csp.spec.ts reads
 *   them). `style-src` allows `'unsafe-inline'` because
 *   antd's css-in-js injects `<style>` tags at run time. Images may be `data:`/`blob:` (captcha SVG data URIs,
 *   previews of chosen files). Web workers only from our origin: monaco-editor (the designer's JSON editor,
 *   served under /npm) starts its workers from a same-origin URL and, when eval is refused, loads their
 *   modules with `importScripts`, so it needs neither `blob:` nor eval (its loader probes with
 *   `new Function('true')` once per worker; that refusal is expected). Designable's MonacoInput loads prettier
 *   through `new Function('return import(…)')`, refused too and caught there (the text stays unformatted):
 *   tests/e2e/csp.spec.ts tells that one apart and says how the client build can drop it. `frame-src` admits any http(s) page
 *   because menus may open an external system in the /myiframe page (spec 000 §2.4); such a page is
 *   cross-origin and cannot reach ours; and `blob:`, for the browser's PDF viewer over a file /previewFile read
 *   with the session (a blob: URL is made by our own script from our own bytes). `frame-ancestors 'self'` (and `X-Frame-Options: SAMEORIGIN` for old
 *   browsers): only our own pages may frame us. `object-src 'none'`, `base-uri 'self'`, `form-action 'self'`.
 *   No `upgrade-insecure-requests`: a plain-http installation on an intranet must keep working.
 * - `X-Content-Type-Options: nosniff`, `Referrer-Policy: same-origin`, `Cross-Origin-Opener-Policy:
 *   same-origin`, `Cross-Origin-Resource-Policy: same-origin`, `Origin-Agent-Cluster`, `X-DNS-Prefetch-Control:
 *   off`, `X-Download-Options: noopen`, `X-Permitted-Cross-Domain-Policies: none`, `X-XSS-Protection: 0`
 *   (helmet's defaults); `Strict-Transport-Security` for 180 days without `includeSubDomains` (it only counts
 *   over https; other hosts of the customer's domain are not ours to decide for).
 *
 * Caching (`cacheControlFor`, applied in `onSend`, after the route has set its own headers):
 * - `/api/*`: `Cache-Control: no-store` unless the route set its own Cache-Control (a file download may);
 *   the token endpoint sets `no-store` and `Pragma: no-cache` itself (auth/routes.ts).
 * - `/assets/*` (Vite's content-hashed build output), when found: `public, max-age=31536000, immutable`.
 * - any other HTML answer (index.html for `/` and every client route): `no-cache` — it names the current
 *   build's assets, so the browser must revalidate it.
 * - other static files (/npm editor assets, favicon): @fastify/static's default (`public, max-age=0`, ETag).
 */
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';

/** The Content-Security-Policy of every response (see the module header for why each source is there). */
export const CSP_DIRECTIVES: Record<string, string[]> = {
  'default-src': ["'self'"],
  'script-src': ["'self'", "'report-sample'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'worker-src': ["'self'"],
  'frame-src': ["'self'", 'blob:', 'https:', 'http:'],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'self'"],
};

/** `CSP_DIRECTIVES` as a header value (helmet's form: `name sources;name sources`). */
export function cspHeaderValue(directives: Record<string, string[]> = CSP_DIRECTIVES): string {
  return Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join(';');
}

/** The headers every raw response gets before Fastify sees the request (see the module header). */
export const BASELINE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': cspHeaderValue(),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

/** One year, in seconds: the lifetime of a content-hashed asset. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The Cache-Control `reply` to `req` should carry, or undefined to leave it as it is (rules of the module
 * header). Pure, so the rules are testable on their own.
 */
export function cacheControlFor(req: FastifyRequest, reply: FastifyReply): string | undefined {
  const path = req.url.split('?')[0];
  if (path.startsWith('/api/')) return reply.hasHeader('cache-control') ? undefined : 'no-store';
  if (path.startsWith('/assets/') && (reply.statusCode === 200 || reply.statusCode === 304)) return IMMUTABLE;
  const type = reply.getHeader('content-type');
  if (typeof type === 'string' && type.startsWith('text/html')) return 'no-cache';
  return undefined;
}

/**
 * The plugin: helmet with the policy above, the baseline headers on the raw server, and the Cache-Control rules
 * in an `onSend` hook. Wrapped with
 * fastify-plugin, so its hooks apply to the whole app; register it before the pipeline (see the header).
 */
export const securityHeaders = fp(
  async (app: FastifyInstance) => {
    await app.register(helmet, {
      global: true,
      contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
      referrerPolicy: { policy: 'same-origin' },
      strictTransportSecurity: { maxAge: 15_552_000, includeSubDomains: false },
      xFrameOptions: { action: 'sameorigin' },
    });
    // before Fastify's own listener: covers the answers Fastify gives without running any hook
    app.server.prependListener('request', (_req, res: ServerResponse) => {
      for (const [name, value] of Object.entries(BASELINE_HEADERS)) res.setHeader(name, value);
    });
    app.addHook('onSend', async (req, reply, payload) => {
      const cc = cacheControlFor(req, reply);
      if (cc) reply.header('cache-control', cc);
      return payload;
    });
  },
  { name: 'kc-security-headers', fastify: '5.x' },
);
