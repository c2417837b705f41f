/**
 * Journal, CNKI and portal records (issue 14; spec 001 §7 "/portal/{product}portaljournal, …portalcnki,
 * …portal"): the generic CRUD of the three schemas with `portalRecord`; import-qikan of a journal catalogue
 * workbook and of CNKI RefWorks / EndNote / NoteExpress exports (a job, get-import-qikan-status); deleteRuplicate
 * keeps the oldest of each group; export-to-portal(-one) copies records into portal content drafts once;
 * deleteAll; bad input refused with the user's message and nothing stored; another tenant sees and touches
 * nothing; a role without the menu gets 403.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let admin: Session;
let kygl: Session;
let kyry: Session;
let other: Session;
const TAG = `pr${Date.now().toString(36)}`;
const J = '/api/portal/kcportaljournal';
const C = '/api/portal/kcportalcnki';
const P = '/api/portal/kcportal';
let channelId = '';

function multipart(fields: Record<string, string>, file?: { name: string; content: Buffer }) {
  const boundary = `----kc${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`), file.content, Buffer.from('\r\n'));
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const upload = (who: Session, resource: string, file?: { name: string; content: Buffer }) => {
  const m = multipart({ resource }, file);
  return call(s, who, 'POST', '/api/portal/content/import-qikan', m.payload, m.headers);
};

const REFWORKS = `\uFEFFRT Journal Article\r\nSR 1\r\nA1 张明;李华;\r\nAD 国家粮食和物资储备局科学研究院;\r\nT1 ${TAG} 浅圆仓低温储粮的试验研究\r\nJF 粮油食品科技\r\nYR 2021\r\nIS 03\r\nvo 29\r\nOP 101-106\r\nK1 低温储粮;浅圆仓;谷冷机\r\nAB 以浅圆仓为对象，研究谷冷机降温\r\n效果。\r\nSN 1007-7561\r\nLK https://kns.cnki.net/x1\r\n\r\nRT Journal Article\r\nA1 王强\r\nT1 ${TAG} 稻谷储藏品质变化\r\nJF 粮食储藏\r\nYR 2020\r\nK1 稻谷;品质\r\n`;
const ENDNOTE = `%0 Journal Article\n%A 赵敏\n%A 钱进\n%+ 河南工业大学\n%T ${TAG} 氮气气调储粮技术应用\n%J 粮食与饲料工业\n%D 2019\n%V 12\n%N 4\n%K 氮气气调;储粮\n%X 介绍氮气气调的应用。\n%P 1-4\n%@ 1003-6202\n`;
const NOTEEXPRESS = `{Reference Type}: Journal Article\n{Title}: ${TAG} 储粮害虫综合防治\n{Author}: 孙立;周海;\n{Journal}: 中国粮油学报\n{Year}: 2022\n{Keywords}: 害虫;防治;\n{Abstract}: 综述储粮害虫防治方法。\n`;

async function journalBook(rows: string[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('期刊目录');
  ws.addRow(['刊名', 'ISSN', 'CN号', '主办单位', '核心收录', '不相关的列']);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

beforeAll(async () => {
  s = await testServer();
  [admin, kygl, kyry, other] = await Promise.all([login(s, 'admin'), login(s, 'kygl'), login(s, 'kyry'), login(s, 'admin', { tenantId: '100001' })]);
  const c = await call(s, admin, 'POST', '/api/portal/channel/submit', { title: `${TAG} 文献`, path: `${TAG}-papers` });
  expect(c.status, JSON.stringify(c.body)).toBe(200);
  channelId = c.body.data.id;
});
afterAll(async () => {
  await s?.close();
});

describe('journal, CNKI and portal records', () => {
  it('imports a journal catalogue workbook by its headings; bad files are refused storing nothing', async () => {
    const book = await journalBook([
      [`${TAG} 粮油食品科技`, '1007-7561', '11-3863/TS', '国家粮食和物资储备局科学研究院', '北大核心', 'x'],
      [`${TAG} 粮食储藏`, '1000-6958', '32-1263/S', '国贸工程设计院', '', 'y'],
    ]);
    const r = await upload(kygl, 'portal/journal', { name: '期刊目录.xlsx', content: book });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toMatchObject({ status: 'done', read: 2, written: 2, failed: 0 });
    expect(r.body.msg).toBe('导入完成：成功 2 条，失败 0 条');
    const st = await call(s, kygl, 'GET', `/api/portal/content/get-import-qikan-status?jobId=${r.body.data.jobId}`);
    expect(st.body.data).toMatchObject({ status: 'done', progress: 100, read: 2, written: 2 });
    expect((await call(s, other, 'GET', `/api/portal/content/get-import-qikan-status?jobId=${r.body.data.jobId}`)).status).toBe(404);
    const list = await call(s, kygl, 'GET', `${J}/list?journalName=${encodeURIComponent(TAG)}&size=10`);
    expect(list.body.data.total).toBe(2);
    expect(list.body.data.records.find((x: Json) => x.issn === '1007-7561')).toMatchObject({ cn: '11-3863/TS', coreCatalog: '北大核心', exported: 0 });

    const before = await countRows(s, 'portal_journal', 'journal_name LIKE $1', [`${TAG}%`]);
    const renamed = await upload(kygl, 'portal/journal', { name: 'a.txt', content: Buffer.from(REFWORKS) });
    expect(renamed.status).toBe(400);
    expect(renamed.body.msg).toBe('文件格式错误');
    const fake = await upload(kygl, 'portal/journal', { name: 'b.xlsx', content: Buffer.from('not a workbook') });
    expect(fake.body.msg).toBe('文件格式错误');
    const noHead = await upload(kygl, 'portal/journal', { name: 'c.xlsx', content: await (async () => {
      const wb = new ExcelJS.Workbook();
      wb.addWorksheet('x').addRow(['甲', '乙']);
      return Buffer.from(await wb.xlsx.writeBuffer());
    })() });
    expect(noHead.status).toBe(400);
    expect(noHead.body.msg).toBe('文件中没有可导入的数据');
    const none = await upload(kygl, 'portal/journal');
    expect(none.status).toBe(400);
    expect(none.body.msg).toBe('请选择要上传的文件');
    expect((await upload(kygl, 'portal/content', { name: 'a.txt', content: Buffer.from(REFWORKS) })).status).toBe(400);
    expect(await countRows(s, 'portal_journal', 'journal_name LIKE $1', [`${TAG}%`])).toBe(before);
  });

  it('imports CNKI RefWorks, EndNote and NoteExpress exports into CNKI records', async () => {
    for (const [name, text, n] of [['refworks.txt', REFWORKS, 2], ['endnote.txt', ENDNOTE, 1], ['ne.net', NOTEEXPRESS, 1]] as const) {
      const r = await upload(kygl, 'portal/cnki', { name, content: Buffer.from(text) });
      expect(r.status, `${name} ${JSON.stringify(r.body)}`).toBe(200);
      expect(r.body.data).toMatchObject({ read: n, written: n, failed: 0 });
    }
    const rows = (await call(s, kygl, 'GET', `${C}/list?title=${encodeURIComponent(TAG)}&size=20`)).body.data.records as Json[];
    expect(rows).toHaveLength(4);
    expect(rows.find((x) => x.title.includes('浅圆仓'))).toMatchObject({
      authors: '张明;李华', institution: '国家粮食和物资储备局科学研究院', source: '粮油食品科技', year: '2021', issue: '03', volume: '29',
      pages: '101-106', keywords: '低温储粮;浅圆仓;谷冷机', abstract: '以浅圆仓为对象，研究谷冷机降温效果。', issn: '1007-7561', url: 'https://kns.cnki.net/x1',
    });
    expect(rows.find((x) => x.title.includes('氮气'))).toMatchObject({ authors: '赵敏;钱进', source: '粮食与饲料工业', year: '2019', issue: '4', issn: '1003-6202' });
    expect(rows.find((x) => x.title.includes('害虫'))).toMatchObject({ authors: '孙立;周海', source: '中国粮油学报', keywords: '害虫;防治' });
    const xlsx = await upload(kygl, 'portal/cnki', { name: 'j.xlsx', content: await journalBook([['x', '1', '2', '3', '4', '5']]) });
    expect(xlsx.body.msg).toBe('文件格式错误');
    expect((await call(s, other, 'GET', `${C}/list?title=${encodeURIComponent(TAG)}`)).body.data.total).toBe(0);
  });

  it('deleteRuplicate keeps the oldest of each group; another tenant’s call touches nothing', async () => {
    const again = await upload(kygl, 'portal/cnki', { name: 'refworks.txt', content: Buffer.from(REFWORKS) });
    expect(again.body.data.written).toBe(2);
    const where = ['title LIKE $1 AND is_deleted = 0', [`${TAG}%`]] as const;
    expect(await countRows(s, 'portal_cnki', where[0], [...where[1]])).toBe(6);
    const oldest = (await s.kernel.database.pool.query(`SELECT id::text FROM portal_cnki WHERE title = $1 ORDER BY create_time, id LIMIT 1`, [`${TAG} 浅圆仓低温储粮的试验研究`])).rows[0].id;
    const foreign = await call(s, other, 'POST', `${C}/deleteRuplicate`);
    expect(foreign.status).toBe(200);
    expect(await countRows(s, 'portal_cnki', where[0], [...where[1]])).toBe(6);
    const d = await call(s, kygl, 'POST', `${C}/deleteRuplicate`);
    expect(d.status, JSON.stringify(d.body)).toBe(200);
    expect(d.body.data).toBeGreaterThanOrEqual(2);
    expect(await countRows(s, 'portal_cnki', where[0], [...where[1]])).toBe(4);
    expect(await countRows(s, 'portal_cnki', 'id = $1 AND is_deleted = 0', [oldest])).toBe(1);
    expect((await call(s, kyry, 'POST', `${C}/deleteRuplicate`)).status).toBe(403);
  });

  it('export-to-portal copies records into content drafts once; bad input stores nothing', async () => {
    const rows = (await call(s, kygl, 'GET', `${C}/list?title=${encodeURIComponent(TAG)}&size=20`)).body.data.records as Json[];
    const ids = rows.map((x) => x.id);
    const contents = () => countRows(s, 'portal_content', 'title LIKE $1', [`${TAG}%`]);
    const noChannel = await call(s, kygl, 'POST', `${C}/export-to-portal`, { ids });
    expect(noChannel.status).toBe(400);
    expect(noChannel.body.msg).toBe('请选择发布到的栏目');
    expect((await call(s, kygl, 'POST', `${C}/export-to-portal`, { ids: [], channelId })).body.msg).toBe('请选择至少一条数据');
    expect((await call(s, kygl, 'POST', `${C}/export-to-portal`, { ids, channelId: '123456789' })).body.msg).toBe('栏目不存在');
    expect((await call(s, kygl, 'POST', `${C}/export-to-portal`, { ids: ['x'], channelId })).status).toBe(400);
    expect((await call(s, other, 'POST', `${C}/export-to-portal`, { ids, channelId })).status).toBeGreaterThanOrEqual(400);
    expect(await contents()).toBe(0);

    const one = rows.find((x) => x.title.includes('浅圆仓'))!;
    const r1 = await call(s, kygl, 'POST', `${C}/export-to-portal-one`, { id: one.id, channelId });
    expect(r1.status, JSON.stringify(r1.body)).toBe(200);
    expect(r1.body.data).toMatchObject({ exported: 1, skipped: 0 });
    const c = await call(s, kygl, 'GET', `/api/portal/content/detail?id=${r1.body.data.contentIds[0]}`);
    expect(c.body.data).toMatchObject({ title: one.title, author: '张明;李华', source: '粮油食品科技', tag: '低温储粮;浅圆仓;谷冷机', channelId, contentStatus: '0' });
    expect(c.body.data.content).toBe('<p>以浅圆仓为对象，研究谷冷机降温效果。</p>');
    expect((await call(s, kygl, 'GET', `${C}/detail?id=${one.id}`)).body.data).toMatchObject({ exported: 1, contentId: r1.body.data.contentIds[0] });

    const all = await call(s, kygl, 'POST', `${C}/export-to-portal`, { ids, channelId });
    expect(all.body.data).toMatchObject({ exported: ids.length - 1, skipped: 1 });
    expect(all.body.msg).toBe(`已发布到门户 ${ids.length - 1} 条，跳过已发布 1 条`);
    expect(await contents()).toBe(ids.length);
    expect((await call(s, kyry, 'POST', `${C}/export-to-portal-one`, { id: one.id, channelId })).status).toBe(403);
  });

  it('portal records: CRUD by the schema, export with a rich-text body, deleteAll of the tenant only', async () => {
    const bad = await call(s, kygl, 'POST', `${P}/submit`, { title: '', source: `${TAG} 来源` });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('请输入标题');
    expect(await countRows(s, 'portal_record', 'source = $1', [`${TAG} 来源`])).toBe(0);
    const a = await call(s, kygl, 'POST', `${P}/submit`, { title: `${TAG} 门户数据`, source: '粮储网', content: '<p>正文<script>x()</script></p>', publishDate: '2024-05-01' });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    const ex = await call(s, kygl, 'POST', `${P}/export-to-portal-one`, { id: a.body.data.id, channelId });
    const c = await call(s, kygl, 'GET', `/api/portal/content/detail?id=${ex.body.data.contentIds[0]}`);
    expect(c.body.data.content).toBe('<p>正文</p>');
    const j = await call(s, kygl, 'GET', `${J}/list?journalName=${encodeURIComponent(TAG)}`);
    expect(j.body.data.total).toBe(2);
    const fo = await call(s, other, 'POST', `${J}/deleteAll`);
    expect(fo.status).toBe(200);
    expect(await countRows(s, 'portal_journal', 'journal_name LIKE $1 AND is_deleted = 0', [`${TAG}%`])).toBe(2);
    expect((await call(s, kyry, 'POST', `${J}/deleteAll`)).status).toBe(403);
    const del = await call(s, kygl, 'POST', `${J}/deleteAll`);
    expect(del.status).toBe(200);
    expect(del.body.data).toBeGreaterThanOrEqual(2);
    expect(await countRows(s, 'portal_journal', 'journal_name LIKE $1 AND is_deleted = 0', [`${TAG}%`])).toBe(0);
  });
});
