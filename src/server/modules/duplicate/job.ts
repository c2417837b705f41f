/**
 * The `duplicate-check` job (DESIGN §8 Jobs; issue 15 "run as a job with progress"): runs one task of
 * duplicate/duplicatetask for its owner, in the owner's tenant.
 *
 * Steps and progress (kc_job.progress and the task's `progress`, percent): the library is resolved (0–30: its
 * records walked, their attachments extracted once), the documents not yet fingerprinted under the task's
 * algorithm are indexed (30–60), then every checked file is compared (60–100); each file's result is stored
 * in `duplicate_result` (replacing an earlier row of the same task and file, so a retried job writes the
 * same). The task ends `taskStatus` 2 with `similarity` = the highest overall similarity of its files, or 3
 * with `errorMsg` when something failed (the job fails with the same message). `read` = files checked,
 * `written` = results stored, `failed` = library files that could not be read.
 */
import { sql, type Db } from '../../core/db/index.js';
import { ApiError } from '../../core/envelope.js';
import { nextId } from '../../core/ids.js';
import type { JobContext, JobOutcome } from '../../core/jobs.js';
import type { Registry } from '../../resources/registry.js';
import { DEFAULT_ALGORITHM, type Algorithm } from './algorithm.js';
import { checkText } from './check.js';
import { ensureIndexed } from './documents.js';
import { tenantAlgorithms } from './hooks.js';
import { resolveLibrary } from './library.js';

export interface CheckJobParams {
  taskId: string;
}

/** The algorithm `id` of the tenant, else its default, else the built-in default. */
export async function algorithmFor(db: Db, tenantId: string, id: string | null | undefined): Promise<Algorithm> {
  const all = await tenantAlgorithms(db, tenantId);
  if (id) {
    const found = all.find((a) => a.id === id);
    if (found) return found;
    throw new ApiError(400, { zh: '所选查重算法不存在', en: 'The chosen algorithm does not exist' });
  }
  return all.find((a) => a.isDefault) ?? all[0] ?? DEFAULT_ALGORITHM;
}

/** The job handler (see the module comment). */
export function checkJob(db: Db, registry: Registry, dataDir: string) {
  return async (ctx: JobContext<CheckJobParams>): Promise<JobOutcome> => {
    const tenantId = ctx.owner.tenantId;
    const taskId = ctx.params.taskId;
    const t = await sql<Record<string, any>>`SELECT id::text AS id, file_ids, library, library_folder, algorithm_id FROM duplicate_task
        WHERE id = ${taskId}::bigint AND tenant_id = ${tenantId} AND is_deleted = 0`.execute(db);
    const task = t.rows[0];
    if (!task) return { error: '查重任务不存在或已删除' };
    const setTask = (p: number | null, extra = sql``) =>
      sql`UPDATE duplicate_task SET progress = COALESCE(${p === null ? null : Math.round(p)}::int, progress), update_time = now() ${extra}
          WHERE id = ${taskId}::bigint AND tenant_id = ${tenantId}`.execute(db);
    const progress = async (p: number) => {
      await ctx.report({ progress: p });
      await setTask(p);
    };
    try {
      await setTask(0, sql`, task_status = 1, error_msg = NULL`);
      const algorithm = await algorithmFor(db, tenantId, task.algorithm_id);
      const fileIds: string[] = Array.isArray(task.file_ids) ? task.file_ids.map(String) : [];
      const files = await sql<{ id: string; title: string; content: string }>`
        SELECT d.id::text AS id, d.title, d.content FROM duplicate_file f JOIN duplicate_document d ON d.id = f.document_id::bigint AND d.tenant_id = f.tenant_id
         WHERE f.tenant_id = ${tenantId} AND f.is_deleted = 0 AND f.id = ANY(${fileIds}::bigint[]) ORDER BY f.id`.execute(db);
      if (!files.rows.length) throw new ApiError(400, { zh: '所选查重文件不存在或已删除', en: 'A chosen file does not exist or was removed' });
      const { ids: library, skipped } = await resolveLibrary({
        db, registry, dataDir, tenantId, kinds: Array.isArray(task.library) ? task.library : ['file'], folder: task.library_folder,
        progress: async (n) => ctx.report({ progress: Math.min(29, n / 20) }),
      });
      await progress(30);
      await ensureIndexed(db, tenantId, [...library, ...files.rows.map((f) => f.id)], algorithm, (done, total) => progress(30 + (done / total) * 30));
      await progress(60);
      let best = 0;
      for (const [i, f] of files.rows.entries()) {
        const result = await checkText(db, tenantId, { id: f.id, title: f.title, content: f.content }, library, algorithm);
        best = Math.max(best, result.similarity);
        await db.transaction().execute(async (trx) => {
          await sql`DELETE FROM duplicate_result WHERE tenant_id = ${tenantId} AND task_id = ${taskId}::bigint AND document_id = ${f.id}::bigint`.execute(trx);
          await sql`INSERT INTO duplicate_result (id, tenant_id, task_id, document_id, similarity, result)
                    VALUES (${nextId()}::bigint, ${tenantId}, ${taskId}::bigint, ${f.id}::bigint, ${result.similarity}, ${JSON.stringify({ ...result, algorithm: algorithm.name })}::jsonb)`.execute(trx);
        });
        await ctx.report({ read: i + 1, written: i + 1, failed: skipped, progress: 60 + ((i + 1) / files.rows.length) * 40 });
      }
      await setTask(100, sql`, task_status = 2, similarity = ${best}, finish_time = now()`);
      return { result: { taskId, similarity: best, files: files.rows.length, library: library.size, skipped } };
    } catch (e) {
      const msg = e instanceof ApiError ? e.localized('zh') : '操作失败';
      await setTask(null, sql`, task_status = 3, error_msg = ${msg.slice(0, 500)}, finish_time = now()`).catch(() => undefined);
      throw e;
    }
  };
}
