/**
 * The API of the stories: a `fetch` stand-in answering every `/api/…` call from the fixtures (fixtures.ts),
 * in the server's envelope `{code, success, data, msg}`, so no story ever reaches a network — in Storybook
 * (installed by the preview's `beforeAll`) and in the snapshot tests alike. Other URLs (Storybook's own
 * index.json, modules) go to the real fetch.
 *
 * Routes:
 * - dictionaries `GET /api/blade-system/dict/dictionary?code=` (and `dict-biz/dictionary`);
 * - the department tree `GET /api/blade-system/dept/tree`;
 * - the schema `GET /api/system/schema/detail?name=` (ResourcePage);
 * - uploads `POST /api/blade-resource/oss/endpoint/put-file`;
 * - per resource, under its `api`: `list` / `page` / `myList` / `list-for-myCompany` (a page of its records,
 *   `current` / `size` honoured), `detail?<key>=`, `select` (records, filtered by equal query parameters:
 *   the project picker's `declareStatus`), `tree`, `lazy-tree?<lazyParam>=` (so the region cascader reads the
 *   region resource's records), `options` (a module's picker nodes `{id, key, value, title}` labelled by the
 *   resource's `labelField`), `submit` (echoes the record with an id) and `remove`.
 * Anything else answers 404 `接口不存在: <path>`, as the server does.
 */
import type { ResourceSchema } from '../src/shared/schema/types.js';
import { DICT_BIZ_URL, DICT_URL } from '../src/client/components/DictSelect.js';
import { DEPT_TREE_URL } from '../src/client/components/DeptTreeSelect.js';
import { UPLOAD_URL } from '../src/client/components/FileUpload.js';
import { SCHEMA_DETAIL_URL } from '../src/client/runtime/schema.js';
import { schemas } from './generated/schemas.js';
import { createFixtures, DEPTS, type Row } from './fixtures.js';

export const fixtures = createFixtures(schemas);

interface Answer {
  status: number;
  json: unknown;
}

const ok = (data: unknown): Answer => ({ status: 200, json: { code: 200, success: true, data, msg: '操作成功' } });
const fail = (code: number, msg: string): Answer => ({ status: code, json: { code, success: false, data: null, msg } });

const LIST_ENDPOINTS = new Set(['list', 'page', 'myList', 'myPage', 'list-for-myCompany']);

/** The resource whose `api` is the path's parent, and the endpoint named by the last segment. */
function route(path: string): { resource: ResourceSchema; endpoint: string } | undefined {
  const cut = path.lastIndexOf('/');
  const base = path.slice(0, cut);
  const resource = schemas.find((s) => s.api === base);
  return resource ? { resource, endpoint: path.slice(cut + 1) } : undefined;
}

function page(records: Row[], query: URLSearchParams) {
  const size = Math.max(1, Number(query.get('size') ?? 10) || 10);
  const current = Math.max(1, Number(query.get('current') ?? 1) || 1);
  return { records: records.slice((current - 1) * size, current * size), total: records.length, size, current, pages: Math.ceil(records.length / size) };
}

/** The answer to one request. */
export function answer(method: string, url: URL, body: unknown): Answer {
  const path = url.pathname;
  const q = url.searchParams;
  if (method === 'GET' && (path === DICT_URL || path === DICT_BIZ_URL)) return ok(fixtures.dict(q.get('code') ?? ''));
  if (method === 'GET' && path === DEPT_TREE_URL) return ok(DEPTS);
  if (method === 'GET' && path === SCHEMA_DETAIL_URL) return ok(fixtures.byName.get(q.get('name') ?? '') ?? null);
  if (method === 'POST' && path === UPLOAD_URL) {
    const file = body instanceof FormData ? body.get('file') : null;
    const name = file instanceof File ? file.name : 'upload.pdf';
    return ok({ name, link: `/upload/20240108/${name}`, originalName: name });
  }
  const hit = route(path);
  if (hit) {
    const { resource, endpoint } = hit;
    const keyField = resource.key ?? 'id';
    if (method === 'GET' && LIST_ENDPOINTS.has(endpoint)) return ok(page(fixtures.rows(resource), q));
    if (method === 'GET' && endpoint === 'detail') {
      const row = fixtures.find(resource, q.get(keyField) ?? '');
      return row ? ok(row) : fail(400, '数据不存在');
    }
    if (method === 'GET' && endpoint === 'select') return ok(fixtures.rows(resource).filter((r) => [...q].every(([k, v]) => !(k in r) || String(r[k]) === v)));
    if (method === 'GET' && endpoint === 'tree') return ok(fixtures.tree(resource));
    if (method === 'GET' && endpoint === 'options') {
      const label = resource.labelField ?? 'name';
      return ok(fixtures.rows(resource).map((r) => ({ id: String(r[keyField]), key: String(r[keyField]), value: String(r[keyField]), title: String(r[label] ?? r[keyField]) })));
    }
    if (method === 'GET' && endpoint === 'lazy-tree') {
      const param = resource.tree?.lazyParam ?? resource.tree?.parentField ?? 'parentId';
      return ok(fixtures.children(resource, q.get(param) ?? resource.tree?.rootValue ?? '0'));
    }
    if (method === 'POST' && endpoint === 'submit') {
      const record = (body && typeof body === 'object' ? body : {}) as Row;
      return ok({ ...record, [keyField]: record[keyField] ?? '2001' });
    }
    if (method === 'POST' && endpoint === 'remove') return ok(true);
  }
  return fail(404, `接口不存在: ${path}`);
}

let inFlight = 0;
let served = 0;

/** Requests being answered now, and answered so far (the snapshot tests wait until the stories are quiet). */
export function mockActivity(): { inFlight: number; served: number } {
  return { inFlight, served };
}

/** Replaces `fetch` with the mock for `/api/…` URLs; answers a function putting the real one back. */
export function installFetchMock(): () => void {
  const real = globalThis.fetch;
  const mock = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const href = input instanceof Request ? input.url : String(input);
    const url = new URL(href, globalThis.location?.href ?? 'http://localhost/');
    if (!url.pathname.startsWith('/api/')) return real(input, init);
    inFlight++;
    try {
      let body: unknown = init.body;
      if (typeof body === 'string') {
        try {
          body = JSON.parse(body);
        } catch {
          /* a form-encoded body stays text */
        }
      }
      // answer asynchronously, as a server would
      await Promise.resolve();
      const a = answer((init.method ?? 'GET').toUpperCase(), url, body);
      return new Response(JSON.stringify(a.json), { status: a.status, headers: { 'Content-Type': 'application/json' } });
    } finally {
      inFlight--;
      served++;
    }
  };
  globalThis.fetch = mock as typeof fetch;
  return () => {
    if (globalThis.fetch === mock) globalThis.fetch = real;
  };
}
