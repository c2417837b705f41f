/**
 * Duplicate checking (issue 15; DESIGN §8; spec 001 §7 /duplicate): files uploaded through put-file and
 * submitted as duplicate/file are extracted (.docx built here with PizZip, .pdf written here, .txt), a .doc, a
 * damaged file or bad input is refused with its message and stores nothing; a task runs as a job and getResult
 * gives the overall and per-source similarity and the passages with offsets in both texts (a copy is 100 %,
 * unrelated texts near 0 %, planted passages found where they were planted, the same figures every time);
 * another tenant's library is never used and its users see nothing; callers without the menus get 403;
 * algorithms are validated; project/baseinfo/checkRepeat checks a project against the other projects.
 */
import PizZip from 'pizzip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, validPatent, type Json, type Session, type TestServer } from './helpers.js';
import { researchText, rng } from '../bench/duplicate-corpus.js';
import { coreOf, normaliseText } from '../../src/server/modules/duplicate/text.js';
import { EXTRACT_MESSAGES } from '../../src/server/modules/duplicate/extract.js';
import { docx, duplicateFixtures, pdf } from './duplicate-fixtures.js';

let s: TestServer;
let admin: Session;
let kygl: Session;
let kyry: Session;
let other: Session; // administrator of tenant 100001

const TAG = `dup${Date.now().toString(36)}`;
let fx: ReturnType<typeof duplicateFixtures>;

const upload = (who: Session, fileName: string, bytes: Buffer) => fx.upload(who, fileName, bytes);
const addFile = (who: Session, fileName: string, bytes: Buffer, folder?: string) => fx.addFile(who, fileName, bytes, folder ?? TAG);
const addText = (who: Session, name: string, text: string, folder?: string) => fx.addText(who, name, text, folder ?? TAG);
/** A task over `fileIds` against the folder TAG (unless `extra` says otherwise), run to the end. */
const runTask = (who: Session, fileIds: string[], extra: Json = {}) => fx.runTask(who, { name: `${TAG} 任务`, fileIds, library: ['file'], libraryFolder: TAG, ...extra });

const lib = rng(7);
const BASE = normaliseText(researchText(lib, 3000));
const OTHER = normaliseText(researchText(rng(99), 2000));
const UNRELATED = '春天来了，公园里的桃花和樱花竞相开放，孩子们在草地上放风筝，老人们在湖边打太极拳，到处是一片欢声笑语。周末的早晨，街角的面包店飘出阵阵香气，咖啡馆里坐满了看书和聊天的年轻人。';

beforeAll(async () => {
  s = await testServer();
  fx = duplicateFixtures(s);
  [admin, kygl, kyry, other] = await Promise.all([login(s, 'admin'), login(s, 'kygl'), login(s, 'kyry'), login(s, 'admin', { tenantId: '100001' })]);
});
afterAll(async () => {
  await s?.close();
});

