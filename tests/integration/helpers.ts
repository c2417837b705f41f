/**
 * Helpers for the integration tests: an app over the run's test database (see global-setup.ts), logging in
 * as a demo account the way a client does, and request shortcuts that go through Fastify's `inject` (the
 * whole pipeline, no socket).
 */
import { expect, inject } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { loadConfig, type ServerConfig } from '../../src/server/core/config.js';
import { buildApp, startKernel, type Kernel } from '../../src/server/app.js';

export const BASIC = 'Basic ' + Buffer.from('saber:saber_secret').toString('base64');

export interface TestServer {
  app: FastifyInstance;
  kernel: Kernel;
  password: string;
  close(): Promise<void>;
}

/** Builds the app over the shared test database. `NODE_ENV=test` behaviour is on unless overridden. */
export async function testServer(overrides: Partial<ServerConfig> = {}, beforeReady?: (app: FastifyInstance) => void): Promise<TestServer> {
  const db = inject('db');
  const kernel = await startKernel(loadConfig({ databaseUrl: db.url, dataDir: db.dataDir, isTest: true, loginRateMax: 100_000, ...overrides }));
  const app = await buildApp(kernel);
  beforeReady?.(app);
  await app.ready();
  return {
    app,
    kernel,
    password: db.password,
    async close() {
      await app.close();
      await kernel.close();
    },
  };
}

export interface Session {
  token: string;
  refresh: string;
  userId: string;
  deptId: string;
  roleIds: string[];
  body: Record<string, any>;
}

/** Logs in with the password grant; throws with the server's message when it fails. */
export async function login(s: TestServer, account: string, opts: { tenantId?: string; password?: string } = {}): Promise<Session> {
  const res = await s.app.inject({
    method: 'POST',
    url: '/api/blade-auth/oauth/token',
    headers: { authorization: BASIC, 'tenant-id': opts.tenantId ?? '000000', 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'password', username: account, password: opts.password ?? s.password }).toString(),
  });
  const body = res.json();
  if (res.statusCode !== 200) throw new Error(`login ${account} failed: ${res.statusCode} ${body.msg}`);
  return { token: body.access_token, refresh: body.refresh_token, userId: body.user_id, deptId: body.dept_id, roleIds: String(body.role_id).split(','), body };
}

export type Json = Record<string, any>;

/** A request as `session` (or anonymous); answers status and parsed JSON. */
export async function call(
  s: TestServer,
  session: Session | null,
  method: 'GET' | 'POST',
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Json; res: LightMyRequestResponse }> {
  const res = await s.app.inject({
    method,
    url,
    headers: { ...(session ? { 'blade-auth': `bearer ${session.token}` } : {}), ...headers },
    ...(payload !== undefined ? { payload: payload as any } : {}),
  });
  let body: Json = {};
  try {
    body = res.json();
  } catch {
    body = { raw: res.body };
  }
  return { status: res.statusCode, body, res };
}

/** Number of rows of `table` matching the SQL condition `where` (bind values in `params`). */
export async function countRows(s: TestServer, table: string, where = 'TRUE', params: unknown[] = []): Promise<number> {
  const r = await s.kernel.database.pool.query(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`, params);
  return r.rows[0].n;
}

/** The id of a live project of tenant `tenantId` (the seed's demo projects), for `x-ref` fields naming project/baseinfo. */
export async function anyProject(s: TestServer, tenantId = '000000'): Promise<string> {
  const r = await s.kernel.database.pool.query(`SELECT id::text AS id FROM project_baseinfo WHERE tenant_id = $1 AND is_deleted = 0 ORDER BY id LIMIT 1`, [tenantId]);
  if (!r.rows[0]) throw new Error(`no project in tenant ${tenantId}`);
  return r.rows[0].id;
}

/** A complete, valid patent (spec 001 §3, §5) whose name carries `tag` so tests can find their own rows. */
export function validPatent(tag: string, deptId: string): Json {
  return {
    name: `${tag} 一种低温储粮控制方法`,
    deptId,
    projectSource: 3,
    projectName: '智能粮库关键技术研究',
    projectType: '3',
    type: '1',
    region: '中国',
    address: '北京市西城区',
    postcode: '100032',
    applyDate: '2024-03-15',
    authorizationDate: '2025-06-20',
    openCode: 'CN117000000A',
    authorizationCode: `ZL2024${Math.floor(Math.random() * 1e8)}`,
    code: `第${Math.floor(Math.random() * 1e6)}号`,
    ownershipDetailForm: [{ name: '粮储集团有限公司', rank: 1 }],
    userNamesDetailForm: [{ userName: '刘研', rank: 1 }],
    annex: [{ name: '证书.pdf', link: '/upload/20250101/a.pdf' }],
  };
}

/**
 * Uploads `bytes` as `fileName` through `/api/blade-resource/oss/endpoint/put-file` (multipart, as the browser
 * sends it) as `who`; expects 200 and answers the data: `{link, domain, name, originalName, attachId}`.
 */
export async function uploadFile(s: TestServer, who: Session, fileName: string, bytes: Buffer): Promise<Json> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), fileName);
  const res = new Response(form);
  const r = await call(s, who, 'POST', '/api/blade-resource/oss/endpoint/put-file', Buffer.from(await res.arrayBuffer()), { 'content-type': res.headers.get('content-type')! });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data as Json;
}

/**
 * Polls `probe` until it answers something truthy (its answer), every `every` ms; after `ms` throws
 * `timed out: <what>` (jobs, re-indexing, timers: work the server finishes after its reply).
 */
export async function until<T>(what: string, probe: () => Promise<T | undefined | false>, ms = 30_000, every = 150): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}
