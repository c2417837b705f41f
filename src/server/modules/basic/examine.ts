/**
 * The examination of achievements (spec 001 §3 'examine, examine record', §7 '/basic examine, examinerecord'):
 * the `examine` flow of the generic workflow actions (resources/actions.ts) and its lists.
 *
 * Each achievement schema declares the actions (schemas/basic/*.json `actions`; statuses from the
 * examine_status dictionary: 0 草稿, 1 待审核, 2 审核通过, 3 已驳回):
 *
 * | action        | endpoint (POST)                 | from → to | who                                                   |
 * | ------------- | ------------------------------- | --------- | ----------------------------------------------------- |
 * | submitExamine | /api/basic/examine/submit       | 0, 3 → 1  | the record's registrant (roles that register)         |
 * | approve       | /api/basic/examinerecord/submit | 1 → 2     | research management (kygl) of the record's company or |
 * |               |   (`action: 'approve'`)         |           | a company above it (the group's covers subsidiaries)  |
 * | reject        | /api/basic/examinerecord/submit | 1 → 3     | as approve; opinion required (请输入审核意见)          |
 * |               |   (`action: 'reject'`)          |           |                                                       |
 * | againSubmit   | /api/basic/examine/againSubmit  | 3 → 1     | the registrant, after changing the record             |
 *
 * Body: `{businessId, businessType ('thesis' or 'basic/thesis'), action?, opinion?}`; examinerecord/submit
 * also takes `examineId` instead of businessId/businessType, and `status` ('2' or '3') instead of `action`.
 * A record waiting for examination (1) or approved (2) cannot be edited or removed (400); a rejected one can
 * be edited and submitted again. The answer is the examination (see `toExamine`).
 *
 * This flow keeps `basic_examine` (one row per record under examination: current status, submitter, company,
 * last decision and its opinion) and `basic_examine_record` (every step: action, from → to, opinion, who,
 * as which role, when). The company of a record is the company of its create_dept.
 *
 * Lists (GET, all tenant-scoped):
 * - `examine/list` — for examiners (a role allowed to decide, or an administrator): the examinations they may
 *   decide (research management: their company and the companies below it; administrators: the tenant);
 *   others 403. Paged (`current`, `size`), filters `examineStatus` (or `status`), `businessType`,
 *   `businessName` (or `name`, contains), `companyId`, `submitUserName` (contains); newest change first.
 * - `examine/list-for-company` — the examinations of the caller's own company, for the types whose
 *   list-for-myCompany the caller may read (as the achievements' own company lists); same paging and filters.
 * - `examinerecord/list?businessId=` (or `examineId`; `businessType` optional) — the steps, oldest first,
 *   paged; visible to the registrant and the submitter, to those who may decide it, and to the record's
 *   company (list-for-myCompany); to anyone else, and across tenants, the list is empty.
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ok } from '../../core/envelope.js';
import type { AuthUser, OrgCache } from '../../core/context.js';
import { nextId } from '../../core/ids.js';
import type { RemoveHookContext, ResourceEngine } from '../../resources/engine.js';
import type { Resource } from '../../resources/registry.js';
import { Conditions, paging } from '../../resources/query.js';
import { roleFor, type ActionStep, type FlowHandler } from '../../resources/actions.js';
import { isId } from '../../../shared/contract/ids.js';

type Row = Record<string, unknown>;

export const EXAMINE_FLOW = 'examine';
export const EXAMINE_ENDPOINTS = ['/api/basic/examine/submit', '/api/basic/examine/againSubmit', '/api/basic/examinerecord/submit'];

const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** The resources (current versions) examined by this flow. */
export function examinedResources(engine: ResourceEngine): Resource[] {
  return [...engine.registry.resources.values()].filter((r) => r.schema.actions?.flow === EXAMINE_FLOW);
}