describe('duplicate files: extraction', () => {
  it('extracts .docx, .pdf and .txt, normalised, and fills name, format and characters', async () => {
    const d = await addFile(admin, '报告.docx', docx('粮食储藏　技术\n第二段：ＡＢＣ１２３'));
    expect(d.status, JSON.stringify(d.body)).toBe(200);
    expect(d.body.data).toMatchObject({ fileName: '报告.docx', extension: 'docx', charCount: '粮食储藏 技术\n第二段:ABC123'.length });
    const p = await addFile(admin, 'paper.pdf', pdf(['Grain storage ventilation study', 'Moisture 13.5 percent']));
    expect(p.status, JSON.stringify(p.body)).toBe(200);
    const t = await addFile(admin, '说明.txt', Buffer.from('\uFEFF低温储粮  节能\r\n\r\n控制', 'utf8'));
    expect(t.status).toBe(200);
    const texts = await s.kernel.database.pool.query(`SELECT id::text, content FROM duplicate_document WHERE id = ANY($1::bigint[]) ORDER BY id`, [[d.body.data.documentId, p.body.data.documentId, t.body.data.documentId]]);
    const byId = new Map(texts.rows.map((r) => [r.id, r.content]));
    expect(byId.get(d.body.data.documentId)).toBe('粮食储藏 技术\n第二段:ABC123');
    expect(byId.get(p.body.data.documentId)).toMatch(/Grain storage ventilation study\s*Moisture 13\.5 percent/);
    expect(byId.get(t.body.data.documentId)).toBe('低温储粮 节能\n控制');
  });

  it('a .doc, a damaged .docx, a damaged .pdf and a file without text are refused with their message, nothing stored', async () => {
    const before = [await countRows(s, 'duplicate_file'), await countRows(s, 'duplicate_document')];
    const ole = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(600, 1)]);
    const doc = await addFile(admin, '旧文档.doc', ole);
    expect(doc.status).toBe(400);
    expect(doc.body.msg).toBe(EXTRACT_MESSAGES.doc.zh);
    const bad = await addFile(admin, '坏文件.docx', Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)]));
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('文件「坏文件.docx」已损坏或无法读取，请检查后重新上传');
    const badPdf = await addFile(admin, 'broken.pdf', Buffer.from('%PDF-1.4\nthis is not a pdf body', 'latin1'));
    expect(badPdf.status).toBe(400);
    expect(badPdf.body.msg).toBe('文件「broken.pdf」已损坏或无法读取，请检查后重新上传');
    const empty = await addFile(admin, '空白.txt', Buffer.from('。，、 ——\n', 'utf8'));
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toBe('文件「空白.txt」中没有可查重的文字（扫描件请先识别文字）');
    expect([await countRows(s, 'duplicate_file'), await countRows(s, 'duplicate_document')]).toEqual(before);
  });

  it('bad input: no file, an unknown file, another tenant’s file — a message, nothing stored', async () => {
    const before = await countRows(s, 'duplicate_file');
    const none = await call(s, admin, 'POST', '/api/duplicate/file/submit', { folder: 'x' });
    expect(none.status).toBe(400);
    expect(JSON.stringify(none.body)).toContain('请上传查重文件');
    const unknown = await call(s, admin, 'POST', '/api/duplicate/file/submit', { attach: [{ name: 'upload/20250101/00000000-0000-4000-8000-000000000000.txt', link: 'x' }] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.msg).toBe('上传的文件不存在，请重新上传');
    const theirs = await upload(other, '他人.txt', Buffer.from(BASE, 'utf8'));
    const foreign = await call(s, admin, 'POST', '/api/duplicate/file/submit', { attach: [theirs] });
    expect(foreign.status).toBe(400);
    expect(foreign.body.msg).toBe('上传的文件不存在，请重新上传');
    expect(await countRows(s, 'duplicate_file')).toBe(before);
  });
});

