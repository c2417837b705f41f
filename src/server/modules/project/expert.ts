/**
 * Expert review of declarations (issue 12; schemas/project/expert.json): research management picks experts
 * for a project, each expert scores it against the indicators and comments.
 *
 * - picking (generic submit of project/expert; hooks here): the user must be marked expert (blade_user
 *   is_expert, 400 所选用户不是评审专家); an expert of the project's own company must abstain (回避: 400
 *   评审专家与项目申报单位属于同一单位，须回避); an expert is picked once per project (400 该专家已是本项目的评审专家);
 *   expertName and expertUnit are filled from the user, projectName from the project. A submitted review is not
 *   changed nor removed (400).
 * - reading: research management through its menu 评审专家, the expert through 专家评审 (project_expert_todo;
 *   schema permissions.read lists both) with the data scope seeded in index.ts: only the rows naming them
 *   (expert_id), where the list's 提交评审意见 scores one.
 * - POST /api/project/expert/delete `id, deleteReason` (query or body; issue 17, spec 002 §7): the remove grant, a
 *   reason (400 请输入删除原因, ≤ 500: 删除原因不能超过500个字符), then the generic logical delete with the reason
 *   kept in delete_reason (a submitted review is not deleted: 400 评审意见已提交，不能修改; another tenant's 404).
 * - GET /api/project/expert/options: the users of the tenant marked expert, `[{id, name, account}]` (name with
 *   their organisation) for the picking form (ResourceSelect), with the add grant of project/expert.
 * - POST /api/project/expert/batchSave `[{projectId, expertId, reviewDeadline?}]` or `{projectId, expertIds: [],
 *   reviewDeadline?}` (1–50, 请选择1到50位评审专家): every pick checked as a single submit, in one transaction —
 *   all saved, or none at the first refusal (its message).
 * - POST /api/project/expert/submitComment `{id, scoreInnovation (0–30), scoreFeasibility (0–30),
 *   scoreBenefit (0–20), scoreTeam (0–20), comment (required, ≤ 2000)}`: only the picked expert (403 otherwise),
 *   once (400 评审意见已提交); totalScore is the sum (0–100); the project's expertScore becomes the mean
 *   total of its submitted reviews (two decimals). Indicators: 创新性, 技术可行性, 预期效益, 团队与条件
 *   (common enterprise project-review practice).
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ok } from '../../core/envelope.js';
import type { OrgCache } from '../../core/context.js';
import type { ResourceEngine } from '../../resources/engine.js';
import { readable } from './routes.js';

export const EXPERT = 'project/expert';
type Row = Record<string, unknown>;

export const INDICATORS = [
  { field: 'scoreInnovation', max: 30, zh: '创新性', en: 'innovation' },
  { field: 'scoreFeasibility', max: 30, zh: '技术可行性', en: 'feasibility' },
  { field: 'scoreBenefit', max: 20, zh: '预期效益', en: 'expected benefit' },
  { field: 'scoreTeam', max: 20, zh: '团队与条件', en: 'team and conditions' },
] as const;

export const M = {
  notExpert: { zh: '所选用户不是评审专家', en: 'The chosen user is not an expert reviewer' },
  avoid: { zh: '评审专家与项目申报单位属于同一单位，须回避', en: 'The expert belongs to the declaring company and must abstain' },
  twice: { zh: '该专家已是本项目的评审专家', en: 'This expert already reviews this project' },
  reviewed: { zh: '评审意见已提交，不能修改', en: 'The review was submitted and cannot change' },
  notYours: { zh: '只有被选定的评审专家才能提交评审意见', en: 'Only the chosen expert may submit this review' },
  comment: { zh: '请输入评审意见', en: 'Please enter the review comment' },
  commentLong: { zh: '评审意见不能超过2000个字符', en: 'The review comment must be at most 2000 characters' },
  reason: { zh: '请输入删除原因', en: 'Please enter the reason for deleting' },
  reasonLong: { zh: '删除原因不能超过500个字符', en: 'The reason must be at most 500 characters' },
  batch: { zh: '请选择1到50位评审专家', en: 'Choose 1 to 50 experts' },
  score: (zh: string, en: string, max: number) => ({ zh: `${zh}评分须为0到${max}之间的整数`, en: `The ${en} score must be a whole number from 0 to ${max}` }),
};

export function registerExpert(app: FastifyInstance, db: Db, engine: ResourceEngine, org: OrgCache): void {
  engine.hooks(EXPERT, {
    async beforeSubmit(c) {
      if (!c.isNew && Number(c.existing?.reviewStatus ?? 0) === 1) throw new ApiError(400, M.reviewed);
      const rec = { ...(c.existing ?? {}), ...c.record };
      const t = c.user.tenantId;
      const u = (await sql<{ name: string; dept: string | null; expert: boolean | null }>`
        SELECT coalesce(real_name, name, account) AS name, dept_id::text AS dept, is_expert AS expert FROM blade_user
         WHERE id = ${String(rec.expertId)}::bigint AND tenant_id = ${t} AND is_deleted = 0`.execute(c.trx)).rows[0];
      if (!u || !u.expert) throw new ApiError(400, M.notExpert, undefined, { field: 'expertId' });
      const p = (await sql<{ dept: string | null; name: string | null }>`SELECT create_dept::text AS dept, name FROM project_baseinfo WHERE id = ${String(rec.projectId)}::bigint AND tenant_id = ${t}`.execute(c.trx)).rows[0];
      const expertCompany = u.dept ? await org.companyOf(t, u.dept) : null;
      const projectCompany = p?.dept ? await org.companyOf(t, p.dept) : null;
      if (expertCompany && expertCompany === projectCompany) throw new ApiError(400, M.avoid, undefined, { field: 'expertId' });
      const dup = await sql`SELECT 1 FROM project_expert WHERE tenant_id = ${t} AND project_id = ${String(rec.projectId)} AND expert_id = ${String(rec.expertId)}
                              AND is_deleted = 0 AND id <> ${String(c.existing?.id ?? 0)}::bigint`.execute(c.trx);
      if (dup.rows.length) throw new ApiError(400, M.twice, undefined, { field: 'expertId' });
      c.record.expertName = u.name;
      c.record.projectName = p?.name ?? null; // shown to the expert, who may not read the declarations' list
      const unit = u.dept ? (await sql<{ n: string }>`SELECT dept_name AS n FROM blade_dept WHERE id = ${expertCompany ?? u.dept}::bigint`.execute(c.trx)).rows[0] : undefined;
      c.record.expertUnit = unit?.n ?? null;
    },
    async beforeRemove(c) {
      const res = await sql`SELECT 1 FROM project_expert WHERE tenant_id = ${c.user.tenantId} AND id = ANY(${c.ids}::bigint[]) AND review_status = 1 AND is_deleted = 0`.execute(c.trx);
      if (res.rows.length) throw new ApiError(400, M.reviewed);
    },
  });

  const res = () => engine.registry.resources.get(EXPERT)!;
  app.post('/api/project/expert/delete', { schema: { tags: [EXPERT], summary: 'Remove one expert pick with the reason (id, deleteReason)' } }, async (req) => {
    const user = await engine.authorize(req.user, res(), 'remove');
    const b = { ...(req.query as Row), ...(req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Row) : {}) };
    if (typeof b.id !== 'string' || !/^\d{1,19}$/.test(b.id)) throw new ApiError(400, 'badParam', { param: 'id' });
    const reason = typeof b.deleteReason === 'string' ? b.deleteReason.trim() : '';
    if (!reason) throw new ApiError(400, M.reason, undefined, { field: 'deleteReason' });
    if ([...reason].length > 500) throw new ApiError(400, M.reasonLong, undefined, { field: 'deleteReason' });
    await engine.remove(res(), user, b.id, req.lang, { deleteReason: reason });
    return ok(true, undefined, req.lang);
  });

  // the experts research management may pick: users of the tenant marked expert (is_expert), for the picking form
  app.get('/api/project/expert/options', { schema: { tags: [EXPERT], summary: 'Experts to pick: [{id, name (with their organisation), account}]' } }, async (req) => {
    const user = await engine.authorize(req.user, res(), 'add');
    const rows = (await sql<{ id: string; name: string; account: string; unit: string | null }>`
      SELECT u.id::text AS id, coalesce(u.real_name, u.name, u.account) AS name, u.account, d.dept_name AS unit
        FROM blade_user u LEFT JOIN blade_dept d ON d.id = u.dept_id AND d.is_deleted = 0
       WHERE u.tenant_id = ${user.tenantId} AND u.is_deleted = 0 AND u.is_expert IS TRUE ORDER BY u.real_name, u.id LIMIT 1000`.execute(db)).rows;
    return ok(rows.map((u) => ({ id: u.id, name: u.unit ? `${u.name}（${u.unit}）` : u.name, account: u.account })), undefined, req.lang);
  });

  app.post('/api/project/expert/batchSave', { schema: { tags: [EXPERT], summary: 'Pick several experts at once: [{projectId, expertId, reviewDeadline?}] or {projectId, expertIds, reviewDeadline?} — all or none' } }, async (req) => {
    const b = req.body as unknown;
    let items: unknown[];
    if (Array.isArray(b)) items = b;
    else if (b && typeof b === 'object' && Array.isArray((b as Row).expertIds)) {
      const { expertIds, ...rest } = b as Row;
      items = (expertIds as unknown[]).map((expertId) => ({ ...rest, expertId }));
    } else items = [];
    if (items.length < 1 || items.length > 50) throw new ApiError(400, M.batch);
    const saved = await engine.submitMany(res(), req.user!, items, req.lang);
    return ok(saved, undefined, req.lang);
  });

  app.post('/api/project/expert/submitComment', { schema: { tags: [EXPERT], summary: 'The chosen expert scores the project and comments' } }, async (req) => {
    const user = req.user!;
    const b = (req.body && typeof req.body === 'object' ? req.body : {}) as Row;
    const rev = await readable(engine, user, EXPERT, b.id === undefined ? undefined : String(b.id)).catch(async (e: unknown) => {
      // experts hold no grant on the picking screen: their own assignment is enough
      if (!(e instanceof ApiError) || e.code !== 403 || typeof b.id !== 'string' || !/^\d{1,19}$/.test(b.id)) throw e;
      const row = (await sql<Row>`SELECT id::text AS id, expert_id AS "expertId", review_status AS "reviewStatus", project_id AS "projectId" FROM project_expert
                                   WHERE id = ${b.id}::bigint AND tenant_id = ${user.tenantId} AND is_deleted = 0`.execute(db)).rows[0];
      if (!row || row.expertId !== user.userId) throw e;
      return row;
    });
    if (String(rev.expertId) !== user.userId) throw new ApiError(403, M.notYours);
    if (Number(rev.reviewStatus ?? 0) === 1) throw new ApiError(400, M.reviewed);
    const scores: number[] = [];
    for (const i of INDICATORS) {
      const v = typeof b[i.field] === 'string' && b[i.field] !== '' ? Number(b[i.field]) : b[i.field];
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > i.max) throw new ApiError(400, M.score(i.zh, i.en, i.max), undefined, { field: i.field });
      scores.push(v);
    }
    const comment = typeof b.comment === 'string' ? b.comment.trim() : '';
    if (!comment) throw new ApiError(400, M.comment, undefined, { field: 'comment' });
    if ([...comment].length > 2000) throw new ApiError(400, M.commentLong, undefined, { field: 'comment' });
    const total = scores.reduce((s, x) => s + x, 0);
    const projectScore = await db.transaction().execute(async (trx) => {
      const upd = await sql`UPDATE project_expert SET score_innovation = ${scores[0]}, score_feasibility = ${scores[1]}, score_benefit = ${scores[2]}, score_team = ${scores[3]},
                              total_score = ${total}, comment = ${comment}, review_status = 1, update_user = ${user.userId}::bigint, update_time = now()
                             WHERE id = ${String(rev.id)}::bigint AND tenant_id = ${user.tenantId} AND review_status = 0 AND is_deleted = 0`.execute(trx);
      if (Number(upd.numAffectedRows ?? 0) !== 1) throw new ApiError(400, M.reviewed);
      const avg = (await sql<{ a: string | null }>`SELECT round(avg(total_score)::numeric, 2)::text AS a FROM project_expert
                                                   WHERE tenant_id = ${user.tenantId} AND project_id = ${String(rev.projectId)} AND review_status = 1 AND is_deleted = 0`.execute(trx)).rows[0].a;
      await sql`UPDATE project_baseinfo SET expert_score = ${avg}::numeric WHERE id = ${String(rev.projectId)}::bigint AND tenant_id = ${user.tenantId}`.execute(trx);
      return avg === null ? null : Number(avg);
    });
    engine.changed('project_expert');
    engine.changed('project_baseinfo');
    return ok({ id: rev.id, totalScore: total, projectScore }, req.lang === 'en' ? 'Review submitted' : '评审意见已提交', req.lang);
  });
}
