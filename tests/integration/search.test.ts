/**
 * Full-text search (issue 14; DESIGN §8 Search; spec 001 §7 "/es"): index definitions (es/index) with
 * mapping / getMapping, searchData and getDataPage over PostgreSQL (jieba → tsvector + GIN, ts_rank_cd,
 * ts_headline), documents indexed on write and by the re-index job, the IK dictionary (es/ikdic) whose change
 * re-segments the affected documents (a job) and changes what a query finds, the grain-storage lexicon (its words
 * whole; a changed lexicon re-segments by a job); bad definitions and words are
 * refused with their message and store nothing; non-administrators get 403 on the admin calls; another
 * tenant finds nothing.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, countRows, login, testServer, until, validPatent, type Json, type Session, type TestServer } from './helpers.js';
import { DOMAIN_WORDS, syncLexicon } from '../../src/server/modules/search/lexicon.js';
import { systemOwner } from '../../src/server/modules/search/jobs.js';

let s: TestServer;
let admin: Session;
let kyry: Session;
let other: Session; // administrator of tenant 100001

const TAG = `zq${Date.now().toString(36)}`;
const INDEX = `t_${TAG}`;
let indexId = '';
const patents: Record<string, string> = {};

async function addPatent(key: string, name: string) {
  const res = await call(s, admin, 'POST', '/api/basic/patent/submit', { ...validPatent(TAG, admin.deptId), name: `${TAG} ${name}` });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  patents[key] = res.body.data.id;
}

const searchData = (who: Session, keyword: string, extra = '') =>
  call(s, who, 'GET', `/api/es/index/searchData?indexName=${INDEX}&keyword=${encodeURIComponent(keyword)}${extra}`);
const ids = (body: Json) => (body.data.records as Json[]).map((r) => r.id).sort();

beforeAll(async () => {
  s = await testServer();
  [admin, kyry, other] = await Promise.all([login(s, 'admin'), login(s, 'kyry'), login(s, 'admin', { tenantId: '100001' })]);
  await addPatent('before', '绿色储粮新方法及其装置');
});
afterAll(async () => {
  await s?.kernel.database.pool.query(`DELETE FROM es_ikdic WHERE word IN ('绿色储粮', $1)`, [`${TAG}停`]).catch(() => undefined);
  await s?.close();
});

describe('search index definitions', () => {
  it('refuses an unknown resource or field and a blank word with the message, storing nothing', async () => {
    const bad = await call(s, admin, 'POST', '/api/es/index/submit', { indexName: `${INDEX}x`, resource: 'basic/nothing', titleField: 'name', fields: [{ field: 'name', weight: 'A' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('数据资源不存在');
    const badField = await call(s, admin, 'POST', '/api/es/index/submit', { indexName: `${INDEX}x`, resource: 'basic/patent', titleField: 'name', fields: [{ field: 'nope', weight: 'A' }] });
    expect(badField.status).toBe(400);
    expect(badField.body.msg).toBe('字段 nope 不存在');
    expect(await countRows(s, 'es_index', 'index_name = $1', [`${INDEX}x`])).toBe(0);
    const word = await call(s, admin, 'POST', '/api/es/ikdic/submit', { word: '绿色 储粮', wordType: 1 });
    expect(word.status).toBe(400);
    expect(word.body.msg).toBe('词语不能包含空白字符');
    expect(await countRows(s, 'es_ikdic', 'word = $1', ['绿色 储粮'])).toBe(0);
  });

  it('builds an index by a job (mapping), shows its mapping, and indexes new records on write', async () => {
    const add = await call(s, admin, 'POST', '/api/es/index/submit', {
      indexName: INDEX, resource: 'basic/patent', titleField: 'name', fields: [{ field: 'name', weight: 'A' }, { field: 'projectName', weight: 'C' }],
    });
    expect(add.status, JSON.stringify(add.body)).toBe(200);
    indexId = add.body.data.id;
    const taken = await call(s, admin, 'POST', '/api/es/index/submit', { indexName: INDEX, resource: 'basic/patent', titleField: 'name', fields: [{ field: 'name', weight: 'A' }] });
    expect(taken.status).toBe(400);
    expect(taken.body.msg).toBe('索引名称已存在');
    await until('index built', async () => (await call(s, admin, 'GET', `/api/es/index/detail?id=${indexId}`)).body.data.indexStatus === 2);
    const m = await call(s, admin, 'GET', `/api/es/index/getMapping?indexName=${INDEX}`);
    expect(m.status).toBe(200);
    expect(m.body.data).toMatchObject({ indexName: INDEX, resource: 'basic/patent', analyzer: 'jieba', properties: { name: { weight: 'A', title: '专利名称' }, projectName: { weight: 'C' } } });
    expect(m.body.data.docCount).toBeGreaterThanOrEqual(1);
    // the record added before the index existed was indexed by the job
    expect(ids((await searchData(admin, `${TAG} 储粮`)).body)).toEqual([patents.before]);
    // new records are indexed on write, and a removal drops them
    await addPatent('apart', '绿色食品仓库的储粮通风工艺');
    await addPatent('other', '粮食干燥设备');
    await addPatent('gone', '绿色储粮示范库');
    const rm = await call(s, admin, 'POST', `/api/basic/patent/remove?ids=${patents.gone}`);
    expect(rm.status).toBe(200);
    const r = await searchData(admin, `绿色储粮 ${TAG}`);
    expect(ids(r.body)).toEqual([patents.before, patents.apart].sort());
    expect(r.body.data.words).toEqual(['绿色', '储粮', TAG]);
    expect(r.body.data.records[0]).toMatchObject({ indexName: INDEX, resource: 'basic/patent' });
    const first = r.body.data.records.find((x: Json) => x.id === patents.before);
    expect(first.title).toBe(`${TAG} 绿色储粮新方法及其装置`);
    expect(first.highlight).toContain('<em>绿色</em><em>储粮</em>');
    // the adjacent words rank above the scattered ones
    expect(r.body.data.records[0].id).toBe(patents.before);
    expect(ids((await searchData(admin, `干燥 ${TAG}`)).body)).toEqual([patents.other]);
    expect((await searchData(admin, '，。！')).body.data.records).toEqual([]);
  });

  it('getDataPage, a POST that changes nothing, is logged as a read: buffered, not committed before its reply', async () => {
    const write = vi.spyOn(s.kernel.apiLog, 'write');
    try {
      const tag = `${TAG}log${Date.now()}`;
      const r = await call(s, admin, 'POST', `/api/es/index/getDataPage?current=1&size=10&kcTag=${tag}`, { indexName: INDEX, keyword: '储粮' });
      expect(r.status).toBe(200);
      expect(write).not.toHaveBeenCalled();
      await s.kernel.apiLog.flush();
      expect(await countRows(s, 'blade_log_api', `params LIKE $1 AND method = 'POST' AND status_code = 200`, [`%kcTag=${tag}%`])).toBe(1);
      // a write is still committed before its reply
      const w = await call(s, admin, 'POST', `/api/basic/patent/remove?ids=${String(9_000_000_000_000_000_000n + BigInt(Date.now()))}`);
      expect(w.status).toBeLessThan(500);
      expect(write).toHaveBeenCalledTimes(1);
    } finally {
      write.mockRestore();
    }
  });

  it('getDataPage applies the resource filters and paging', async () => {
    const m = await call(s, admin, 'POST', `/api/es/index/mapping?id=${indexId}`);
    expect(m.status).toBe(200);
    expect(m.body.data.mapping).toMatchObject({ indexName: INDEX, properties: { name: { weight: 'A' } } });
    await until('rebuilt', async () => (await call(s, admin, 'GET', `/api/blade-job/job/detail?id=${m.body.data.jobId}`)).body.data?.status === 'done');
    expect((await call(s, admin, 'GET', `/api/es/index/detail?id=${indexId}`)).body.data).toMatchObject({ indexStatus: 2, progress: 100 });
    const page = await call(s, admin, 'POST', '/api/es/index/getDataPage?current=1&size=1', { indexName: INDEX, keyword: `储粮 ${TAG}` });
    expect(page.status).toBe(200);
    expect(page.body.data).toMatchObject({ total: 2, size: 1, current: 1, pages: 2 });
    expect(page.body.data.records).toHaveLength(1);
    const p2 = await call(s, admin, 'POST', '/api/es/index/getDataPage?current=2&size=1', { indexName: INDEX, keyword: `储粮 ${TAG}` });
    expect(p2.body.data.records[0].id).not.toBe(page.body.data.records[0].id);
    const filtered = await call(s, admin, 'POST', '/api/es/index/getDataPage?current=1&size=10', { indexName: INDEX, keyword: `储粮 ${TAG}`, filters: { name: '通风' } });
    expect(ids(filtered.body)).toEqual([patents.apart]);
    const bad = await call(s, admin, 'POST', '/api/es/index/getDataPage', { indexName: INDEX, keyword: '储粮', filters: { nope: 1 } });
    expect(bad.status).toBe(400);
  });

  it('answers a repeated search from the result cache until a write changes what it read; no-cache and another tenant get their own page', async () => {
    const keyword = `设备 ${TAG}`;
    const first = await searchData(admin, keyword);
    expect(first.res.headers['x-search-cache']).toBe('miss');
    expect(ids(first.body)).toEqual([patents.other]);
    const again = await searchData(admin, keyword);
    expect(again.res.headers['x-search-cache']).toBe('hit');
    expect(again.body.data).toEqual(first.body.data);
    const fresh = await call(s, admin, 'GET', `/api/es/index/searchData?indexName=${INDEX}&keyword=${encodeURIComponent(keyword)}`, undefined, { 'cache-control': 'no-cache' });
    expect(fresh.res.headers['x-search-cache']).toBe('miss');
    expect(ids(fresh.body)).toEqual([patents.other]);
    // a write that no index reads leaves the cached page alone
    const param = await call(s, admin, 'POST', '/api/blade-system/param/submit', { paramName: '检索缓存', paramKey: `${TAG}cache`, paramValue: '1' });
    expect(param.status, JSON.stringify(param.body)).toBe(200);
    expect((await call(s, admin, 'POST', `/api/blade-system/param/remove?ids=${param.body.data.id}`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 300)); // any notification would have arrived
    expect((await searchData(admin, keyword)).res.headers['x-search-cache']).toBe('hit');
    // the same words from another tenant: its own (empty) page, not the cached one
    const o = await call(s, other, 'GET', `/api/es/index/searchData?keyword=${encodeURIComponent(keyword)}`);
    expect(o.body.data.records).toEqual([]);
    // an add, an edit and a removal each show in the very next search
    await addPatent('device', '储粮设备');
    const added = await searchData(admin, keyword);
    expect(added.res.headers['x-search-cache']).toBe('miss');
    expect(ids(added.body)).toEqual([patents.other, patents.device].sort());
    const detail = (await call(s, admin, 'GET', `/api/basic/patent/detail?id=${patents.device}`)).body.data;
    const edit = await call(s, admin, 'POST', '/api/basic/patent/submit', { ...detail, name: `${TAG} 储粮装置` });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect(ids((await searchData(admin, keyword)).body)).toEqual([patents.other]);
    expect(ids((await searchData(admin, `装置 ${TAG}`)).body)).toEqual([patents.before, patents.device].sort());
    expect((await call(s, admin, 'POST', `/api/basic/patent/remove?ids=${patents.device}`)).status).toBe(200);
    expect(ids((await searchData(admin, `装置 ${TAG}`)).body)).toEqual([patents.before]);
  });

  it('ranks the first 100 matches for the pages within them (total bounded there) and 1,000 for a page past them', async () => {
    // 240 copies of one patent, renamed to share a word of their own, indexed by the rebuild job
    const word = `${TAG}窗`;
    await s.kernel.database.pool.query(
      `INSERT INTO basic_patent SELECT (jsonb_populate_record(NULL::basic_patent, to_jsonb(p) || jsonb_build_object('id', p.id + g, 'name', $2 || ' 第' || g || '号'))).*
         FROM basic_patent p, generate_series(1, 240) AS g WHERE p.id = $1::bigint`,
      [patents.other, word],
    );
    const m = await call(s, admin, 'POST', `/api/es/index/mapping?id=${indexId}`);
    await until('rebuilt', async () => (await call(s, admin, 'GET', `/api/blade-job/job/detail?id=${m.body.data.jobId}`)).body.data?.status === 'done');
    const first = await call(s, admin, 'POST', '/api/es/index/getDataPage?current=1&size=10', { indexName: INDEX, keyword: word });
    expect(first.body.data).toMatchObject({ total: 100, totalBounded: true, pages: 10 });
    const past = await call(s, admin, 'POST', '/api/es/index/getDataPage?current=21&size=10', { indexName: INDEX, keyword: word });
    expect(past.body.data).toMatchObject({ total: 240, current: 21, pages: 24 });
    expect(past.body.data.totalBounded).toBeUndefined();
    expect(past.body.data.records).toHaveLength(10);
    await s.kernel.database.pool.query(`DELETE FROM basic_patent WHERE name LIKE $1`, [`${word}%`]);
    await s.kernel.database.pool.query(`DELETE FROM search_document WHERE title LIKE $1`, [`${word}%`]);
  });

  it('a dictionary word changes segmentation and results (re-segmented by a job); a stop word leaves queries', async () => {
    const before = await call(s, admin, 'GET', `/api/es/ikdic/analyze?text=${encodeURIComponent('绿色储粮新方法')}`);
    expect(before.body.data.words.slice(0, 2)).toEqual(['绿色', '储粮']);
    const w = await call(s, admin, 'POST', '/api/es/ikdic/submit', { word: '绿色储粮', wordType: 1 });
    expect(w.status, JSON.stringify(w.body)).toBe(200);
    const after = await call(s, admin, 'GET', `/api/es/ikdic/analyze?text=${encodeURIComponent('绿色储粮新方法')}`);
    expect(after.body.data.words[0]).toBe('绿色储粮');
    const job = await until('re-segmentation done', async () => {
      const l = await call(s, admin, 'GET', '/api/blade-job/job/list?kind=search-resegment');
      return (l.body.data as Json[]).find((j) => j.status === 'done' && (j.result?.documents ?? 0) >= 1);
    });
    expect(job.progress).toBe(100);
    const r = await searchData(admin, `绿色储粮 ${TAG}`);
    expect(r.body.data.words).toEqual(['绿色储粮', TAG]);
    expect(ids(r.body)).toEqual([patents.before]);
    expect(r.body.data.records[0].highlight).toContain('<em>绿色储粮</em>');
    // a stop word is dropped from queries: only the tag is left to match
    const stop = await call(s, admin, 'POST', '/api/es/ikdic/submit', { word: '干燥', wordType: 2 });
    expect(stop.status).toBe(200);
    const r2 = await searchData(admin, `干燥 ${TAG}`);
    expect(r2.body.data.words).toEqual([TAG]);
    await call(s, admin, 'POST', `/api/es/ikdic/remove?ids=${stop.body.data.id}`);
  });

  it('the grain-storage lexicon keeps its words whole; a changed lexicon re-segments the documents holding its changed words', async () => {
    await addPatent('lexicon', '浅圆仓粮情测控系统');
    const r = await searchData(admin, `浅圆仓 ${TAG}`);
    expect(r.body.data.words).toEqual(['浅圆仓', TAG]);
    expect(ids(r.body)).toEqual([patents.lexicon]);
    expect(r.body.data.records[0].highlight).toContain('<em>浅圆仓</em>');
    // an upgrade that adds a word: the documents holding it are re-segmented by a job of the tenant (the system's)
    const db = s.kernel.database.db;
    const word = `${TAG}浅圆仓`;
    expect(await syncLexicon(db, s.kernel.jobs, [...DOMAIN_WORDS, word])).toEqual([word]);
    const docs = await countRows(s, 'search_document', 'record_id = $1', [patents.lexicon]);
    expect(docs).toBeGreaterThanOrEqual(1); // this index and the tenant's default patent index
    const job = await until('lexicon re-segmentation done', async () =>
      (await s.kernel.jobs.list(systemOwner('000000'), { kind: 'search-resegment', ref: 'lexicon' })).find((j) => j.status === 'done' && j.title?.includes(word)),
    );
    expect(job.result).toMatchObject({ documents: docs, written: docs });
    // a person's job list does not show it
    expect((await call(s, admin, 'GET', '/api/blade-job/job/list?ref=lexicon')).body.data).toEqual([]);
    // back to the shipped list; once recorded, a start changes nothing
    await syncLexicon(db, s.kernel.jobs);
    expect(await syncLexicon(db, s.kernel.jobs)).toEqual([]);
    const row = await s.kernel.database.pool.query('SELECT words FROM search_lexicon');
    expect(row.rows.map((x) => x.words)).toEqual([[...DOMAIN_WORDS].sort()]);
  });

  it('non-administrators get 403 on the admin calls; another tenant finds nothing', async () => {
    for (const [m, u] of [['POST', `/api/es/index/mapping?id=${indexId}`], ['GET', `/api/es/index/getMapping?id=${indexId}`], ['GET', '/api/es/ikdic/list'], ['POST', '/api/es/ikdic/submit']] as const) {
      const r = await call(s, kyry, m, u, m === 'POST' ? { word: `${TAG}停`, wordType: 2 } : undefined);
      expect(r.status, u).toBe(403);
    }
    expect(await countRows(s, 'es_ikdic', 'word = $1', [`${TAG}停`])).toBe(0);
    const o = await call(s, other, 'GET', `/api/es/index/searchData?keyword=${encodeURIComponent(`绿色储粮 ${TAG}`)}`);
    expect(o.status).toBe(200);
    expect(o.body.data.records).toEqual([]);
    expect((await call(s, other, 'GET', `/api/es/index/getMapping?id=${indexId}`)).status).toBe(404);
    expect((await call(s, other, 'GET', `/api/es/index/searchData?indexName=${INDEX}&keyword=x`)).status).toBe(404);
    expect((await call(s, null, 'GET', `/api/es/index/searchData?keyword=x`)).status).toBe(401);
  });
});