describe('duplicate tasks', () => {
  let base: Json;
  let copy: Json;
  let planted: Json;
  let unrelated: Json;
  let plantedText: string;
  let passage: string;

  beforeAll(async () => {
    base = await addText(admin, '基准论文.txt', BASE);
    copy = await addText(admin, '基准论文副本.txt', BASE);
    // a new text with one passage of the base planted in its middle
    const cut = BASE.indexOf('。', 900) + 1;
    passage = BASE.slice(cut, cut + 160);
    plantedText = OTHER.slice(0, 1000) + passage + OTHER.slice(1000);
    planted = await addText(admin, '新申报书.txt', plantedText, `${TAG}-q`);
    unrelated = await addText(admin, '散文.txt', UNRELATED, `${TAG}-q`);
  });

  it('a document against its copy is 100 %; the result lists the copy with one passage over the whole text', async () => {
    const r = await runTask(admin, [base.id]);
    const f = r.files[0];
    expect(r.task.taskStatus).toBe(2);
    expect(f.similarity).toBe(100);
    expect(f.sources[0]).toMatchObject({ documentId: copy.documentId, title: '基准论文副本.txt', similarity: 100 });
    const text = await call(s, admin, 'GET', `/api/duplicate/duplicatetask/getText?id=${r.task.id}&documentId=${copy.documentId}`);
    expect(text.status).toBe(200);
    expect(text.body.data.content).toBe(BASE);
  });

  it('a planted passage is found with its offsets in both texts; unrelated text is near 0 %; figures are stable', async () => {
    const r1 = await runTask(admin, [planted.id, unrelated.id]);
    const byDoc = new Map(r1.files.map((f: Json) => [f.documentId, f]));
    const p = byDoc.get(planted.documentId) as Json;
    const u = byDoc.get(unrelated.documentId) as Json;
    expect(u.similarity).toBeLessThan(2);
    const fromBase = p.passages.filter((x: Json) => x.sourceDocumentId === base.documentId || x.sourceDocumentId === copy.documentId);
    expect(fromBase.length).toBeGreaterThan(0);
    const best = fromBase.sort((a: Json, b: Json) => b.end - b.start - (a.end - a.start))[0];
    // the passage sits where it was planted, and reads the same in both texts (letters and digits)
    expect(best.start).toBeGreaterThanOrEqual(1000 - 2);
    expect(best.end).toBeLessThanOrEqual(1000 + passage.length + 2);
    expect(coreOf(plantedText.slice(best.start, best.end)).core).toBe(coreOf(BASE.slice(best.sourceStart, best.sourceEnd)).core);
    expect(coreOf(plantedText.slice(best.start, best.end)).core.length).toBeGreaterThanOrEqual(coreOf(passage).core.length - 2);
    expect(p.similarity).toBeGreaterThan(3);
    expect(p.similarity).toBeLessThan(30);
    const r2 = await runTask(admin, [planted.id, unrelated.id]);
    expect(r2.files).toEqual(r1.files);
  });

  it('the library of achievements: a patent’s attachment is extracted once and found as a source', async () => {
    const item = await upload(admin, '专利说明书.txt', Buffer.from(BASE, 'utf8'));
    const patent = await call(s, admin, 'POST', '/api/basic/patent/submit', { ...validPatent(TAG, admin.deptId), annex: [item] });
    expect(patent.status, JSON.stringify(patent.body)).toBe(200);
    const r = await runTask(admin, [planted.id], { library: ['achievement'] });
    const src = r.files[0].sources.find((x: Json) => x.sourceType === 'attach' && x.recordId === patent.body.data.id);
    expect(src, JSON.stringify(r.files[0].sources)).toBeTruthy();
    expect(src.title).toBe(`${TAG} 一种低温储粮控制方法：专利说明书.txt`);
    expect(src.link).toBe(item.link);
    expect(r.files[0].sources.every((x: Json) => x.sourceType !== 'file')).toBe(true);
    const docs = await countRows(s, 'duplicate_document', `source_type = 'attach' AND source_key = $1 AND is_deleted = 0`, [item.name]);
    await runTask(admin, [planted.id], { library: ['achievement'] });
    expect(await countRows(s, 'duplicate_document', `source_type = 'attach' AND source_key = $1 AND is_deleted = 0`, [item.name])).toBe(docs);
    expect(docs).toBe(1);
    // the source's text is shown to who may read the patent; once the patent is removed, to nobody
    const url = `/api/duplicate/duplicatetask/getText?id=${r.task.id}&documentId=${src.documentId}`;
    expect((await call(s, admin, 'GET', url)).body.data.content).toBe(BASE);
    expect((await call(s, admin, 'POST', `/api/basic/patent/remove?ids=${patent.body.data.id}`)).status).toBe(200);
    const gone = await call(s, admin, 'GET', url);
    expect(gone.status).toBe(403);
    expect(gone.body.msg).toBe('无权查看该来源的内容');
  });

  it('the report downloads as .docx naming the files and passages', async () => {
    const r = await runTask(admin, [planted.id]);
    const res = await call(s, admin, 'GET', `/api/duplicate/duplicatetask/report?id=${r.task.id}`);
    expect(res.status).toBe(200);
    expect(String(res.res.headers['content-type'])).toContain('wordprocessingml');
    const xml = new PizZip(res.res.rawPayload).file('word/document.xml')!.asText();
    expect(xml).toContain('新申报书.txt');
    expect(xml).toContain(`${r.files[0].similarity}%`);
    expect(xml).toContain('总相似度');
    expect(decodeURIComponent(String(res.res.headers['content-disposition']))).toContain('查重报告-');
    // in English for a caller reading English
    const en = await call(s, admin, 'GET', `/api/duplicate/duplicatetask/report?id=${r.task.id}`, undefined, { 'accept-language': 'en' });
    const enXml = new PizZip(en.res.rawPayload).file('word/document.xml')!.asText();
    expect(enXml).toContain('Overall similarity');
    expect(enXml).toContain('新申报书.txt');
    expect(enXml).not.toContain('总相似度');
    expect(decodeURIComponent(String(en.res.headers['content-disposition']))).toContain('Duplicate-check report-');
  });

  it('bad task input: no files, another tenant’s file, an unknown library or algorithm — a message, nothing stored', async () => {
    const before = await countRows(s, 'duplicate_task');
    const theirs = await call(s, other, 'POST', '/api/duplicate/file/submit', { attach: [await upload(other, '他人.txt', Buffer.from(BASE, 'utf8'))] });
    expect(theirs.status).toBe(200);
    const cases: Array<[Json, string]> = [
      [{ name: 'x', library: ['file'] }, '请选择查重文件'],
      [{ name: 'x', fileIds: [theirs.body.data.id], library: ['file'] }, '所选查重文件不存在或已删除'],
      [{ name: 'x', fileIds: [base.id], library: ['web'] }, '比对库的取值无效'],
      [{ name: 'x', fileIds: [base.id], library: ['file'], algorithmId: '123' }, '所选查重算法不存在'],
    ];
    for (const [body, msg] of cases) {
      const res = await call(s, admin, 'POST', '/api/duplicate/duplicatetask/submit', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.body)).toContain(msg);
    }
    expect(await countRows(s, 'duplicate_task')).toBe(before);
  });

  it('another tenant’s library is never used, and its users see nothing of ours', async () => {
    // tenant 100001 holds a copy of the planted text; our check must not list it
    const theirs = await call(s, other, 'POST', '/api/duplicate/file/submit', { attach: [await upload(other, '同文.txt', Buffer.from(plantedText, 'utf8'))], folder: TAG });
    expect(theirs.status).toBe(200);
    const r = await runTask(admin, [planted.id]);
    const ids = new Set(r.files[0].sources.map((x: Json) => x.documentId));
    expect(ids.has(theirs.body.data.documentId)).toBe(false);
    expect(r.files[0].similarity).toBeLessThan(100);
    expect((await call(s, other, 'GET', `/api/duplicate/duplicatetask/getResult?id=${r.task.id}`)).status).toBe(404);
    expect((await call(s, other, 'GET', `/api/duplicate/duplicatetask/getText?id=${r.task.id}&documentId=${planted.documentId}`)).status).toBe(404);
    expect((await call(s, other, 'GET', `/api/duplicate/file/detail?id=${planted.id}`)).status).toBe(404);
    const list = await call(s, other, 'GET', '/api/duplicate/file/options');
    expect(list.body.data.map((x: Json) => x.id)).not.toContain(planted.id);
    // and the other tenant's own task finds its own copy only
    const mine = await call(s, other, 'POST', '/api/duplicate/duplicatetask/submit', { name: 'x', fileIds: [theirs.body.data.id], library: ['file'] });
    expect(mine.status).toBe(200);
  });

  it('callers without the menus get 403; research management may check but not edit algorithms', async () => {
    for (const url of ['/api/duplicate/file/list', '/api/duplicate/duplicatetask/list', '/api/duplicate/file/options', `/api/duplicate/duplicatetask/getResult?id=${base.id}`]) {
      expect((await call(s, kyry, 'GET', url)).status, url).toBe(403);
    }
    expect((await call(s, kygl, 'GET', '/api/duplicate/file/list')).status).toBe(200);
    const before = await countRows(s, 'duplicate_algorithm');
    const res = await call(s, kygl, 'POST', '/api/duplicate/duplicatealgorithm/submit', { name: 'x', algorithmType: 'winnowing', gramSize: 8, minLength: 20 });
    expect(res.status).toBe(403);
    expect(await countRows(s, 'duplicate_algorithm')).toBe(before);
  });
});

