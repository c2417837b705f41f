/**
 * The resource schemas served to the client runtime (DESIGN §4, §7): the list of resources and each whole
 * schema, as the server loaded them from schemas/ (no published versions yet), for signed-in users only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../src/server/core/config.js';
import { call, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let kyry: Session;
let other: Session; // administrator of tenant 100001
const LIST = '/api/system/schema/list';
const DETAIL = '/api/system/schema/detail';

beforeAll(async () => {
  s = await testServer();
  kyry = await login(s, 'kyry');
  other = await login(s, 'admin', { tenantId: '100001' });
});
afterAll(async () => {
  await s?.close();
});

describe('schema/list', () => {
  it('lists every loaded resource with name, title, titleEn, api and table, sorted by name', async () => {
    const { status, body } = await call(s, kyry, 'GET', LIST);
    expect(status).toBe(200);
    expect(body).toMatchObject({ code: 200, success: true, msg: '操作成功' });
    const list = body.data as Json[];
    expect(list).toHaveLength(s.kernel.registry.resources.size);
    expect(list.map((r) => r.name)).toEqual([...list.map((r) => r.name)].sort((a, b) => a.localeCompare(b)));
    expect(list.find((r) => r.name === 'basic/patent')).toEqual({ name: 'basic/patent', title: '专利', titleEn: 'Patent', api: '/api/basic/patent', table: 'basic_patent' });
    expect(list.find((r) => r.name === 'system/dictbiz')).toEqual({
      name: 'system/dictbiz', title: '业务字典', titleEn: 'Business dictionary', api: '/api/blade-system/dict-biz', table: 'blade_dict_biz',
    });
    for (const r of list) expect(Object.keys(r).sort()).toEqual(['api', 'name', 'table', 'title', 'titleEn']);
  });

  it('is the same for every tenant (schemas are platform metadata, not tenant data)', async () => {
    const mine = await call(s, kyry, 'GET', LIST);
    const theirs = await call(s, other, 'GET', LIST);
    expect(theirs.status).toBe(200);
    expect(theirs.body.data).toEqual(mine.body.data);
  });

  it('needs a signed-in user', async () => {
    const { status, body } = await call(s, null, 'GET', LIST);
    expect(status).toBe(401);
    expect(body).toEqual({ code: 401, success: false, data: null, msg: '请求未授权，请重新登录' });
  });
});

describe('schema/detail', () => {
  it('answers the whole schema as the folder holds it', async () => {
    const { status, body } = await call(s, kyry, 'GET', `${DETAIL}?name=basic/patent`);
    expect(status).toBe(200);
    const file = JSON.parse(fs.readFileSync(path.join(repoRoot, 'schemas/basic/patent.json'), 'utf8'));
    expect(body.data).toEqual(file);
    expect(body.data.form.properties.grid.properties.name['x-validator'][0].message).toBe('请输入专利名称');
  });

  it('takes an encoded name too', async () => {
    const { status, body } = await call(s, kyry, 'GET', `${DETAIL}?name=${encodeURIComponent('system/dict')}`);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ name: 'system/dict', table: 'blade_dict', api: '/api/blade-system/dict' });
  });

  it('404 for an unknown name, 400 without one', async () => {
    const unknown = await call(s, kyry, 'GET', `${DETAIL}?name=basic/nothing`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: 404, success: false, data: null, msg: '资源定义 basic/nothing 不存在' });
    const en = await call(s, kyry, 'GET', `${DETAIL}?name=basic/nothing`, undefined, { 'accept-language': 'en' });
    expect(en.body.msg).toBe('There is no resource schema named basic/nothing');
    for (const url of [DETAIL, `${DETAIL}?name=`]) {
      const res = await call(s, kyry, 'GET', url);
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe('缺少参数 name');
    }
    const proto = await call(s, kyry, 'GET', `${DETAIL}?name=__proto__`);
    expect(proto.status).toBe(404);
  });

  it('needs a signed-in user', async () => {
    expect((await call(s, null, 'GET', `${DETAIL}?name=basic/patent`)).status).toBe(401);
  });
});

describe('the OpenAPI description', () => {
  it('still builds and lists the schema, dictionary and file endpoints', async () => {
    const res = await s.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    const paths = Object.keys(res.json().paths);
    for (const p of [
      '/api/system/schema/list', '/api/system/schema/detail', '/api/blade-system/dict/parent-list', '/api/blade-system/dict-biz/child-list',
      '/api/blade-system/dict/submitChild', '/api/blade-system/dict/dictionary-tree', '/api/blade-resource/oss/endpoint/put-file',
    ]) expect(paths, p).toContain(p);
    expect(paths.some((p) => p.startsWith('/api/blade-resource/oss/endpoint/file/'))).toBe(true);
  });
});
