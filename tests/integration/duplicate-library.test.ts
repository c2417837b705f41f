/**
 * Duplicate checking, the choices of a task (issue 15): normalisation makes a copy with other punctuation,
 * full-width letters and digits and extra blanks 100 %; a folder library lists that folder's files only; the
 * libraries of projects (a guide's attachment) and of portal content (an article's text) find their sources
 * with links to the records; the seeded MinHash and SimHash algorithms find a near-duplicate through the
 * API; an algorithm's thresholds (shortest passage, report threshold, sources listed) take effect; the job's
 * progress reaches 100; checkRepeat is refused (403) to a role without the project menu.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';
import { researchText, rng } from '../bench/duplicate-corpus.js';
import { coreOf, normaliseText } from '../../src/server/modules/duplicate/text.js';
import { docx, duplicateFixtures } from './duplicate-fixtures.js';

let s: TestServer;
let admin: Session;
let zj: Session; // expert: no project declaration menu
let fx: ReturnType<typeof duplicateFixtures>;

const TAG = `dupl${Date.now().toString(36)}`;
const BASE = normaliseText(researchText(rng(11), 3000));
const OTHER = normaliseText(researchText(rng(12), 1600));
const PROJECT_TEXT = normaliseText(researchText(rng(13), 1200));
const PORTAL_TEXT = normaliseText(researchText(rng(14), 1200));
const UNRELATED = '春天来了，公园里的桃花和樱花竞相开放，孩子们在草地上放风筝，老人们在湖边打太极拳，到处是一片欢声笑语。周末的早晨，街角的面包店飘出阵阵香气，咖啡馆里坐满了看书和聊天的年轻人。';

/** `text` written another way: ASCII letters and digits full-width, Chinese punctuation half-width, blanks added. */
function rewritten(text: string): string {
  const wide = text.replace(/[A-Za-z0-9]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
  const halfPunct = wide.replace(/，/g, ', ').replace(/。/g, '. ').replace(/；/g, ';').replace(/：/g, ':');
  return halfPunct.replace(/(.{37})/g, '$1\u3000');
}

/** A passage of `text` of about `n` characters starting after the sentence end after `from`. */
function passageOf(text: string, from: number, n: number): string {
  const cut = text.indexOf('。', from) + 1;
  return text.slice(cut, cut + n);
}

const task = (extra: Json) => fx.runTask(admin, { name: `${TAG} 任务`, library: ['file'], ...extra });
/** The passages of `result` from the source document `documentId`. */
const passagesFrom = (file: Json, documentId: string) => (file.passages as Json[]).filter((p) => p.sourceDocumentId === documentId);

beforeAll(async () => {
  s = await testServer();
  fx = duplicateFixtures(s);
  [admin, zj] = await Promise.all([login(s, 'admin'), login(s, 'zj')]);
});
afterAll(async () => {
  await s?.close();
});

describe('the text compared and the folder library', () => {
  let base: Json;
  let variant: Json;
  let elsewhere: Json;

  beforeAll(async () => {
    base = await fx.addText(admin, '基准.txt', BASE, `${TAG}-a`);
    variant = await fx.addText(admin, '改写格式.txt', rewritten(BASE), `${TAG}-q`);
    elsewhere = await fx.addText(admin, '另一文件夹的副本.txt', BASE, `${TAG}-b`);
  });

  it('punctuation, full-width letters and digits and blanks do not hide a copy: 100 %; the job reports its progress', async () => {
    const stored = (await s.kernel.database.pool.query('SELECT content FROM duplicate_document WHERE id = $1::bigint', [variant.documentId])).rows[0].content as string;
    expect(stored).not.toMatch(/[Ａ-Ｚａ-ｚ０-９\u3000]/); // NFKC: half-width, ideographic spaces gone
    expect(coreOf(stored).core).toBe(coreOf(BASE).core);
    const r = await task({ fileIds: [variant.id], libraryFolder: `${TAG}-a` });
    const f = r.files[0];
    expect(f.similarity).toBe(100);
    expect(f.sources.map((x: Json) => x.documentId)).toEqual([base.documentId]);
    expect(f.sources[0].similarity).toBe(100);
    expect(r.task).toMatchObject({ taskStatus: 2, progress: 100, similarity: 100 });
    const job = (await call(s, admin, 'GET', `/api/blade-job/job/detail?id=${r.task.jobId}`)).body.data;
    expect(job).toMatchObject({ status: 'done', progress: 100, readCount: 1, writtenCount: 1 });
  });

  it('a folder library lists that folder’s files only; all files lists every folder', async () => {
    const inA = await task({ fileIds: [variant.id], libraryFolder: `${TAG}-a` });
    expect(inA.files[0].sources.map((x: Json) => x.documentId)).not.toContain(elsewhere.documentId);
    const inB = await task({ fileIds: [variant.id], libraryFolder: `${TAG}-b` });
    expect(inB.files[0].sources.map((x: Json) => x.documentId)).toEqual([elsewhere.documentId]);
    const all = await task({ fileIds: [variant.id] });
    expect(all.files[0].sources.map((x: Json) => x.documentId)).toEqual(expect.arrayContaining([base.documentId, elsewhere.documentId]));
  });
});

describe('libraries of projects and of portal content', () => {
  let guideId: string;
  let attachLink: string;
  let contentId: string;
  let article: Json;
  let query: Json;
  const fromProject = passageOf(PROJECT_TEXT, 300, 150);
  const fromPortal = passageOf(PORTAL_TEXT, 500, 120);

  beforeAll(async () => {
    const item = await fx.upload(admin, '指南正文.docx', docx(PROJECT_TEXT));
    attachLink = item.link;
    const g = await call(s, admin, 'POST', '/api/project/guide/submit', {
      name: `${TAG} 指南`, guideYear: 2027, guideArea: '2', startDate: '2027-01-01', deadline: '2027-03-31', topics: '智能粮库', eligibility: '集团所属企业', annex: [item],
    });
    expect(g.status, JSON.stringify(g.body)).toBe(200);
    guideId = String(g.body.data.id);
    const c = await call(s, admin, 'POST', '/api/portal/channel/submit', { title: `${TAG} 栏目`, path: `${TAG}-news` });
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    article = {
      channelId: c.body.data.id, title: `${TAG} 门户文章`, author: '刘研', source: '粮储研究院',
      content: PORTAL_TEXT.split('\n').map((p) => `<p>${p}</p>`).join(''),
    };
    const a = await call(s, admin, 'POST', '/api/portal/content/submit', article);
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    contentId = String(a.body.data.id);
    query = await fx.addText(admin, '新稿.txt', `${UNRELATED}${fromProject}${UNRELATED}${fromPortal}${UNRELATED}`, `${TAG}-q`);
  });

  it('projects: the guide’s attachment is a source, linked to its file and its record; portal content is not in it', async () => {
    const r = await task({ fileIds: [query.id], library: ['project'] });
    const f = r.files[0];
    const src = f.sources.find((x: Json) => x.resource === 'project/guide' && x.recordId === guideId);
    expect(src, JSON.stringify(f.sources)).toMatchObject({ sourceType: 'attach', title: `${TAG} 指南：指南正文.docx`, link: attachLink });
    expect(f.sources.some((x: Json) => x.resource === 'portal/content')).toBe(false);
    const p = passagesFrom(f, src.documentId);
    const text = (await call(s, admin, 'GET', `/api/duplicate/duplicatetask/getText?id=${r.task.id}&documentId=${src.documentId}`)).body.data;
    expect(text).toMatchObject({ resource: 'project/guide', recordId: guideId });
    expect(p.map((x) => coreOf(text.content.slice(x.sourceStart, x.sourceEnd)).core).join('')).toBe(coreOf(fromProject).core);
  });

  it('portal content: the article’s text is a source linked to its record; both libraries together list both', async () => {
    const r = await task({ fileIds: [query.id], library: ['portal'] });
    const f = r.files[0];
    const src = f.sources.find((x: Json) => x.resource === 'portal/content' && x.recordId === contentId);
    expect(src, JSON.stringify(f.sources)).toMatchObject({ sourceType: 'record', title: `${TAG} 门户文章` });
    expect(f.sources.some((x: Json) => x.resource === 'project/guide')).toBe(false);
    const p = passagesFrom(f, src.documentId);
    expect(p.map((x) => coreOf(`${UNRELATED}${fromProject}${UNRELATED}${fromPortal}`.slice(x.start, x.end)).core).join('')).toBe(coreOf(fromPortal).core);
    const both = await task({ fileIds: [query.id], library: ['project', 'portal'] });
    const ids = both.files[0].sources.map((x: Json) => x.recordId);
    expect(ids).toEqual(expect.arrayContaining([guideId, contentId]));
    // unchanged records keep their stored documents
    expect(both.files[0].sources.find((x: Json) => x.recordId === contentId).documentId).toBe(src.documentId);
    // the article renamed (its title is part of its text): the next task names it so
    const renamed = await call(s, admin, 'POST', '/api/portal/content/submit', { ...article, id: contentId, title: `${TAG} 门户文章（修订）` });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const again = (await task({ fileIds: [query.id], library: ['portal'] })).files[0].sources.find((x: Json) => x.recordId === contentId);
    expect(again).toMatchObject({ sourceType: 'record', title: `${TAG} 门户文章（修订）` });
    expect(await countRows(s, 'duplicate_document', `source_type = 'record' AND source_key = $1 AND is_deleted = 0`, [`portal/content:${contentId}`])).toBe(1);
  });
});

describe('algorithms and thresholds', () => {
  let base: Json;
  let near: Json;
  let unrelated: Json;
  let planted: Json;
  const created: string[] = [];
  const passage = passageOf(BASE, 900, 160);

  const algorithm = async (body: Json): Promise<string> => {
    const res = await call(s, admin, 'POST', '/api/duplicate/duplicatealgorithm/submit', { name: `${TAG} ${created.length}`, algorithmType: 'winnowing', gramSize: 8, windowSize: 8, minLength: 20, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    created.push(String(res.body.data.id));
    return String(res.body.data.id);
  };

  beforeAll(async () => {
    base = await fx.addText(admin, '原文.txt', BASE, `${TAG}-lib`);
    unrelated = await fx.addText(admin, '散文.txt', UNRELATED, `${TAG}-lib`);
    // a near-duplicate: three characters changed far apart
    const chars = [...BASE];
    for (const at of [700, 1500, 2300]) chars[at] = chars[at] === '某' ? '甲' : '某';
    near = await fx.addText(admin, '近似稿.txt', chars.join(''), `${TAG}-n`);
    planted = await fx.addText(admin, '引用稿.txt', OTHER.slice(0, 800) + passage + OTHER.slice(800), `${TAG}-lib`);
  });
  afterAll(async () => {
    if (created.length) await call(s, admin, 'POST', `/api/duplicate/duplicatealgorithm/remove?ids=${created.join(',')}`);
  });

  it('the seeded MinHash and SimHash algorithms find the near-duplicate and nothing for unrelated text', async () => {
    const seeded = (await call(s, admin, 'GET', '/api/duplicate/duplicatealgorithm/list?size=50')).body.data.records as Json[];
    for (const kind of ['minhash', 'simhash']) {
      const a = seeded.find((x) => x.algorithmType === kind && !String(x.name).startsWith(TAG));
      expect(a, kind).toBeTruthy();
      const r = await task({ fileIds: [near.id], libraryFolder: `${TAG}-lib`, algorithmId: a!.id });
      const f = r.files[0];
      expect(f.sources[0]?.documentId, kind).toBe(base.documentId);
      expect(f.similarity, kind).toBeGreaterThan(95);
      expect(f.similarity, kind).toBeLessThan(100);
      expect(f.sources.map((x: Json) => x.documentId), kind).not.toContain(unrelated.documentId);
      const u = await task({ fileIds: [unrelated.id], libraryFolder: `${TAG}-lib`, algorithmId: a!.id });
      expect(u.files[0].similarity, kind).toBe(0);
      expect(u.files[0].sources, kind).toEqual([]);
    }
  });

  it('the shortest passage: a 160-character copy is found with 20 and not with 200', async () => {
    const dflt = await task({ fileIds: [planted.id], libraryFolder: `${TAG}-lib` });
    const found = passagesFrom(dflt.files[0], base.documentId);
    expect(found.length).toBeGreaterThan(0);
    expect(Math.max(...found.map((p) => p.length))).toBeGreaterThanOrEqual(coreOf(passage).core.length - 2);
    const long = await task({ fileIds: [planted.id], libraryFolder: `${TAG}-lib`, algorithmId: await algorithm({ minLength: 200 }) });
    expect(passagesFrom(long.files[0], base.documentId)).toEqual([]);
    expect(long.files[0].sources.map((x: Json) => x.documentId)).not.toContain(base.documentId);
  });

  it('the report threshold leaves out less similar sources; sources listed caps the list, not the count', async () => {
    // the planted text covers a few per cent of the base
    const lib = await task({ fileIds: [base.id], libraryFolder: `${TAG}-lib` });
    const share = lib.files[0].sources.find((x: Json) => x.documentId === planted.documentId)?.similarity;
    expect(share).toBeGreaterThan(1);
    expect(share).toBeLessThan(10);
    // the near copy (≈100 %) and the planted text in one folder: both listed by default
    const moved = await call(s, admin, 'POST', '/api/duplicate/file/submit', { id: planted.id, folder: `${TAG}-n` });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const two = await task({ fileIds: [base.id], libraryFolder: `${TAG}-n` });
    expect(two.files[0].sources.map((x: Json) => x.documentId)).toEqual([near.documentId, planted.documentId]);
    // threshold 50 keeps the near copy only, its passages only
    const ratio = await task({ fileIds: [base.id], libraryFolder: `${TAG}-n`, algorithmId: await algorithm({ reportRatio: 50 }) });
    expect(ratio.files[0].sources.map((x: Json) => x.documentId)).toEqual([near.documentId]);
    expect(ratio.files[0].sourceCount).toBe(1);
    expect(ratio.files[0].passages.every((p: Json) => p.sourceDocumentId === near.documentId)).toBe(true);
    const top = await task({ fileIds: [base.id], libraryFolder: `${TAG}-n`, algorithmId: await algorithm({ topSources: 1 }) });
    expect(top.files[0].sources.map((x: Json) => x.documentId)).toEqual([near.documentId]);
    expect(top.files[0].sourceCount).toBe(2);
  });
});

describe('bad parameters of the result calls', () => {
  it('a missing or malformed id, a document the result does not name, an unfinished task: a message, never a 500', async () => {
    const R = '/api/duplicate/duplicatetask';
    const missing = await call(s, admin, 'GET', `${R}/getResult`);
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toBe('缺少参数 id');
    const bad = await call(s, admin, 'GET', `${R}/getResult?id=x1`);
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('参数 id 的值无效');
    expect((await call(s, admin, 'GET', `${R}/getResult?id=123456789`)).status).toBe(404);
    // a finished task of ours: getText of a document its result does not name is 404, a malformed one 400
    const f = await fx.addText(admin, '单独.txt', UNRELATED, `${TAG}-x`);
    const r = await task({ fileIds: [f.id], libraryFolder: `${TAG}-x` });
    expect((await call(s, admin, 'GET', `${R}/getText?id=${r.task.id}&documentId=${f.documentId}`)).status).toBe(200);
    expect((await call(s, admin, 'GET', `${R}/getText?id=${r.task.id}&documentId=123456789`)).status).toBe(404);
    const noDoc = await call(s, admin, 'GET', `${R}/getText?id=${r.task.id}`);
    expect(noDoc.status).toBe(400);
    expect(noDoc.body.msg).toBe('缺少参数 documentId');
    // a task still queued (written directly: the job would finish it at once) has no report yet
    const id = String(BigInt(r.task.id) + 11n);
    await s.kernel.database.pool.query(
      `INSERT INTO duplicate_task (id, tenant_id, name, task_status, progress, create_user, create_dept, is_deleted) VALUES ($1::bigint, '000000', $2, 0, 0, $3::bigint, $4::bigint, 0)`,
      [id, `${TAG} 排队`, admin.userId, admin.deptId],
    );
    const early = await call(s, admin, 'GET', `${R}/report?id=${id}`);
    expect(early.status).toBe(400);
    expect(early.body.msg).toBe('查重任务尚未完成，不能下载报告');
    const earlyEn = await call(s, admin, 'GET', `${R}/report?id=${id}`, undefined, { 'accept-language': 'en' });
    expect(earlyEn.body.msg).toBe('The task has not finished: no report yet');
    await s.kernel.database.pool.query('DELETE FROM duplicate_task WHERE id = $1::bigint', [id]);
  });
});

describe('checkRepeat', () => {
  it('a role without the project menu gets 403', async () => {
    const id = (await s.kernel.database.pool.query(`SELECT id::text FROM project_baseinfo WHERE tenant_id = '000000' AND is_deleted = 0 ORDER BY id LIMIT 1`)).rows[0].id;
    const res = await call(s, zj, 'GET', `/api/project/baseinfo/checkRepeat?id=${id}`);
    expect(res.status).toBe(403);
  });
});