describe('duplicate algorithms', () => {
  it('seeded defaults per tenant; MinHash bands must divide the hash functions; one default', async () => {
    const list = await call(s, admin, 'GET', '/api/duplicate/duplicatealgorithm/list?size=50');
    const types = list.body.data.records.map((r: Json) => r.algorithmType);
    expect(types).toEqual(expect.arrayContaining(['winnowing', 'minhash', 'simhash']));
    expect(list.body.data.records.filter((r: Json) => r.isDefault)).toHaveLength(1);
    const dflt = list.body.data.records.find((r: Json) => r.isDefault);
    expect((await call(s, admin, 'GET', '/api/duplicate/duplicatealgorithm/options')).body.data[0].title).toBe(`${dflt.name}（默认）`);
    expect((await call(s, admin, 'GET', '/api/duplicate/duplicatealgorithm/options', undefined, { 'accept-language': 'en' })).body.data[0].title).toBe(`${dflt.name} (default)`);
    const before = await countRows(s, 'duplicate_algorithm');
    const bad = await call(s, admin, 'POST', '/api/duplicate/duplicatealgorithm/submit', { name: `${TAG} mh`, algorithmType: 'minhash', gramSize: 5, hashCount: 100, bandCount: 32, minLength: 20 });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('哈希函数个数必须是 LSH 分段数的整数倍');
    const range = await call(s, admin, 'POST', '/api/duplicate/duplicatealgorithm/submit', { name: `${TAG} k`, algorithmType: 'winnowing', gramSize: 1, minLength: 20 });
    expect(range.status).toBe(400);
    expect(JSON.stringify(range.body)).toContain('k-gram 长度为 2～30');
    expect(await countRows(s, 'duplicate_algorithm')).toBe(before);
    const good = await call(s, admin, 'POST', '/api/duplicate/duplicatealgorithm/submit', { name: `${TAG} 新默认`, algorithmType: 'winnowing', gramSize: 7, windowSize: 6, minLength: 15, isDefault: true });
    expect(good.status).toBe(200);
    const after = await call(s, admin, 'GET', '/api/duplicate/duplicatealgorithm/list?size=50');
    expect(after.body.data.records.filter((r: Json) => r.isDefault).map((r: Json) => r.id)).toEqual([good.body.data.id]);
    await call(s, admin, 'POST', `/api/duplicate/duplicatealgorithm/remove?ids=${good.body.data.id}`);
    const other1 = await call(s, other, 'GET', '/api/duplicate/duplicatealgorithm/list?size=50');
    expect(other1.body.data.records.map((r: Json) => r.id)).not.toContain(good.body.data.id);
  });
});

