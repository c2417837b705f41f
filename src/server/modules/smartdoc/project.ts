/**
 * The bidding project's own calls (issue 17; spec 002 §7 smartdoc/biddingbaseinfo `analysis-file`, `initSave`;
 * the generic list, myProject, myCooperationProject, detail, submit and remove come from the schema), and the
 * merged bidding document:
 *
 * - `POST analysis-file?id=<project>[&fileId=<attach id>]`: the project's tender document (its `tenderFile`, or
 *   the upload `fileId` of the tenant) analysed into the catalogue (tender.ts): the previous catalogue and its
 *   chapter access are replaced in one transaction; the project becomes 已解析 and takes the bid deadline read
 *   from the document when it has none. Refused once chapters have documents (400 已开始编写的项目不能重新解析招标文件).
 *   Answers the catalogue (catalogue.ts `catalogueTree`).
 * - `POST initSave` (body: the project, as submit; or only its `id`): saves the project (the generic submit, its
 *   checks and messages), then, when its catalogue has chapters, starts the writing — every chapter without a
 *   document gets one (a .docx with its title, docx.ts, stored as an upload, its id in the chapter's `fileId`)
 *   and the project becomes 编写中, in one transaction. Answers the saved project.
 * - `GET merge?id=`: the chapters' documents, their current bytes, in catalogue order, merged into one .docx
 *   (docx.ts `mergeDocx`) and downloaded as 〈项目名称〉.docx; for the project's managers (403 otherwise), 400
 *   还没有可合并的章节文档 when no chapter has a document.
 *
 * Editing and removing a project is for its managers (its leader, its creator, an administrator) beyond the
 * edit / delete grant: 403 只有项目负责人可以进行此操作, nothing changed.
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ok } from '../../core/envelope.js';
import { nextId } from '../../core/ids.js';
import type { ResourceEngine } from '../../resources/engine.js';
import { isId } from '../../../shared/contract/ids.js';
import { assertManager, loadProject } from './chapter-access.js';
import { analyseTender, tenderBlocks, TENDER_MESSAGES } from './tender.js';
import { chapterDocx, mergeDocx } from './docx.js';
import type { BidFiles } from './stored.js';
import { catalogueTree } from './catalogue.js';

export const PROJECT = 'smartdoc/biddingbaseinfo';
export const CATALOGUE = 'smartdoc/biddingcatalogue';
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

export const PROJECT_MESSAGES = {
  noTender: { zh: '请先上传招标文件', en: 'Please upload the tender document first' },
  tenderMissing: { zh: '招标文件不存在或已删除', en: 'The tender document does not exist or was removed' },
  started: { zh: '已开始编写的项目不能重新解析招标文件', en: 'The writing has started: the tender document can no longer be analysed again' },
  nothingToMerge: { zh: '还没有可合并的章节文档', en: 'No chapter has a document to merge yet' },
  chapterMissing: (title: string) => ({ zh: `章节「${title}」的文档不存在或已删除`, en: `The document of the chapter "${title}" does not exist or was removed` }),
};

/** Registers the project hooks and calls of the module comment. */
export function registerProjectCalls(app: FastifyInstance, db: Db, engine: ResourceEngine, files: BidFiles): void {
  const resource = () => engine.registry.resources.get(PROJECT)!;

  engine.hooks(PROJECT, {
    async beforeSubmit({ user, isNew, existing, trx }) {
      if (isNew || !existing) return;
      assertManager(user, await loadProject(trx, user, String(existing.id)));
    },
    async beforeRemove({ user, ids, trx }) {
      for (const id of ids) assertManager(user, await loadProject(trx, user, id));
    },
  });

  app.post(`/api/smartdoc/biddingbaseinfo/analysis-file`, async (req) => {
    const user = await engine.authorize(req.user, resource(), 'edit');
    const q = (req.query ?? {}) as Record<string, unknown>;
    const project = await loadProject(db, user, q.id ?? q.projectId);
    assertManager(user, project);
    let file;
    if (q.fileId !== undefined && q.fileId !== '') {
      if (typeof q.fileId !== 'string' || !isId(q.fileId)) throw new ApiError(400, 'badParam', { param: 'fileId' });
      file = await files.read(user.tenantId, { attachId: q.fileId });
    } else {
      const rec = await engine.findOne(resource(), user, project.id);
      const item = Array.isArray(rec?.tenderFile) ? (rec!.tenderFile[0] as Record<string, unknown> | undefined) : undefined;
      if (!item || typeof item.name !== 'string') throw new ApiError(400, PROJECT_MESSAGES.noTender);
      file = await files.read(user.tenantId, { name: item.name });
    }
    if (!file) throw new ApiError(400, PROJECT_MESSAGES.tenderMissing);
    const items = analyseTender(await tenderBlocks(file.bytes, file.extension, file.originalName));
    if (!items.some((i) => i.itemType === 'chapter')) throw new ApiError(400, TENDER_MESSAGES.noHeading(file.originalName));
    await db.transaction().execute(async (trx) => {
      await sql`SELECT id FROM smartdoc_bidding_base_info WHERE id = ${project.id}::bigint FOR UPDATE`.execute(trx);
      const started = await sql`SELECT 1 FROM smartdoc_bidding_catalogue WHERE tenant_id = ${user.tenantId} AND project_id = ${project.id} AND is_deleted = 0 AND coalesce(file_id, '') <> '' LIMIT 1`.execute(trx);
      if (started.rows.length) throw new ApiError(400, PROJECT_MESSAGES.started);
      await sql`UPDATE smartdoc_user_file_scope SET is_deleted = 1, update_user = ${user.userId}::bigint, update_time = now()
                 WHERE tenant_id = ${user.tenantId} AND project_id = ${project.id} AND is_deleted = 0`.execute(trx);
      await sql`UPDATE smartdoc_bidding_catalogue SET is_deleted = 1, update_user = ${user.userId}::bigint, update_time = now()
                 WHERE tenant_id = ${user.tenantId} AND project_id = ${project.id} AND is_deleted = 0`.execute(trx);
      const ids = items.map(() => nextId());
      const rows = items.map(
        (it, i) => sql`(${ids[i]}::bigint, ${user.tenantId}, ${project.id}, ${it.parent >= 0 ? ids[it.parent] : '0'}, ${it.itemType}, ${it.level}, ${(i + 1) * 10},
                        ${it.title}, ${it.content ?? null}, ${it.score ?? null}, ${it.deadlineTime ?? null}::timestamptz,
                        ${user.userId}::bigint, ${user.deptId || null}::bigint, ${user.userId}::bigint)`,
      );
      // 200 rows a statement (14 parameters each, far below PostgreSQL's 65,535): a long tender is a few statements
      for (let at = 0; at < rows.length; at += 200) {
        await sql`INSERT INTO smartdoc_bidding_catalogue (id, tenant_id, project_id, parent_id, item_type, level, sort, title, content, score, deadline_time, create_user, create_dept, update_user)
                  VALUES ${sql.join(rows.slice(at, at + 200))}`.execute(trx);
      }
      const due = items.find((it) => it.itemType === 'deadline' && /投标截止|递交截止|截止时间|提交投标文件截止/.test(it.title + (it.content ?? '')));
      await sql`UPDATE smartdoc_bidding_base_info SET project_status = '2', deadline = coalesce(deadline, ${due?.deadlineTime ?? null}::timestamptz),
                       update_user = ${user.userId}::bigint, update_time = now()
                 WHERE id = ${project.id}::bigint`.execute(trx);
    });
    engine.changed('smartdoc_bidding_catalogue');
    engine.changed('smartdoc_user_file_scope');
    engine.changed('smartdoc_bidding_base_info');
    return ok(await catalogueTree(engine, user, project.id), undefined, req.lang);
  });

  app.post(`/api/smartdoc/biddingbaseinfo/initSave`, async (req) => {
    if (!req.user) throw new ApiError(401, 'unauthorized');
    const user = req.user;
    const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : null;
    if (!body) throw new ApiError(400, 'bodyNotObject');
    const hasId = body.id !== undefined && body.id !== null && body.id !== '';
    // the project's own checks first (grant, fields, manager): a refused project starts nothing
    const saved = hasId || body.projectName !== undefined ? await engine.submit(resource(), user, body, req.lang) : null;
    const project = await loadProject(db, user, saved ? String(saved.id) : body.id);
    assertManager(user, project);
    const created: Array<() => Promise<void>> = [];
    try {
      await db.transaction().execute(async (trx) => {
        await sql`SELECT id FROM smartdoc_bidding_base_info WHERE id = ${project.id}::bigint FOR UPDATE`.execute(trx);
        const chapters = await sql<{ id: string; title: string }>`SELECT id::text AS id, title FROM smartdoc_bidding_catalogue
          WHERE tenant_id = ${user.tenantId} AND project_id = ${project.id} AND is_deleted = 0 AND item_type = 'chapter' AND coalesce(file_id, '') = ''
          ORDER BY sort, id`.execute(trx);
        const any = await sql`SELECT 1 FROM smartdoc_bidding_catalogue WHERE tenant_id = ${user.tenantId} AND project_id = ${project.id} AND is_deleted = 0 AND item_type = 'chapter' LIMIT 1`.execute(trx);
        if (!any.rows.length) return; // nothing to write yet (a new project): the save alone
        for (const c of chapters.rows) {
          const bytes = await chapterDocx(c.title);
          const f = await files.create(trx, user, bytes, `${c.title.replace(/[\\/:*?"<>|]/g, '_').slice(0, 100)}.docx`, 'docx');
          created.push(f.discard);
          await sql`UPDATE smartdoc_bidding_catalogue SET file_id = ${f.attachId}, update_user = ${user.userId}::bigint, update_time = now() WHERE id = ${c.id}::bigint`.execute(trx);
        }
        await sql`UPDATE smartdoc_bidding_base_info SET project_status = '3', update_user = ${user.userId}::bigint, update_time = now() WHERE id = ${project.id}::bigint`.execute(trx);
      });
    } catch (e) {
      for (const discard of created) await discard().catch(() => undefined);
      throw e;
    }
    engine.changed('smartdoc_bidding_catalogue');
    engine.changed('smartdoc_bidding_base_info');
    engine.changed('blade_attach');
    return ok(await engine.findOne(resource(), user, project.id), undefined, req.lang);
  });

  app.get(`/api/smartdoc/biddingbaseinfo/merge`, async (req, reply) => {
    const user = await engine.authorize(req.user, resource(), 'read');
    const q = (req.query ?? {}) as Record<string, unknown>;
    const project = await loadProject(db, user, q.id ?? q.projectId);
    assertManager(user, project);
    const chapters = await sql<{ title: string; file_id: string }>`SELECT title, file_id FROM smartdoc_bidding_catalogue
      WHERE tenant_id = ${user.tenantId} AND project_id = ${project.id} AND is_deleted = 0 AND item_type = 'chapter' AND coalesce(file_id, '') <> ''
      ORDER BY sort, id`.execute(db);
    if (!chapters.rows.length) throw new ApiError(400, PROJECT_MESSAGES.nothingToMerge);
    const parts: Buffer[] = [];
    for (const c of chapters.rows) {
      const f = await files.read(user.tenantId, { attachId: c.file_id });
      if (!f) throw new ApiError(400, PROJECT_MESSAGES.chapterMissing(c.title));
      parts.push(f.bytes);
    }
    let merged: Buffer;
    try {
      merged = await mergeDocx(parts);
    } catch {
      throw new ApiError(400, { zh: '章节文档已损坏，无法合并', en: 'A chapter document is damaged and cannot be merged' });
    }
    const name = `${project.projectName.replace(/[\\/:*?"<>|]/g, '_')}.docx`;
    return reply
      .header('content-type', DOCX)
      .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(name)}`)
      .send(merged);
  });
}