/** A basic_examine row (joined with its company's name) as JSON, with the business type's titles. */
function toExamine(engine: ResourceEngine, row: Row): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) if (k !== 'is_deleted' && k !== 'status') out[camel(k)] = v;
  const r = engine.registry.resources.get(String(row.business_type));
  out.businessTypeName = r?.schema.title ?? null;
  out.businessTypeNameEn = r?.schema.titleEn ?? null;
  return out;
}

const SELECT_EXAMINE = `SELECT e.*, d.dept_name AS company_name FROM basic_examine e LEFT JOIN blade_dept d ON d.id = e.company_id`;

/** The examination of one business (live row), or undefined. */
async function examineOf(db: Db, tenantId: string, type: string, id: string, forUpdate = false): Promise<Row | undefined> {
  const res = await sql<Row>`SELECT * FROM basic_examine WHERE tenant_id = ${tenantId} AND business_type = ${type} AND business_id = ${id}::bigint AND is_deleted = 0 ${forUpdate ? sql`FOR UPDATE` : sql``}`.execute(db);
  return res.rows[0];
}

const displayName = (u: AuthUser) => u.realName || u.nickName || u.userName || u.account;

/**
 * An after-remove hook for every resource: the removed records of a resource this flow examines leave the
 * examination lists (their basic_examine rows are logically deleted; the steps in basic_examine_record stay).
 */
export async function removeExaminations(ctx: RemoveHookContext): Promise<void> {
  if (ctx.resource.schema.actions?.flow !== EXAMINE_FLOW) return;
  await sql`UPDATE basic_examine SET is_deleted = 1, update_user = ${ctx.user.userId}::bigint, update_time = now()
             WHERE tenant_id = ${ctx.user.tenantId} AND business_type = ${ctx.resource.schema.name} AND business_id = ANY(${ctx.ids}::bigint[]) AND is_deleted = 0`.execute(ctx.trx);
}

/** The examine flow: keeps basic_examine and basic_examine_record for every step. */
export function examineFlow(engine: ResourceEngine, org: OrgCache): FlowHandler {
  return {
    async target(body, user) {
      const raw = body.examineId;
      if (raw === undefined || raw === null || raw === '') return null;
      if ((typeof raw !== 'string' && typeof raw !== 'number') || !isId(String(raw))) throw new ApiError(400, 'badParam', { param: 'examineId' });
      const res = await sql<{ business_type: string; business_id: string }>`
        SELECT business_type, business_id FROM basic_examine WHERE id = ${String(raw)}::bigint AND tenant_id = ${user.tenantId} AND is_deleted = 0`.execute(engine.db);
      if (!res.rows[0]) throw new ApiError(404, 'notFound');
      return { businessType: res.rows[0].business_type, businessId: res.rows[0].business_id };
    },

    async afterAction(step: ActionStep) {
      const { trx, user, resource: r, record, action, from, to, values, role } = step;
      const type = r.schema.name;
      const businessId = String(record.id);
      const label = r.schema.labelField ?? 'name';
      const name = record[label] === null || record[label] === undefined ? null : String(record[label]).slice(0, 500);
      const opinion = typeof values.opinion === 'string' && values.opinion !== '' ? values.opinion : null;
      const createDept = record.createDept ? String(record.createDept) : null;
      const companyId = createDept ? await org.companyOf(user.tenantId, createDept) : null;
      const who = displayName(user);
      let exam = await examineOf(trx, user.tenantId, type, businessId, true);
      if (!exam) {
        const id = nextId();
        await sql`INSERT INTO basic_examine (id, tenant_id, business_type, business_id, business_name, business_user, examine_status, company_id, create_user, create_dept, update_user)
                  VALUES (${id}::bigint, ${user.tenantId}, ${type}, ${businessId}::bigint, ${name}, ${(record.createUser as string | null) ?? null}::bigint, ${to}, ${companyId}::bigint,
                          ${user.userId}::bigint, ${user.deptId || null}::bigint, ${user.userId}::bigint)`.execute(trx);
        exam = { id };
      }
      const examId = String(exam.id);
      const kind = action.kind ?? 'other';
      const common = sql`examine_status = ${to}, business_name = ${name}, company_id = ${companyId}::bigint, update_user = ${user.userId}::bigint, update_time = now()`;
      if (kind === 'submit') {
        await sql`UPDATE basic_examine SET ${common}, submit_user = ${user.userId}::bigint, submit_user_name = ${who}, submit_dept = ${user.deptId || null}::bigint, submit_time = now(),
                    opinion = NULL, examine_user = NULL, examine_user_name = NULL, examine_time = NULL WHERE id = ${examId}::bigint`.execute(trx);
      } else if (kind === 'decide') {
        await sql`UPDATE basic_examine SET ${common}, examine_user = ${user.userId}::bigint, examine_user_name = ${who}, examine_time = now(), opinion = ${opinion}
                   WHERE id = ${examId}::bigint`.execute(trx);
      } else {
        await sql`UPDATE basic_examine SET ${common} WHERE id = ${examId}::bigint`.execute(trx);
      }
      await sql`INSERT INTO basic_examine_record (id, tenant_id, examine_id, business_type, business_id, action, action_name, from_status, to_status, opinion, operator_user, operator_name, operator_role, operator_dept)
                VALUES (${nextId()}::bigint, ${user.tenantId}, ${examId}::bigint, ${type}, ${businessId}::bigint, ${action.key}, ${action.label}, ${from}, ${to}, ${opinion},
                        ${user.userId}::bigint, ${who}, ${role}, ${user.deptId || null}::bigint)`.execute(trx);
      const res = await sql<Row>`${sql.raw(SELECT_EXAMINE)} WHERE e.id = ${examId}::bigint`.execute(trx);
      return toExamine(engine, res.rows[0]);
    },
  };
}

