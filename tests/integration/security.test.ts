/**
 * Response headers and the API log against the real server (DESIGN §11):
 *
 * - every response — API replies, 404s, errors (400, 401, 500), `/` and the client's files — carries the
 *   Content-Security-Policy (no 'unsafe-eval', no inline script, frame-ancestors 'self'),
 *   `X-Content-Type-Options: nosniff` and `Referrer-Policy: same-origin`;
 * - API replies carry `Cache-Control: no-store` unless the route set its own; HTML answers `no-cache`,
 *   hashed assets under /assets/ `public, max-age=31536000, immutable`;
 * - a write's API log row is committed before its reply leaves (pipeline.ts): it is in `blade_log_api` as soon
 *   as the reply has arrived, without a flush.
 *
 * A few routes are added for the test (`/api/kc-test/...`, `/assets/kc-test-...`, `/kc-test-page`): one that
 * fails with a 500, one that sets its own Cache-Control, and stand-ins for a hashed asset and an HTML page,
 * so the rules are checked whether or not the client is built.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { call, countRows, login, testServer, type Session, type TestServer } from './helpers.js';
import { CSP_DIRECTIVES, cspHeaderValue } from '../../src/server/core/security-headers.js';

let s: TestServer;
let admin: Session;
beforeAll(async () => {
  s = await testServer({}, (app) => {
    app.get('/api/kc-test/boom', { config: { public: true } }, async () => {
      throw new Error('kc-test: a bug');
    });
    app.get('/api/kc-test/cached', { config: { public: true } }, async (_req, reply) => {
      reply.header('cache-control', 'private, max-age=60');
      return { code: 200, success: true, data: null, msg: 'ok' };
    });
    app.get('/assets/kc-test-3f2a9c1d.js', { config: { public: true } }, async (_req, reply) => reply.type('text/javascript').send('export {};'));
    app.get('/kc-test-page', { config: { public: true } }, async (_req, reply) => reply.type('text/html; charset=utf-8').send('<!doctype html><title>t</title>'));
  });
  admin = await login(s, 'admin');
});
afterAll(async () => {
  await s.close();
});

/** The directives of a CSP header, as name → sources. */
function parseCsp(header: string | undefined): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) m.set(name, sources);
  }
  return m;
}

/** Asserts the security headers of DESIGN §11 on `res` (`what` names the case in failure messages). */
function expectSecurityHeaders(res: LightMyRequestResponse, what: string): void {
  const raw = res.headers['content-security-policy'];
  expect(raw, `${what}: Content-Security-Policy`).toBeTypeOf('string');
  const csp = parseCsp(raw as string);
  expect(csp.get('script-src'), what).toEqual(["'self'", "'report-sample'"]);
  expect(raw, what).not.toContain('unsafe-eval');
  expect(csp.get('script-src-attr'), what).toEqual(["'none'"]);
  expect(csp.get('style-src'), what).toEqual(["'self'", "'unsafe-inline'"]);
  expect(csp.get('object-src'), what).toEqual(["'none'"]);
  expect(csp.get('base-uri'), what).toEqual(["'self'"]);
  expect(csp.get('frame-ancestors'), what).toEqual(["'self'"]);
  expect(csp.get('img-src'), what).toEqual(["'self'", 'data:', 'blob:']);
  // blob: only for the PDF viewer of /previewFile (a blob: URL our script makes from our own bytes)
  expect(csp.get('frame-src'), what).toEqual(["'self'", 'blob:', 'https:', 'http:']);
  expect(csp.get('connect-src'), what).toEqual(["'self'"]);
  expect(csp.get('default-src'), what).toEqual(["'self'"]);
  expect(res.headers['x-content-type-options'], what).toBe('nosniff');
  expect(res.headers['referrer-policy'], what).toBe('same-origin');
  expect(res.headers['x-frame-options'], what).toBe('SAMEORIGIN');
}

