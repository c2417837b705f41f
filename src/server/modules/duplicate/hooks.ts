/**
 * What the three duplicate-checking schemas cannot say (engine hooks, issue 15):
 *
 * - duplicate/file: a record is created from an uploaded attachment (`attach`, one item from put-file of the
 *   caller's tenant): its text is extracted (extract.ts) and stored as a `file` document in the same
 *   transaction — a .doc, a damaged or textless file is refused with its message (400) and nothing is stored;
 *   `fileName`, `extension`, `charCount` and `documentId` are filled here. The file cannot be exchanged on an
 *   edit (400 查重文件不能更换，请删除后重新上传); a changed folder follows to the document. After the commit
 *   the new document is fingerprinted under every algorithm of the tenant (a failure there is caught up by the
 *   next task, which indexes what is missing); a removal drops the documents and their fingerprints.
 * - duplicate/duplicatetask: a new task names live files of the tenant (400 所选查重文件不存在或已删除), known
 *   library kinds and a live algorithm of the tenant or none (400 所选查重算法不存在); after the commit it is
 *   queued as a `duplicate-check` job (jobs.ts). A task's files, library and algorithm cannot change once
 *   submitted (400 查重任务提交后只能修改名称). Removing tasks removes their results.
 * - duplicate/duplicatealgorithm: MinHash needs the hash functions to be a multiple of the bands (400
 *   哈希函数个数必须是 LSH 分段数的整数倍); one default per tenant (saving a default clears the others).
 */
import { sql, type Db } from '../../core/db/index.js';
import { ApiError } from '../../core/envelope.js';
import type { ResourceEngine } from '../../resources/engine.js';
import type { Jobs } from '../../core/jobs.js';
import { algorithmOf } from './algorithm.js';
import { dropIds, indexDocuments, saveDocument } from './documents.js';
import { extractFileText } from './extract.js';
import { LIBRARY_KINDS } from './library.js';
import fsp from 'node:fs/promises';
import path from 'node:path';

export const FILE_RESOURCE = 'duplicate/file';
export const TASK_RESOURCE = 'duplicate/duplicatetask';
export const ALGORITHM_RESOURCE = 'duplicate/duplicatealgorithm';
export const CHECK_JOB = 'duplicate-check';

export const M = {
  fileRequired: { zh: '请上传查重文件', en: 'Please upload the file to check' },
  fileUnknown: { zh: '上传的文件不存在，请重新上传', en: 'The uploaded file was not found: upload it again' },
  fileFixed: { zh: '查重文件不能更换，请删除后重新上传', en: 'The file cannot be exchanged: remove the record and upload again' },
  filesUnknown: { zh: '所选查重文件不存在或已删除', en: 'A chosen file does not exist or was removed' },
  libraryUnknown: { zh: '比对库只能是查重文件库、科技成果附件、科研项目或门户内容', en: 'The library is uploaded files, achievements’ attachments, research projects or portal content' },
  algorithmUnknown: { zh: '所选查重算法不存在', en: 'The chosen algorithm does not exist' },
  taskFixed: { zh: '查重任务提交后只能修改名称', en: 'Once submitted, only the name of a task can change' },
  bands: { zh: '哈希函数个数必须是 LSH 分段数的整数倍', en: 'The hash functions must be a multiple of the LSH bands' },
  sourceHidden: { zh: '无权查看该来源的内容', en: 'You may not view the content of this source' },
};

const STORED_NAME = /^upload\/\d{8}\/[0-9a-f-]{36}\.[a-z0-9]{1,8}$/;
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The algorithms of a tenant, as `Algorithm`s. */
export async function tenantAlgorithms(db: Db, tenantId: string) {
  const r = await sql<Record<string, unknown>>`SELECT id::text AS id, name, algorithm_type AS "algorithmType", gram_size AS "gramSize", window_size AS "windowSize",
      hash_count AS "hashCount", band_count AS "bandCount", max_distance AS "maxDistance", min_length AS "minLength", report_ratio AS "reportRatio",
      top_sources AS "topSources", is_default AS "isDefault" FROM duplicate_algorithm WHERE tenant_id = ${tenantId} AND is_deleted = 0 ORDER BY is_default DESC NULLS LAST, id`.execute(db);
  return r.rows.map((row) => ({ ...algorithmOf(row), isDefault: row.isDefault === true }));
}

export interface HookDeps {
  db: Db;
  engine: ResourceEngine;
  jobs: Jobs;
  dataDir: string;
  log: (e: unknown) => void;
}