/**
 * Per examined type, the companies whose examinations `user` may decide: null = every company of the tenant
 * (administrators, or an action whose actor is 'any'); a list of department ids otherwise. Types the user
 * may not decide are absent.
 */
export async function examinerScopes(engine: ResourceEngine, org: OrgCache, user: AuthUser): Promise<Map<string, string[] | null>> {
  const out = new Map<string, string[] | null>();
  const company = user.deptId ? await org.companyOf(user.tenantId, user.deptId) : null;
  for (const r of examinedResources(engine)) {
    let scope: string[] | null | undefined;
    for (const a of r.schema.actions!.items) {
      if (a.kind !== 'decide' || !roleFor(user, a)) continue;
      const actor = a.actor ?? 'any';
      if (user.isAdmin || actor === 'any') {
        scope = null;
        break;
      }
      if (actor === 'owner' || !company) continue; // an owner's own decision gives no list of others' records
      const depts = actor === 'companyTree' ? await org.subtree(user.tenantId, company) : await org.companyDepts(user.tenantId, company);
      scope = [...new Set([...(scope ?? []), ...depts])];
    }
    if (scope !== undefined) out.set(r.schema.name, scope);
  }
  return out;
}

/** Adds to `cond` "an examination `user` may decide" (alias `e`); false when there is none. */
export async function addExaminerCondition(engine: ResourceEngine, org: OrgCache, user: AuthUser, cond: Conditions): Promise<boolean> {
  const scopes = await examinerScopes(engine, org, user);
  if (scopes.size === 0) return false;
  const ors: string[] = [];
  for (const [type, depts] of scopes) {
    if (depts === null) ors.push(`e.business_type = ${cond.param(type)}`);
    else ors.push(`(e.business_type = ${cond.param(type)} AND e.company_id = ANY(${cond.param(depts)}::bigint[]))`);
  }
  cond.add(`(${ors.join(' OR ')})`);
  return true;
}

/** The types whose company list `user` may read. */
async function companyListTypes(engine: ResourceEngine, user: AuthUser): Promise<string[]> {
  const out: string[] = [];
  for (const r of examinedResources(engine)) {
    try {
      await engine.authorize(user, r, 'list-for-myCompany');
      out.push(r.schema.name);
    } catch {
      // not granted: the type stays out
    }
  }
  return out;
}