describe('project/baseinfo/checkRepeat', () => {
  it('a project whose name repeats another project’s is 100 % with that project as the source; its text only for who may read that project', async () => {
    const pool = s.kernel.database.pool;
    const sbdw = await login(s, 'sbdw'); // declaring unit: its own department's projects only
    const demo = (await pool.query(`SELECT id::text, name FROM project_baseinfo WHERE tenant_id = '000000' AND is_deleted = 0 ORDER BY id LIMIT 1`)).rows[0];
    expect((await call(s, sbdw, 'GET', `/api/project/baseinfo/detail?id=${demo.id}`)).status).toBe(404);
    // a second project of the same name by the declaring unit (written directly: this test is about the check, not the project form)
    const id = String(BigInt(demo.id) + 7n);
    await pool.query(`INSERT INTO project_baseinfo (id, tenant_id, name, create_user, create_dept, is_deleted) VALUES ($1::bigint, '000000', $2, $3::bigint, $4::bigint, 0)`, [id, demo.name, sbdw.userId, sbdw.deptId]);
    const chk = await call(s, admin, 'GET', `/api/project/baseinfo/checkRepeat?id=${id}`);
    expect(chk.status, JSON.stringify(chk.body)).toBe(200);
    expect(chk.body.data.similarity).toBe(100);
    expect(chk.body.data.content).toBe(demo.name);
    const src = chk.body.data.sources.find((x: Json) => x.recordId === demo.id);
    expect(src).toMatchObject({ sourceType: 'record', resource: 'project/baseinfo' });
    expect(chk.body.data.sources.map((x: Json) => x.recordId)).not.toContain(id);
    const text = await call(s, admin, 'GET', `/api/project/baseinfo/checkRepeat/text?id=${id}&documentId=${src.documentId}`);
    expect(text.status).toBe(200);
    expect(text.body.data).toMatchObject({ content: demo.name, recordId: demo.id });
    // the declaring unit learns that its project repeats another, but not the other's text
    const mine = await call(s, sbdw, 'GET', `/api/project/baseinfo/checkRepeat?id=${id}`);
    expect(mine.status).toBe(200);
    expect(mine.body.data.sources.map((x: Json) => x.recordId)).toContain(demo.id);
    const hidden = await call(s, sbdw, 'GET', `/api/project/baseinfo/checkRepeat/text?id=${id}&documentId=${src.documentId}`);
    expect(hidden.status).toBe(403);
    expect(hidden.body.msg).toBe('无权查看该来源的内容');
    // a document outside the projects' library (an uploaded file) is not a source of this check
    const file = await addText(admin, '项目外文件.txt', `${demo.name}。${UNRELATED}`);
    expect((await call(s, admin, 'GET', `/api/project/baseinfo/checkRepeat/text?id=${id}&documentId=${file.documentId}`)).status).toBe(404);
    expect((await call(s, other, 'GET', `/api/project/baseinfo/checkRepeat?id=${id}`)).status).toBe(404);
    expect((await call(s, other, 'GET', `/api/project/baseinfo/checkRepeat/text?id=${id}&documentId=${src.documentId}`)).status).toBe(404);
    expect((await call(s, admin, 'GET', `/api/project/baseinfo/checkRepeat?id=abc`)).status).toBe(400);
    await pool.query(`DELETE FROM project_baseinfo WHERE id = $1::bigint`, [id]);
  });
});
