/**
 * Bidding smart documents (issue 17; spec 002 §2 smart-document screens, §7 smartdoc/biddingbaseinfo,
 * biddingcatalogue, userfilescope; src/server/modules/smartdoc): a project with its leader and cooperating
 * users (list, myProject, myCooperationProject through the engine key userLists), a tender document analysed
 * into chapters, scoring, qualification and deadline items, the catalogue edited and the writing assigned per
 * chapter, chapter documents created by initSave, who may read or edit which chapter (and the online editor's
 * file rule), and the chapters merged into one .docx in order. Every call: another tenant sees nothing, a role
 * without the grant gets 403, bad input gets its message and stores nothing.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import mammoth from 'mammoth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer, uploadFile } from './helpers.js';
import { chapterText, tenderDocument, wordDoc } from './smartdoc-fixtures.js';
import { pdf } from './duplicate-fixtures.js';
import { fileAccessOf } from '../../src/server/core/file-access.js';
import type { AuthUser } from '../../src/server/core/context.js';

const B = '/api/smartdoc/biddingbaseinfo';
const C = '/api/smartdoc/biddingcatalogue';
const S = '/api/smartdoc/userfilescope';
const TAG = `bid${Date.now().toString(36)}`;

let s: TestServer;
let xmfzr: Session; // the leader
let kyry: Session; // a cooperating user, writer of one chapter
let duo: Session; // a bidder with no part in the project
let zj: Session; // an expert: no grant on bidding
let other: Session; // administrator of tenant 100001
let project: Json;

const upload = (who: Session, fileName: string, bytes: Buffer): Promise<Json> => uploadFile(s, who, fileName, bytes);

/** Every entry of a catalogue tree, depth first. */
const flat = (tree: Json[]): Json[] => tree.flatMap((e) => [e, ...flat(e.children ?? [])]);
const live = (table: string, projectId: string) => countRows(s, table, 'project_id = $1 AND is_deleted = 0', [projectId]);
const asUser = (who: Session): AuthUser => ({ tenantId: '000000', userId: who.userId, deptId: who.deptId, account: '', userName: '', realName: '', nickName: '', clientId: 'saber', jti: '', exp: 0, roleIds: who.roleIds, roleAliases: [], activeRoleIds: who.roleIds, activeRoleAliases: [], isAdmin: false });

beforeAll(async () => {
  s = await testServer();
  [xmfzr, kyry, duo, zj] = await Promise.all(['xmfzr', 'kyry', 'duo', 'zj'].map((a) => login(s, a)));
  other = await login(s, 'admin', { tenantId: '100001' });
});
afterAll(async () => {
  await s?.close();
});