/** True when `user` may see the examination `exam` (see the module comment). */
async function canSee(engine: ResourceEngine, org: OrgCache, user: AuthUser, exam: Row): Promise<boolean> {
  if (user.isAdmin) return true;
  if (String(exam.business_user) === user.userId || String(exam.submit_user) === user.userId) return true;
  const scope = (await examinerScopes(engine, org, user)).get(String(exam.business_type));
  if (scope === null || (scope && exam.company_id && scope.includes(String(exam.company_id)))) return true;
  const company = user.deptId ? await org.companyOf(user.tenantId, user.deptId) : null;
  return company !== null && String(exam.company_id) === company && (await companyListTypes(engine, user)).includes(String(exam.business_type));
}

const LIST_FILTERS = new Set(['examineStatus', 'status', 'businessType', 'businessName', 'name', 'companyId', 'submitUserName']);

/** The type names a `businessType` filter means ('thesis', 'basic/thesis', or a comma list of them). */
function typeFilter(engine: ResourceEngine, raw: string): string[] {
  const names = examinedResources(engine).map((r) => r.schema.name);
  const out: string[] = [];
  for (const t of raw.split(',').map((s) => s.trim()).filter(Boolean)) {
    const hit = names.find((n) => n === t) ?? names.find((n) => n.split('/').pop() === t);
    if (!hit) throw new ApiError(400, 'badParam', { param: 'businessType' });
    out.push(hit);
  }
  return out;
}

/** Adds the list filters of `query` to `cond` (400 for an unknown one). */
function addExamineFilters(engine: ResourceEngine, query: Record<string, unknown>, cond: Conditions): void {
  for (const [k, v] of Object.entries(query)) {
    if (k === 'current' || k === 'size' || k === 'ascs' || k === 'descs' || k.startsWith('_')) continue; // the order is fixed: newest change first
    if (!LIST_FILTERS.has(k)) throw new ApiError(400, 'unknownFilter', { field: k });
    if (typeof v !== 'string') throw new ApiError(400, 'badParam', { param: k });
    const value = v.trim();
    if (value === '' || value === '-1') continue;
    if (value.length > 200) throw new ApiError(400, 'badParam', { param: k });
    const like = (s: string) => '%' + s.replace(/[\\%_]/g, (c) => '\\' + c) + '%';
    switch (k) {
      case 'examineStatus':
      case 'status':
        cond.add(`e.examine_status = ANY(${cond.param(value.split(',').map((s) => s.trim()))}::text[])`);
        break;
      case 'businessType':
        cond.add(`e.business_type = ANY(${cond.param(typeFilter(engine, value))}::text[])`);
        break;
      case 'businessName':
      case 'name':
        cond.add(`e.business_name ILIKE ${cond.param(like(value))}`);
        break;
      case 'submitUserName':
        cond.add(`e.submit_user_name ILIKE ${cond.param(like(value))}`);
        break;
      case 'companyId':
        if (!isId(value)) throw new ApiError(400, 'badParam', { param: k });
        cond.add(`e.company_id = ${cond.param(value)}::bigint`);
        break;
    }
  }
}

/** One page of examinations under `cond`: `{records, total, size, current, pages}`. */
async function examinePage(engine: ResourceEngine, query: Record<string, unknown>, cond: Conditions) {
  const { current, size } = paging(query);
  addExamineFilters(engine, query, cond);
  const where = cond.sql();
  const rows = await engine.query<Row>(`${SELECT_EXAMINE} WHERE ${where} ORDER BY e.update_time DESC, e.id DESC LIMIT ${size} OFFSET ${(current - 1) * size}`, cond.params);
  const count = await engine.query<{ n: number }>(`SELECT count(*)::int AS n FROM basic_examine e WHERE ${where}`, cond.params);
  const total = count[0].n;
  return { records: rows.map((r) => toExamine(engine, r)), total, size, current, pages: Math.ceil(total / size) };
}