describe('security headers on every response (DESIGN §11)', () => {
  it('the policy served is the one the module declares, and none of its script sources is unsafe', () => {
    expect(CSP_DIRECTIVES['script-src']).toEqual(["'self'", "'report-sample'"]);
    for (const sources of Object.values(CSP_DIRECTIVES)) expect(sources).not.toContain("'unsafe-eval'");
  });

  it('on an API reply', async () => {
    const r = await call(s, admin, 'GET', '/api/blade-user/info');
    expect(r.status).toBe(200);
    expectSecurityHeaders(r.res, 'API reply');
  });

  it('on 404s: an unknown endpoint and a missing file', async () => {
    const api = await call(s, admin, 'GET', '/api/kc-test/no-such-endpoint');
    expect(api.status).toBe(404);
    expect(api.body.msg).toBe('接口不存在: /api/kc-test/no-such-endpoint');
    expectSecurityHeaders(api.res, 'API 404');
    const file = await s.app.inject({ method: 'GET', url: '/assets/no-such-file-0000.js' });
    expect(file.statusCode).toBe(404);
    expectSecurityHeaders(file, 'file 404');
  });

  it('on errors: 500 (a bug), 401 (refused before the route), 400 (bad JSON)', async () => {
    const boom = await call(s, null, 'GET', '/api/kc-test/boom');
    expect(boom.status).toBe(500);
    expect(boom.body.msg).toMatch(/^服务器内部错误，错误编号 \d+$/);
    expect(JSON.stringify(boom.body)).not.toContain('kc-test: a bug');
    expectSecurityHeaders(boom.res, '500');
    expect(boom.res.headers['cache-control']).toBe('no-store');

    const unauthorized = await call(s, { token: 'not-a-token' } as Session, 'GET', '/api/blade-user/info');
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.body.msg).toBe('请求未授权，请重新登录');
    expectSecurityHeaders(unauthorized.res, '401');

    const badJson = await call(s, admin, 'POST', '/api/basic/patent/submit', '{"name": ', { 'content-type': 'application/json' });
    expect(badJson.status).toBe(400);
    expect(badJson.body.msg).toBe('请求体不是有效的 JSON');
    expectSecurityHeaders(badJson.res, '400');
  });

  it('on / (index.html, or the note that the client is not built) and on HTML and asset files', async () => {
    const root = await s.app.inject({ method: 'GET', url: '/' });
    expectSecurityHeaders(root, '/');
    if (root.statusCode === 200) {
      expect(root.headers['content-type']).toMatch(/^text\/html/);
      expect(root.headers['cache-control']).toBe('no-cache');
    }
    const page = await s.app.inject({ method: 'GET', url: '/kc-test-page' });
    expectSecurityHeaders(page, 'HTML page');
    expect(page.headers['cache-control']).toBe('no-cache');
    const asset = await s.app.inject({ method: 'GET', url: '/assets/kc-test-3f2a9c1d.js' });
    expectSecurityHeaders(asset, 'asset');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('over a real socket too, on the answers Fastify gives before any hook (a malformed URL)', async () => {
    const other = await testServer();
    try {
      await other.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = other.app.server.address() as AddressInfo;
      const get = (path: string) =>
        new Promise<http.IncomingMessage>((resolve, reject) => {
          http.get({ host: '127.0.0.1', port, path }, (res) => {
            res.resume();
            res.on('end', () => resolve(res));
          }).on('error', reject);
        });
      const bad = await get('/api/%E0%A4%A');
      expect(bad.statusCode).toBe(400);
      const good = await get('/api/blade-auth/oauth/captcha');
      expect(good.statusCode).toBe(200);
      for (const [what, res] of [['bad URL', bad], ['API reply', good]] as const) {
        // one header each, the policy of the module (helmet's value and the baseline's are the same)
        expect(res.headers['content-security-policy'], what).toBe(cspHeaderValue());
        expect(res.headers['x-content-type-options'], what).toBe('nosniff');
        expect(res.headers['referrer-policy'], what).toBe('same-origin');
      }
    } finally {
      await other.close();
    }
  });
});

describe('Cache-Control of API replies (DESIGN §11)', () => {
  it('is no-store on API replies, errors and 404s included', async () => {
    for (const url of ['/api/blade-user/info', '/api/basic/patent/page?current=1&size=10', '/api/kc-test/nothing-here']) {
      const r = await call(s, admin, 'GET', url);
      expect(r.res.headers['cache-control'], url).toBe('no-store');
    }
    expect((await call(s, null, 'GET', '/api/blade-user/info')).res.headers['cache-control']).toBe('no-store');
  });

  it('keeps the Cache-Control a route set itself (a file download may be cached)', async () => {
    const r = await call(s, null, 'GET', '/api/kc-test/cached');
    expect(r.status).toBe(200);
    expect(r.res.headers['cache-control']).toBe('private, max-age=60');
  });

  it('the captcha is never cached either', async () => {
    const r = await s.app.inject({ method: 'GET', url: '/api/blade-auth/oauth/captcha' });
    expect(r.headers['cache-control']).toBe('no-store');
  });
});

describe('the API log keeps what it acknowledged (DESIGN §11, pipeline.ts)', () => {
  it('a write is in blade_log_api as soon as its reply has arrived (no flush, no wait)', async () => {
    const ids = String(9_000_000_000_000_000_000n + BigInt(crypto.randomInt(1e12)));
    const r = await call(s, admin, 'POST', `/api/basic/patent/remove?ids=${ids}`);
    expect(r.status).toBeLessThan(500);
    const rows = await s.kernel.database.pool.query(
      `SELECT method, request_uri, status_code, user_id::text AS user_id, create_by FROM blade_log_api WHERE params = $1`,
      [`ids=${ids}`],
    );
    expect(rows.rows).toEqual([{ method: 'POST', request_uri: '/api/basic/patent/remove', status_code: r.status, user_id: admin.userId, create_by: 'admin' }]);
  });

  it('a refused write is logged at once too, with its status', async () => {
    const tag = crypto.randomUUID();
    const r = await call(s, admin, 'POST', `/api/basic/patent/submit?kcTag=${tag}`, '{"name": ', { 'content-type': 'application/json' });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe('请求体不是有效的 JSON');
    expect(await countRows(s, 'blade_log_api', `params = $1 AND status_code = 400 AND method = 'POST'`, [`kcTag=${tag}`])).toBe(1);
  });

  it('a read is buffered and written with the next batch', async () => {
    const tag = crypto.randomUUID();
    const r = await call(s, admin, 'GET', `/api/basic/patent/page?current=1&size=10&name=${tag}`);
    expect(r.status).toBe(200);
    await s.kernel.apiLog.flush();
    expect(await countRows(s, 'blade_log_api', `params LIKE $1 AND method = 'GET' AND status_code = 200`, [`%name=${tag}%`])).toBe(1);
  });
});