describe('bidding projects', () => {
  it('a project names its leader and cooperating users; myProject and myCooperationProject find it', async () => {
    const tender = await upload(xmfzr, `${TAG} 招标文件.docx`, await tenderDocument(TAG));
    const res = await call(s, xmfzr, 'POST', `${B}/submit`, {
      projectName: `${TAG} 华北粮库智能化升级改造项目`, tenderNo: 'HB-2026-017', tenderer: '粮储集团有限公司',
      leaderId: xmfzr.userId, cooperationUserIds: [kyry.userId],
      tenderFile: [{ name: tender.name, link: tender.link, originalName: tender.originalName }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    project = res.body.data;
    expect(project.projectStatus).toBe('1');
    const ids = (r: { body: Json }) => (r.body.data.records as Json[]).map((p) => p.id);
    expect(ids(await call(s, xmfzr, 'GET', `${B}/myProject?size=200`))).toContain(project.id);
    expect(ids(await call(s, kyry, 'GET', `${B}/myProject?size=200`))).not.toContain(project.id);
    expect(ids(await call(s, kyry, 'GET', `${B}/myCooperationProject?size=200&projectName=${encodeURIComponent(TAG)}`))).toEqual([project.id]);
    expect(ids(await call(s, xmfzr, 'GET', `${B}/myCooperationProject?size=200`))).not.toContain(project.id);
    expect(ids(await call(s, duo, 'GET', `${B}/list?size=200`))).toContain(project.id); // readers of bidding see the tenant's projects
    expect((await call(s, xmfzr, 'GET', `${B}/detail?id=${project.id}`)).body.data.cooperationUserIds).toEqual([kyry.userId]);
  });

  it('another tenant sees nothing, a role without the grant gets 403', async () => {
    expect((await call(s, other, 'GET', `${B}/detail?id=${project.id}`)).status).toBe(404);
    expect((await call(s, other, 'GET', `${B}/list?size=200&projectName=${TAG}`)).body.data.total).toBe(0);
    expect((await call(s, other, 'GET', `${B}/myProject`)).body.data.total).toBe(0);
    for (const url of [`${B}/list`, `${B}/myProject`, `${B}/myCooperationProject`, `${B}/detail?id=${project.id}`]) {
      expect((await call(s, zj, 'GET', url)).status, url).toBe(403);
    }
    expect((await call(s, null, 'GET', `${B}/myProject`)).status).toBe(401);
  });

  it('bad input is refused with its message and stores nothing; only the managers edit or remove', async () => {
    const before = await countRows(s, 'smartdoc_bidding_base_info', 'tenant_id = $1', ['000000']);
    const noName = await call(s, xmfzr, 'POST', `${B}/submit`, { leaderId: xmfzr.userId });
    expect(noName.status).toBe(400);
    expect(noName.body.msg).toBe('请输入项目名称');
    const noLeader = await call(s, xmfzr, 'POST', `${B}/submit`, { projectName: `${TAG} 无负责人` });
    expect(noLeader.body.msg).toBe('请选择项目负责人');
    const foreignUser = await call(s, xmfzr, 'POST', `${B}/submit`, { projectName: `${TAG} 外部协作`, leaderId: xmfzr.userId, cooperationUserIds: [other.userId] });
    expect(foreignUser.status).toBe(400);
    expect(foreignUser.body.msg).toBe('协作人员不存在');
    expect(await countRows(s, 'smartdoc_bidding_base_info', 'tenant_id = $1', ['000000'])).toBe(before);
    const edit = await call(s, kyry, 'POST', `${B}/submit`, { ...project, projectName: `${TAG} 改名` });
    expect(edit.status).toBe(403);
    expect(edit.body.msg).toBe('只有项目负责人可以进行此操作');
    expect((await call(s, kyry, 'POST', `${B}/remove?ids=${project.id}`)).status).toBe(403);
    expect((await call(s, xmfzr, 'GET', `${B}/detail?id=${project.id}`)).body.data.projectName).toBe(project.projectName);
  });
});

describe('analysis-file', () => {
  it('refuses what is not a tender document with its message, keeping the catalogue empty', async () => {
    const txt = await upload(xmfzr, `${TAG}.txt`, Buffer.from('投标须知'));
    const wrong = await call(s, xmfzr, 'POST', `${B}/analysis-file?id=${project.id}&fileId=${txt.attachId}`);
    expect(wrong.status).toBe(400);
    expect(wrong.body.msg).toBe('招标文件只支持 .docx、.pdf 格式，不支持 .txt');
    const plain = await upload(xmfzr, `${TAG} 无章节.docx`, await wordDoc([{ p: '本文件没有章节标题。' }]));
    const noHeading = await call(s, xmfzr, 'POST', `${B}/analysis-file?id=${project.id}&fileId=${plain.attachId}`);
    expect(noHeading.body.msg).toBe(`未能从文件「${TAG} 无章节.docx」中识别出章节标题`);
    // a PDF is read through unpdf: this one (ASCII lines, no numbered heading) has no chapters
    const scan = await upload(xmfzr, `${TAG} 公告.pdf`, pdf(['Tender notice', 'No chapters here']));
    expect((await call(s, xmfzr, 'POST', `${B}/analysis-file?id=${project.id}&fileId=${scan.attachId}`)).body.msg).toBe(`未能从文件「${TAG} 公告.pdf」中识别出章节标题`);
    expect((await call(s, xmfzr, 'POST', `${B}/analysis-file?id=${project.id}&fileId=abc`)).body.msg).toBe('参数 fileId 的值无效');
    expect(await live('smartdoc_bidding_catalogue', project.id)).toBe(0);
    expect((await call(s, kyry, 'POST', `${B}/analysis-file?id=${project.id}`)).body.msg).toBe('只有项目负责人可以进行此操作');
    expect((await call(s, zj, 'POST', `${B}/analysis-file?id=${project.id}`)).status).toBe(403);
    expect((await call(s, other, 'POST', `${B}/analysis-file?id=${project.id}`)).status).toBe(404);
    const bare = await call(s, xmfzr, 'POST', `${B}/submit`, { projectName: `${TAG} 未上传`, leaderId: xmfzr.userId });
    expect((await call(s, xmfzr, 'POST', `${B}/analysis-file?id=${bare.body.data.id}`)).body.msg).toBe('请先上传招标文件');
  });

  it('turns the tender document into its chapters, scoring, qualification and deadline items', async () => {
    const res = await call(s, xmfzr, 'POST', `${B}/analysis-file?id=${project.id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const tree = res.body.data as Json[];
    expect(tree.map((c) => c.title)).toEqual(['第一章 招标公告', '第二章 投标人须知', '第三章 评标办法', '第四章 投标文件格式']);
    expect(tree.every((c) => c.itemType === 'chapter' && c.level === 1 && c.parentId === '0')).toBe(true);
    expect(tree[0].children.map((c: Json) => c.title)).toEqual(['一、项目概况', '二、投标文件的递交']);
    const scoring = tree[2].children.filter((c: Json) => c.itemType === 'scoring');
    expect(scoring.map((c: Json) => [c.title, Number(c.score)])).toEqual([['技术方案', 40], ['项目业绩', 20], ['投标报价', 30], ['售后服务', 10]]);
    expect(scoring[1].content).toBe('近三年每提供一个粮库智能化业绩得5分，最多20分');
    const qualification = flat(tree).filter((c) => c.itemType === 'qualification');
    expect(qualification.map((c) => c.title)).toEqual(['投标人须具有独立法人资格，持有有效的营业执照。', '投标人须具备电子与智能化工程专业承包二级及以上资质。', '营业执照', '资质证书']);
    const review = tree[2].children.find((c: Json) => c.title === '一、资格审查');
    expect(review.children.map((c: Json) => c.itemType)).toEqual(['qualification', 'qualification']);
    const deadlines = flat(tree).filter((c) => c.itemType === 'deadline');
    expect(deadlines.map((c) => c.deadlineTime)).toEqual(['2026-12-20 09:30:00', '2026-12-20 09:30:00', '2026-12-10 17:00:00']);
    expect(deadlines[2].title).toBe('投标人要求澄清招标文件的截止时间');
    const saved = (await call(s, xmfzr, 'GET', `${B}/detail?id=${project.id}`)).body.data;
    expect(saved.projectStatus).toBe('2');
    expect(saved.deadline).toBe('2026-12-20 09:30:00');
    // analysing again replaces the catalogue, never doubles it
    const again = await call(s, xmfzr, 'POST', `${B}/analysis-file?id=${project.id}`);
    expect(flat(again.body.data)).toHaveLength(flat(tree).length);
    expect(await live('smartdoc_bidding_catalogue', project.id)).toBe(flat(tree).length);
  });
});

describe('a long tender', () => {
  it('stores every item of a tender with hundreds of them, in document order', async () => {
    const rows = Array.from({ length: 240 }, (_, i) => [String(i + 1), `评分因素${i + 1}`, String((i % 5) + 1), `标准${i + 1}`]);
    const file = await upload(xmfzr, `${TAG} 长招标文件.docx`, await wordDoc([{ h: 1, text: '第一章 评分标准' }, { table: [['序号', '评分因素', '分值', '评分标准'], ...rows] }, { h: 1, text: '第二章 合同条款' }]));
    const bare = await call(s, xmfzr, 'POST', `${B}/submit`, { projectName: `${TAG} 长招标项目`, leaderId: xmfzr.userId });
    const res = await call(s, xmfzr, 'POST', `${B}/analysis-file?id=${bare.body.data.id}&fileId=${file.attachId}`);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body.data.map((c: Json) => c.title)).toEqual(['第一章 评分标准', '第二章 合同条款']);
    const items = res.body.data[0].children as Json[];
    expect(items).toHaveLength(240);
    expect(items.map((c) => c.title)).toEqual(rows.map((r) => r[1]));
    expect(items.reduce((n, c) => n + Number(c.score), 0)).toBe(rows.reduce((n, r) => n + Number(r[2]), 0));
    expect(await live('smartdoc_bidding_catalogue', bare.body.data.id)).toBe(242);
  });
});

describe('catalogue, writing tasks and chapter documents', () => {
  let tree: Json[];
  const chapter = (title: string) => tree.find((c) => c.title === title)!;

  it('batchSave edits the catalogue and assigns a writer per chapter, all or nothing', async () => {
    tree = (await call(s, xmfzr, 'GET', `${C}/getProjectCatalogue?projectId=${project.id}`)).body.data;
    const third = chapter('第三章 评标办法');
    const before = await live('smartdoc_bidding_catalogue', project.id);
    const bad = await call(s, xmfzr, 'POST', `${C}/batchSave`, { projectId: project.id, records: [{ id: third.id, title: third.title, itemType: 'chapter', writerId: kyry.userId }, { title: '', itemType: 'chapter' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('请输入标题');
    expect((await call(s, xmfzr, 'GET', `${C}/getProjectCatalogue?projectId=${project.id}`)).body.data.find((c: Json) => c.id === third.id).writerId).toBeNull();
    const res = await call(s, xmfzr, 'POST', `${C}/batchSave`, {
      projectId: project.id,
      records: [
        { ...third, children: undefined, writerId: kyry.userId },
        { title: '第五章 技术方案', itemType: 'chapter', level: 1, sort: 10000, parentId: '0', writerId: kyry.userId },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    tree = res.body.data;
    expect(tree.map((c) => c.title)).toEqual(['第一章 招标公告', '第二章 投标人须知', '第三章 评标办法', '第四章 投标文件格式', '第五章 技术方案']);
    expect(chapter('第三章 评标办法').writerId).toBe(kyry.userId);
    expect(await live('smartdoc_bidding_catalogue', project.id)).toBe(before + 1);
    // kyry is not a manager; an entry of another project is refused; other tenants and roles without the grant
    expect((await call(s, kyry, 'POST', `${C}/batchSave`, { projectId: project.id, records: [{ title: '越权', itemType: 'chapter' }] })).body.msg).toBe('只有项目负责人可以进行此操作');
    const bare = await call(s, xmfzr, 'POST', `${B}/submit`, { projectName: `${TAG} 另一项目`, leaderId: xmfzr.userId });
    const foreign = await call(s, xmfzr, 'POST', `${C}/batchSave`, { projectId: bare.body.data.id, records: [{ id: third.id, title: '挪用', itemType: 'chapter' }] });
    expect(foreign.body.msg).toBe('目录不属于该投标项目');
    expect(await live('smartdoc_bidding_catalogue', bare.body.data.id)).toBe(0);
    expect((await call(s, zj, 'GET', `${C}/getProjectCatalogue?projectId=${project.id}`)).status).toBe(403);
    expect((await call(s, other, 'GET', `${C}/getProjectCatalogue?projectId=${project.id}`)).status).toBe(404);
    expect((await call(s, other, 'POST', `${C}/batchSave`, { projectId: project.id, records: [{ title: 'x', itemType: 'chapter' }] })).status).toBe(404);
    expect((await call(s, xmfzr, 'POST', `${C}/batchSave`, { projectId: project.id, records: [] })).body.msg).toBe('请至少提交一条目录');
    // ids that are none answer 400 with the parameter's name, never a 500
    expect((await call(s, xmfzr, 'GET', `${C}/getProjectCatalogue?projectId=abc`)).body.msg).toBe('参数 projectId 的值无效');
    expect((await call(s, xmfzr, 'GET', `${C}/getFileCatalogue`)).body.msg).toBe('缺少参数 projectId');
    expect((await call(s, xmfzr, 'GET', `${B}/merge?id=99999999999999999999`)).status).toBe(400);
    expect((await call(s, xmfzr, 'POST', `${S}/deleteOne?id=x`)).body.msg).toBe('参数 id 的值无效');
    expect((await call(s, xmfzr, 'POST', `${C}/batchSave`, { projectId: project.id, records: [{ id: third.id, title: 't', itemType: 'chapter', parentId: 'x1' }] })).body.msg).toBe('上级目录无效');
    expect((await call(s, xmfzr, 'POST', `${C}/batchSave`, { projectId: project.id, records: [{ title: 't', itemType: 'chapter', writerId: '123' }] })).body.msg).toBe('编写人不存在');
  });

  it('initSave gives every chapter its document; the writer sees and edits only theirs', async () => {
    const res = await call(s, xmfzr, 'POST', `${B}/initSave`, { id: project.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.projectStatus).toBe('3');
    const files = (await call(s, xmfzr, 'GET', `${C}/getFileCatalogue?projectId=${project.id}`)).body.data as Json[];
    const chapters = flat((await call(s, xmfzr, 'GET', `${C}/getProjectCatalogue?projectId=${project.id}`)).body.data).filter((c) => c.itemType === 'chapter');
    expect(files.map((f) => f.title)).toEqual(chapters.map((c) => c.title));
    expect(files.every((f) => /^\d+$/.test(f.fileId) && f.canEdit && f.fileName.endsWith('.docx'))).toBe(true);
    // a second initSave creates nothing new
    const attachments = await countRows(s, 'blade_attach', 'tenant_id = $1', ['000000']);
    await call(s, xmfzr, 'POST', `${B}/initSave`, { id: project.id });
    expect(await countRows(s, 'blade_attach', 'tenant_id = $1', ['000000'])).toBe(attachments);
    const mine = (await call(s, kyry, 'GET', `${C}/getFileCatalogue?projectId=${project.id}`)).body.data as Json[];
    expect(mine.map((f) => [f.title, f.canEdit])).toEqual([['第三章 评标办法', true], ['第五章 技术方案', true]]);
    expect((await call(s, duo, 'GET', `${C}/getFileCatalogue?projectId=${project.id}`)).body.data).toEqual([]);
    const seenByDuo = flat((await call(s, duo, 'GET', `${C}/getProjectCatalogue?projectId=${project.id}`)).body.data);
    expect(seenByDuo.every((c) => c.fileId === null && c.canRead === false)).toBe(true);
    const badInit = await call(s, xmfzr, 'POST', `${B}/initSave`, { id: project.id, projectName: '' });
    expect(badInit.body.msg).toBe('请输入项目名称');
    expect((await call(s, kyry, 'POST', `${B}/initSave`, { id: project.id })).body.msg).toBe('只有项目负责人可以进行此操作');
    expect((await call(s, other, 'POST', `${B}/initSave`, { id: project.id })).status).toBe(404);
    // once chapters have documents the tender document is not analysed again
    expect((await call(s, xmfzr, 'POST', `${B}/analysis-file?id=${project.id}`)).body.msg).toBe('已开始编写的项目不能重新解析招标文件');
  });
});

describe('user file scope', () => {
  let files: Json[];
  const byTitle = (t: string) => files.find((f) => f.title === t)!;

  it('saveChange gives a user read or edit on chapters; myScope and the editor rule follow it', async () => {
    files = (await call(s, xmfzr, 'GET', `${C}/getFileCatalogue?projectId=${project.id}`)).body.data;
    const first = byTitle('第一章 招标公告');
    const second = byTitle('第二章 投标人须知');
    const rule = fileAccessOf(s.kernel);
    const stored = (id: string) => ({ id, tenantId: '000000', name: '', originalName: '', extension: 'docx', size: 0, createUser: xmfzr.userId });
    expect(await rule.allows(asUser(kyry), stored(first.fileId), 'read')).toBe(false);
    const res = await call(s, xmfzr, 'POST', `${S}/saveChange`, { projectId: project.id, userId: kyry.userId, scopes: [{ catalogueId: first.id, scopeType: 'read' }, { catalogueId: second.id, scopeType: 'edit' }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const scope = (await call(s, kyry, 'GET', `${S}/myScope?projectId=${project.id}`)).body.data as Json[];
    expect(scope.map((c) => [c.title, c.canEdit])).toEqual([['第一章 招标公告', false], ['第二章 投标人须知', true], ['第三章 评标办法', true], ['第五章 技术方案', true]]);
    expect(scope.every((c) => c.projectName === project.projectName && /^\d+$/.test(c.fileId))).toBe(true);
    const everywhere = (await call(s, kyry, 'GET', `${S}/myScope`)).body.data as Json[];
    expect(everywhere.filter((c) => c.projectId === project.id)).toHaveLength(4);
    // the online editor's file rule (core/file-access.ts): read on the first chapter, edit on the second, nothing for duo
    expect(await rule.allows(asUser(kyry), stored(first.fileId), 'read')).toBe(true);
    expect(await rule.allows(asUser(kyry), stored(first.fileId), 'edit')).toBe(false);
    expect(await rule.allows(asUser(kyry), stored(second.fileId), 'edit')).toBe(true);
    expect(await rule.allows(asUser(duo), stored(first.fileId), 'read')).toBe(false);
    expect(await rule.allows(asUser(xmfzr), stored(first.fileId), 'edit')).toBe(true);
    // the files module's downloads ask the same rule: kyry reads the first chapter, duo reads no chapter
    const link = (await s.kernel.database.pool.query('SELECT name, link FROM blade_attach WHERE id = $1::bigint', [first.fileId])).rows[0];
    expect((await call(s, kyry, 'POST', `/api/blade-resource/oss/endpoint/download?name=${encodeURIComponent(link.name)}`)).status).toBe(200);
    const refused = await call(s, duo, 'POST', `/api/blade-resource/oss/endpoint/download?name=${encodeURIComponent(link.name)}`);
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe('您没有查看该文档的权限');
    expect((await call(s, duo, 'GET', link.link)).status).toBe(403);
    expect((await call(s, duo, 'POST', '/api/blade-resource/oss/endpoint/downloadZip', [link.name])).status).toBe(403);
    expect((await call(s, xmfzr, 'GET', link.link)).status).toBe(200);
    const rows = (await call(s, xmfzr, 'GET', `${S}/project-user-file-scope?projectId=${project.id}`)).body.data as Json[];
    expect(rows.map((r) => [r.catalogueTitle, r.userName, r.scopeType])).toEqual([['第一章 招标公告', '刘研', 'read'], ['第二章 投标人须知', '刘研', 'edit']]);
    // saveChange replaces the user's rows: only the first chapter, now to edit
    await call(s, xmfzr, 'POST', `${S}/saveChange`, { projectId: project.id, userId: kyry.userId, scopes: [{ catalogueId: first.id, scopeType: 'edit' }] });
    const after = (await call(s, xmfzr, 'GET', `${S}/project-user-file-scope?projectId=${project.id}`)).body.data as Json[];
    expect(after.map((r) => [r.catalogueTitle, r.scopeType])).toEqual([['第一章 招标公告', 'edit']]);
    expect(await rule.allows(asUser(kyry), stored(second.fileId), 'read')).toBe(false);
    // deleteOne takes it away
    expect((await call(s, kyry, 'POST', `${S}/deleteOne?id=${after[0].id}`)).body.msg).toBe('只有项目负责人可以进行此操作');
    expect((await call(s, other, 'POST', `${S}/deleteOne?id=${after[0].id}`)).status).toBe(404);
    expect((await call(s, xmfzr, 'POST', `${S}/deleteOne?id=${after[0].id}`)).status).toBe(200);
    expect((await call(s, xmfzr, 'POST', `${S}/deleteOne?id=${after[0].id}`)).body.msg).toBe('权限记录不存在');
    expect(await live('smartdoc_user_file_scope', project.id)).toBe(0);
    expect((await call(s, kyry, 'GET', `${S}/myScope?projectId=${project.id}`)).body.data.map((c: Json) => c.title)).toEqual(['第三章 评标办法', '第五章 技术方案']);
  });

  it('bad input, other tenants and roles without the grant change nothing', async () => {
    const first = byTitle('第一章 招标公告');
    const badType = await call(s, xmfzr, 'POST', `${S}/saveChange`, { projectId: project.id, userId: kyry.userId, scopes: [{ catalogueId: first.id, scopeType: 'write' }] });
    expect(badType.status).toBe(400);
    expect(badType.body.msg).toBe('权限的取值无效');
    const noType = await call(s, xmfzr, 'POST', `${S}/saveChange`, { projectId: project.id, userId: kyry.userId, scopes: [{ catalogueId: first.id }] });
    expect(noType.body.msg).toBe('请选择权限');
    const noUser = await call(s, xmfzr, 'POST', `${S}/saveChange`, { projectId: project.id, scopes: [{ catalogueId: first.id, scopeType: 'read' }] });
    expect(noUser.body.msg).toBe('请选择用户');
    const foreignUser = await call(s, xmfzr, 'POST', `${S}/saveChange`, { projectId: project.id, userId: other.userId, scopes: [{ catalogueId: first.id, scopeType: 'read' }] });
    expect(foreignUser.body.msg).toBe('用户不存在');
    const bare = await call(s, xmfzr, 'POST', `${B}/submit`, { projectName: `${TAG} 权限项目`, leaderId: xmfzr.userId });
    const foreignChapter = await call(s, xmfzr, 'POST', `${S}/saveChange`, { projectId: bare.body.data.id, userId: kyry.userId, scopes: [{ catalogueId: first.id, scopeType: 'read' }] });
    expect(foreignChapter.body.msg).toBe('目录不属于该投标项目');
    expect((await call(s, kyry, 'POST', `${S}/saveChange`, { projectId: project.id, userId: kyry.userId, scopes: [{ catalogueId: first.id, scopeType: 'edit' }] })).body.msg).toBe('只有项目负责人可以进行此操作');
    expect((await call(s, kyry, 'GET', `${S}/project-user-file-scope?projectId=${project.id}`)).status).toBe(403);
    expect((await call(s, other, 'POST', `${S}/saveChange`, { projectId: project.id, userId: other.userId, scopes: [] })).status).toBe(404);
    expect((await call(s, other, 'GET', `${S}/myScope`)).body.data).toEqual([]);
    expect((await call(s, other, 'GET', `${S}/myScope?projectId=${project.id}`)).status).toBe(404);
    for (const url of [`${S}/myScope`, `${S}/project-user-file-scope?projectId=${project.id}`]) expect((await call(s, zj, 'GET', url)).status).toBe(403);
    expect((await call(s, zj, 'POST', `${S}/deleteOne?id=1`)).status).toBe(403);
    expect(await countRows(s, 'smartdoc_user_file_scope', 'project_id = ANY($1) AND is_deleted = 0', [[project.id, bare.body.data.id]])).toBe(0);
  });
});

describe('merge', () => {
  it('merges the chapters, written separately, into one .docx in catalogue order', async () => {
    const files = (await call(s, xmfzr, 'GET', `${C}/getFileCatalogue?projectId=${project.id}`)).body.data as Json[];
    // each writer's save (the online editor keeps the file id and replaces its current bytes: modules/files/editor.ts)
    for (const [i, f] of files.entries()) {
      const row = (await s.kernel.database.pool.query('SELECT name FROM blade_attach WHERE id = $1::bigint', [f.fileId])).rows[0];
      await fs.writeFile(path.join(s.kernel.config.dataDir, 'files', row.name), await chapterText(f.title, [`${TAG} 第${i + 1}部分正文：${f.title}的投标内容。`]));
    }
    const res = await call(s, xmfzr, 'GET', `${B}/merge?id=${project.id}`);
    expect(res.status).toBe(200);
    expect(res.res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(res.res.headers['content-disposition']).toContain(encodeURIComponent(`${project.projectName}.docx`));
    const text = (await mammoth.extractRawText({ buffer: res.res.rawPayload })).value;
    const at = files.map((f, i) => text.indexOf(`${TAG} 第${i + 1}部分正文：${f.title}的投标内容。`));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    const html = (await mammoth.convertToHtml({ buffer: res.res.rawPayload })).value;
    expect(html.match(/<h1>/g)).toHaveLength(files.length); // each chapter's heading kept its style
    expect((await call(s, kyry, 'GET', `${B}/merge?id=${project.id}`)).body.msg).toBe('只有项目负责人可以进行此操作');
    expect((await call(s, zj, 'GET', `${B}/merge?id=${project.id}`)).status).toBe(403);
    expect((await call(s, other, 'GET', `${B}/merge?id=${project.id}`)).status).toBe(404);
    const bare = await call(s, xmfzr, 'POST', `${B}/submit`, { projectName: `${TAG} 空项目`, leaderId: xmfzr.userId });
    expect((await call(s, xmfzr, 'GET', `${B}/merge?id=${bare.body.data.id}`)).body.msg).toBe('还没有可合并的章节文档');
  });

  it('the leader removes the project; its chapters are then nobody’s to read', async () => {
    const chapter = (await call(s, xmfzr, 'GET', `${C}/getFileCatalogue?projectId=${project.id}`)).body.data[0] as Json;
    const { name: stored } = (await s.kernel.database.pool.query('SELECT name FROM blade_attach WHERE id = $1::bigint', [chapter.fileId])).rows[0];
    expect((await call(s, xmfzr, 'POST', `${B}/remove?ids=${project.id}`)).status).toBe(200);
    const gone = await call(s, xmfzr, 'POST', `/api/blade-resource/oss/endpoint/download?name=${encodeURIComponent(stored)}`);
    expect(gone.status).toBe(404);
    expect(gone.body.msg).toBe('投标项目不存在');
    expect((await call(s, xmfzr, 'GET', `${B}/detail?id=${project.id}`)).status).toBe(404);
    expect((await call(s, kyry, 'GET', `${C}/getFileCatalogue?projectId=${project.id}`)).status).toBe(404);
  });
});