export function registerExamineRoutes(app: FastifyInstance, engine: ResourceEngine, org: OrgCache): void {
  const tags = ['basic/examine'];
  const live = (user: AuthUser) => {
    const cond = new Conditions();
    cond.add(`e.tenant_id = ${cond.param(user.tenantId)}`);
    cond.add('e.is_deleted = 0');
    return cond;
  };

  app.get('/api/basic/examine/list', { schema: { tags, summary: 'Examinations the caller may decide (research management, administrators)' } }, async (req) => {
    const user = req.user!;
    const cond = live(user);
    if (!(await addExaminerCondition(engine, org, user, cond))) throw new ApiError(403, 'forbidden');
    return ok(await examinePage(engine, req.query as Record<string, unknown>, cond), undefined, req.lang);
  });

  app.get('/api/basic/examine/list-for-company', { schema: { tags, summary: "Examinations of the caller's company" } }, async (req) => {
    const user = req.user!;
    const types = await companyListTypes(engine, user);
    if (types.length === 0) throw new ApiError(403, 'forbidden');
    const company = user.deptId ? await org.companyOf(user.tenantId, user.deptId) : null;
    const cond = live(user);
    cond.add(`e.business_type = ANY(${cond.param(types)}::text[])`);
    cond.add(company ? `e.company_id = ${cond.param(company)}::bigint` : 'FALSE');
    return ok(await examinePage(engine, req.query as Record<string, unknown>, cond), undefined, req.lang);
  });

  app.get('/api/basic/examinerecord/list', { schema: { tags, summary: 'The steps of an examination, oldest first' } }, async (req) => {
    const user = req.user!;
    const q = req.query as Record<string, unknown>;
    const { current, size } = paging(q);
    for (const k of Object.keys(q)) {
      if (!['businessId', 'businessType', 'examineId', 'current', 'size'].includes(k) && !k.startsWith('_')) throw new ApiError(400, 'unknownFilter', { field: k });
    }
    const cond = live(user);
    const idOf = (param: string) => {
      const v = q[param];
      if (v === undefined || v === '') return undefined;
      if (typeof v !== 'string' || !isId(v)) throw new ApiError(400, 'badParam', { param });
      return v;
    };
    const businessId = idOf('businessId');
    const examineId = idOf('examineId');
    if (!businessId && !examineId) throw new ApiError(400, 'missingParam', { param: 'businessId' });
    if (businessId) cond.add(`e.business_id = ${cond.param(businessId)}::bigint`);
    if (examineId) cond.add(`e.id = ${cond.param(examineId)}::bigint`);
    if (typeof q.businessType === 'string' && q.businessType !== '') cond.add(`e.business_type = ANY(${cond.param(typeFilter(engine, q.businessType))}::text[])`);
    else if (q.businessType !== undefined && q.businessType !== '') throw new ApiError(400, 'badParam', { param: 'businessType' });
    const exams = await engine.query<Row>(`SELECT e.* FROM basic_examine e WHERE ${cond.sql()}`, cond.params);
    const visible: string[] = [];
    for (const e of exams) if (await canSee(engine, org, user, e)) visible.push(String(e.id));
    const empty = { records: [], total: 0, size, current, pages: 0 };
    if (visible.length === 0) return ok(empty, undefined, req.lang);
    const rows = await engine.query<Row>(
      `SELECT * FROM basic_examine_record WHERE tenant_id = $1 AND examine_id = ANY($2::bigint[]) ORDER BY create_time, id LIMIT ${size} OFFSET ${(current - 1) * size}`,
      [user.tenantId, visible],
    );
    const count = await engine.query<{ n: number }>(`SELECT count(*)::int AS n FROM basic_examine_record WHERE tenant_id = $1 AND examine_id = ANY($2::bigint[])`, [user.tenantId, visible]);
    const records = rows.map((row) => {
      const out: Row = {};
      for (const [k, v] of Object.entries(row)) out[camel(k)] = v;
      return out;
    });
    const total = count[0].n;
    return ok({ records, total, size, current, pages: Math.ceil(total / size) }, undefined, req.lang);
  });
}