/** Registers the hooks of the module comment. */
export function registerDuplicateHooks(d: HookDeps): void {
  const { engine, db } = d;
  engine.hooks(FILE_RESOURCE, {
    async beforeSubmit({ isNew, record, existing, user, trx }) {
      if (!isNew) {
        if (record.attach !== undefined && !same(record.attach, existing?.attach)) throw new ApiError(400, M.fileFixed);
        if (existing?.documentId && !same(record.folder, existing.folder)) {
          await sql`UPDATE duplicate_document SET folder = ${(record.folder as string | null) || null} WHERE id = ${existing.documentId as string}::bigint AND tenant_id = ${user.tenantId}`.execute(trx);
        }
        return;
      }
      const items = Array.isArray(record.attach) ? record.attach : [];
      const name = String((items[0] as Record<string, unknown> | undefined)?.name ?? '');
      if (items.length !== 1 || !STORED_NAME.test(name)) throw new ApiError(400, M.fileRequired);
      const att = await sql<{ original_name: string; extension: string; link: string }>`SELECT original_name, extension, link FROM blade_attach
          WHERE tenant_id = ${user.tenantId} AND name = ${name} AND is_deleted = 0`.execute(trx);
      const a = att.rows[0];
      if (!a) throw new ApiError(400, M.fileUnknown);
      const buf = await fsp.readFile(path.join(d.dataDir, 'files', name)).catch(() => {
        throw new ApiError(400, M.fileUnknown);
      });
      const content = await extractFileText(buf, a.extension, a.original_name);
      const folder = typeof record.folder === 'string' && record.folder.trim() ? record.folder.trim() : null;
      const documentId = await saveDocument(trx, { tenantId: user.tenantId, sourceType: 'file', sourceKey: name, title: a.original_name, content, link: a.link, folder });
      Object.assign(record, { fileName: a.original_name, extension: a.extension, charCount: content.length, documentId, folder });
    },
    async afterCommit({ action, ids, user, saved }) {
      try {
        if (action === 'add' && saved?.documentId) {
          const r = await sql<{ content: string }>`SELECT content FROM duplicate_document WHERE id = ${saved.documentId as string}::bigint AND tenant_id = ${user.tenantId}`.execute(db);
          if (r.rows[0]) for (const a of await tenantAlgorithms(db, user.tenantId)) await indexDocuments(db, user.tenantId, [{ id: saved.documentId as string, content: r.rows[0].content }], a);
        }
        if (action === 'remove') {
          const r = await sql<{ d: string }>`SELECT document_id AS d FROM duplicate_file WHERE id = ANY(${ids}::bigint[]) AND tenant_id = ${user.tenantId} AND is_deleted = 1 AND document_id IS NOT NULL`.execute(db);
          await dropIds(db, user.tenantId, r.rows.map((x) => x.d));
        }
      } catch (e) {
        d.log(e);
      }
    },
  });

  engine.hooks(TASK_RESOURCE, {
    async beforeSubmit({ isNew, record, existing, user, trx }) {
      if (!isNew) {
        for (const f of ['fileIds', 'library', 'libraryFolder', 'algorithmId']) {
          if (record[f] !== undefined && !same(record[f], existing?.[f])) throw new ApiError(400, M.taskFixed);
        }
        return;
      }
      const fileIds = [...new Set((Array.isArray(record.fileIds) ? record.fileIds : []).map(String))];
      const live = await sql<{ n: number }>`SELECT count(*)::int AS n FROM duplicate_file WHERE tenant_id = ${user.tenantId} AND is_deleted = 0 AND id = ANY(${fileIds}::bigint[])`.execute(trx);
      if (!fileIds.length || live.rows[0].n !== fileIds.length) throw new ApiError(400, M.filesUnknown);
      const library = Array.isArray(record.library) ? record.library.map(String) : [];
      if (!library.length || library.some((k) => !(LIBRARY_KINDS as readonly string[]).includes(k))) throw new ApiError(400, M.libraryUnknown);
      const algorithmId = typeof record.algorithmId === 'string' && record.algorithmId ? record.algorithmId : null;
      if (algorithmId) {
        const ok = /^[1-9]\d{0,18}$/.test(algorithmId) && (await sql`SELECT 1 FROM duplicate_algorithm WHERE id = ${algorithmId}::bigint AND tenant_id = ${user.tenantId} AND is_deleted = 0`.execute(trx)).rows.length > 0;
        if (!ok) throw new ApiError(400, M.algorithmUnknown);
      }
      Object.assign(record, { fileIds, library: [...new Set(library)], algorithmId, taskStatus: 0, progress: 0, similarity: null, errorMsg: null, finishTime: null });
    },
    async afterCommit({ action, ids, user, saved }) {
      if (action === 'remove') {
        await sql`DELETE FROM duplicate_result WHERE tenant_id = ${user.tenantId} AND task_id = ANY(${ids}::bigint[])`.execute(db).catch(d.log);
        return;
      }
      if (action !== 'add' || !saved) return;
      const taskId = String(saved.id);
      try {
        const jobId = await d.jobs.enqueue(CHECK_JOB, user, { taskId, ref: taskId }, { title: String(saved.name ?? '') });
        await sql`UPDATE duplicate_task SET job_id = ${jobId} WHERE id = ${taskId}::bigint AND tenant_id = ${user.tenantId}`.execute(db);
      } catch (e) {
        d.log(e);
        await sql`UPDATE duplicate_task SET task_status = 3, error_msg = '操作失败' WHERE id = ${taskId}::bigint AND tenant_id = ${user.tenantId}`.execute(db).catch(d.log);
      }
    },
  });

  engine.hooks(ALGORITHM_RESOURCE, {
    beforeSubmit({ record, existing }) {
      const v = { ...existing, ...record };
      if (v.algorithmType === 'minhash') {
        const n = Number(v.hashCount ?? 128);
        const b = Number(v.bandCount ?? 32);
        if (!(b >= 1) || n % b !== 0) throw new ApiError(400, M.bands);
      }
    },
    async afterSubmit({ saved, user, trx }) {
      if (saved.isDefault === true) {
        await sql`UPDATE duplicate_algorithm SET is_default = false WHERE tenant_id = ${user.tenantId} AND id <> ${String(saved.id)}::bigint AND is_default = true`.execute(trx);
      }
    },
  });
}
