/**
 * What the declaration schema (schemas/project/baseinfo.json) cannot say (issue 12; engine hooks). The budget
 * arithmetic (科技项目经费预算: 总经费 = 拨款经费 + 自筹经费 = Σ 直接费用科目, 万元 to the cent) is the schema's
 * own `sum` rules (src/shared/schema/rules.ts), enforced by the engine like any resource's.
 *
 * - a declaration under review or decided (project_status 1–4, 6–8; see migrations.ts) cannot be edited nor
 *   removed (400 项目已提交申报，审核期间及审核完成后不能修改); a returned one (5) can;
 * - `groupDeptId` (x-server-only) is the top company above the record's department: the group's research
 *   management decides the BPMN's groupReview and finalReview (`${record.groupDeptId}`).
 *
 * The task book (任务书) of an approved declaration (6 已立项) is filled afterwards: `taskBookSave.run(true, …)`
 * (POST bookTotalSave, routes.ts) lets the generic submit edit the TASK_BOOK_FIELDS of a declaration in state 6
 * only (400 项目立项后方可填写任务书 in any other state); everything else of a fixed declaration stays fixed.
 *
 * `saveProcess` is the multi-step progress of a declaration (getSaveProcess, totalSave): one step per form
 * section, done when its required values are there.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError } from '../../core/envelope.js';
import type { ResourceEngine } from '../../resources/engine.js';

export const PROJECT = 'project/baseinfo';
type Row = Record<string, unknown>;

/** Statuses (dictionary project_status) in which the declaration is fixed. */
export const FIXED_STATUSES = [1, 2, 3, 4, 6, 7, 8];

const cents = (v: unknown) => Math.round((Number(v ?? 0) || 0) * 100);

/** The fields the task book fills or refines after approval (research plan, budget, team, attachments). */
export const TASK_BOOK_FIELDS = [
  'startDate', 'endDate', 'researchContent', 'objectives', 'indicators', 'totalBudget', 'allocatedBudget', 'selfRaisedBudget', 'budgetEquipment', 'budgetMaterial',
  'budgetTesting', 'budgetTravel', 'budgetMeeting', 'budgetLabour', 'budgetExpert', 'budgetOther', 'teamMembers', 'annex',
];

/** Set while bookTotalSave submits: the edit is a task book's (see the module comment). */
export const taskBookSave = new AsyncLocalStorage<boolean>();

export const M = {
  notApproved: { zh: '项目立项后方可填写任务书', en: 'The task book can be filled only once the project is approved' },
  fixed: { zh: '项目已提交申报，审核期间及审核完成后不能修改', en: 'The declaration was submitted: it cannot change while under review or once decided' },
};

/** The top company (dept_category 1) above `deptId` (itself included), or null. */
export async function groupCompanyOf(db: Db, tenantId: string, deptId: string | null): Promise<string | null> {
  if (!deptId || !/^\d{1,19}$/.test(deptId)) return null;
  const res = await sql<{ id: string }>`
    SELECT a.id::text AS id FROM blade_dept d
      JOIN blade_dept a ON a.tenant_id = d.tenant_id AND a.id::text = ANY(string_to_array(d.ancestors || ',' || d.id::text, ',')) AND a.dept_category = 1 AND a.is_deleted = 0
     WHERE d.id = ${deptId}::bigint AND d.tenant_id = ${tenantId}
     ORDER BY length(a.ancestors), a.id LIMIT 1`.execute(db);
  return res.rows[0]?.id ?? null;
}

/** The steps of the multi-step declaration, each with the fields that make it done. */
export const SAVE_STEPS: Array<{ key: string; title: string; titleEn: string; done: (r: Row) => boolean }> = [
  { key: 'basic', title: '基本信息', titleEn: 'Basic information', done: (r) => ['name', 'code', 'type', 'deptId', 'leader', 'startDate', 'endDate'].every((f) => r[f] !== null && r[f] !== undefined && r[f] !== '') },
  { key: 'content', title: '研究内容', titleEn: 'Research content', done: (r) => ['researchContent', 'objectives', 'indicators'].every((f) => typeof r[f] === 'string' && (r[f] as string).trim() !== '') },
  { key: 'budget', title: '经费预算', titleEn: 'Budget', done: (r) => cents(r.totalBudget) > 0 },
  { key: 'team', title: '项目组成员', titleEn: 'Team', done: (r) => Array.isArray(r.teamMembers) && r.teamMembers.length > 0 },
  { key: 'annex', title: '附件', titleEn: 'Attachments', done: (r) => Array.isArray(r.annex) && r.annex.length > 0 },
];

/** `{steps: [{key, title, done}], done, total, percent}` of a stored declaration. */
export function saveProcess(rec: Row, lang: 'zh' | 'en') {
  const steps = SAVE_STEPS.map((s) => ({ key: s.key, title: lang === 'en' ? s.titleEn : s.title, done: s.done(rec) }));
  const done = steps.filter((s) => s.done).length;
  return { steps, done, total: steps.length, percent: Math.round((done * 100) / steps.length) };
}

/** Registers the declaration's hooks on `engine`. */
export function registerDeclarationHooks(db: Db, engine: ResourceEngine): void {
  engine.hooks(PROJECT, {
    async beforeSubmit(c) {
      if (taskBookSave.getStore()) {
        if (c.isNew || Number(c.existing?.projectStatus ?? 0) !== 6) throw new ApiError(400, M.notApproved);
      } else if (!c.isNew && FIXED_STATUSES.includes(Number(c.existing?.projectStatus ?? 0))) throw new ApiError(400, M.fixed);
      const dept = (c.existing?.createDept as string | undefined) ?? c.user.deptId ?? null;
      c.record.groupDeptId = await groupCompanyOf(c.trx, c.user.tenantId, dept ? String(dept) : null);
    },
    async beforeRemove(c) {
      const res = await sql<{ n: number }>`SELECT count(*)::int AS n FROM project_baseinfo WHERE tenant_id = ${c.user.tenantId} AND id = ANY(${c.ids}::bigint[])
                                              AND project_status = ANY(${FIXED_STATUSES}::int[]) AND is_deleted = 0`.execute(c.trx);
      if (res.rows[0].n > 0) throw new ApiError(400, M.fixed);
    },
  });
}
