/**
 * The demo tenant's research projects (issue 12: "The demo seed includes a guide, projects in every state, an
 * expert panel and reports, so a new user sees a working platform").
 *
 * The projects are not inserted as rows: each is declared and moved on by the demo account whose step it is,
 * through the platform's own API (Fastify `inject`: the whole request pipeline, the engine's rules and hooks,
 * the BPMN process `projectDeclaration` of the flow module, the to-dos, the state triggers of migrations.ts).
 * So the demo data is exactly what users produce and every role's lists show it. The module's kernel seed
 * (index.ts) has published the guide before; this runs once the app is ready (`onReady`), because the flow
 * runtime exists only once the modules' routes are mounted, and requests can be injected only then.
 *
 * Runs only when tenant 000000 never declared a project (no process instance of project/baseinfo, no demo
 * code, removed ones included: a live installation whose projects were removed gets none back) and its demo
 * accounts exist; a session-level advisory lock makes the nodes of one database (or the
 * test files of one run) seed it once. A failing step is logged and stops the demo seed; it never stops the
 * server.
 *
 * What one gets (the declaring unit `sbdw` of 华北储备库 declares; `kygl_hb` is research management of its
 * company 华北分公司, `kygl` of the group, `zj` the expert) — one project per state of dictionary
 * project_status:
 *
 * | state            | how it got there                                                                        |
 * | ---------------- | --------------------------------------------------------------------------------------- |
 * | 0 草稿           | saved (totalSave), not declared                                                          |
 * | 1 单位审核中     | declared (start-process): in kygl_hb's claim list                                       |
 * | 2 集团审核中     | kygl_hb passed it: in kygl's claim list                                                  |
 * | 3 专家评审中     | kygl passed it and picked zj: in zj's expert-todo                                        |
 * | 4 立项审批中     | zj scored it (submitComment) and completed the review: in kygl's to-do list              |
 * | 5 退回修改       | kygl_hb returned it: in sbdw's claim-list-for-sbdw                                       |
 * | 6 已立项         | approved; its 开题报告 approved, its 中期报告 submitted (in kygl_hb's report claim list)   |
 * | 7 未通过         | kygl_hb rejected it                                                                      |
 * | 8 已结题         | approved; its 开题, 中期 and 结题 reports passed by kygl_hb                              |
 */
import type { FastifyInstance } from 'fastify';
import { sql } from '../../core/db/index.js';
import type { Kernel } from '../../app.js';

type Row = Record<string, unknown>;
const DEMO_TENANT = '000000';
const YEAR = new Date().getFullYear();
const API = '/api/project/baseinfo';

/** The demo declarations, one per state (`code`: their marker; `path`: the steps after declaring, each [account, list, outcome]). */
export const DEMO: Array<{ name: string; code: string; type: string; budget: number; declare: boolean; path: Array<[string, string, string]>; expert?: boolean; reports?: 'midterm' | 'final' }> = [
  { name: '粮库智能通风控制系统研究', code: `KC-${YEAR}-101`, type: '3', budget: 40, declare: false, path: [] },
  { name: '储粮害虫绿色防控技术示范', code: `KC-${YEAR}-102`, type: '3', budget: 60, declare: true, path: [] },
  { name: '粮情多参数在线监测与预警平台', code: `KC-${YEAR}-103`, type: '2', budget: 120, declare: true, path: [['kygl_hb', 'claim-list-for-kygl', 'approve']] },
  { name: '低温储粮节能控制关键技术', code: `KC-${YEAR}-104`, type: '2', budget: 150, declare: true, expert: true, path: [['kygl_hb', 'claim-list-for-kygl', 'approve'], ['kygl', 'claim-list-for-kygl', 'approve']] },
  {
    name: '粮库能耗监测与节能改造', code: `KC-${YEAR}-105`, type: '3', budget: 80, declare: true, expert: true,
    path: [['kygl_hb', 'claim-list-for-kygl', 'approve'], ['kygl', 'claim-list-for-kygl', 'approve'], ['zj', 'expert-todo', 'done']],
  },
  { name: '粮食质量快速检测方法研究', code: `KC-${YEAR}-106`, type: '3', budget: 30, declare: true, path: [['kygl_hb', 'claim-list-for-kygl', 'return']] },
  {
    name: '准低温储粮技术集成示范', code: `KC-${YEAR}-107`, type: '2', budget: 180, declare: true, expert: true, reports: 'midterm',
    path: [['kygl_hb', 'claim-list-for-kygl', 'approve'], ['kygl', 'claim-list-for-kygl', 'approve'], ['zj', 'expert-todo', 'done'], ['kygl', 'todo-list', 'approve']],
  },
  { name: '仓储作业机器人应用研究', code: `KC-${YEAR}-108`, type: '3', budget: 50, declare: true, path: [['kygl_hb', 'claim-list-for-kygl', 'reject']] },
  {
    name: '粮库气调储粮技术应用', code: `KC-${YEAR}-109`, type: '3', budget: 90, declare: true, expert: true, reports: 'final',
    path: [['kygl_hb', 'claim-list-for-kygl', 'approve'], ['kygl', 'claim-list-for-kygl', 'approve'], ['zj', 'expert-todo', 'done'], ['kygl', 'todo-list', 'approve']],
  },
];

const COMMENTS: Record<string, string> = { approve: '同意，报上级审核。', return: '请补充研究内容和经费测算依据后重新申报。', reject: '与已立项项目研究内容重复，不予立项。', done: '评审完成。' };

/** A complete declaration of `budget` 万元 (allocated 60 %, the subjects adding up to the total). */
function declaration(d: (typeof DEMO)[number], deptId: string, guideId: string | null): Row {
  const b = d.budget;
  const part = (f: number) => Math.round(b * f * 100) / 100;
  const lines = { budgetEquipment: part(0.3), budgetMaterial: part(0.2), budgetTesting: part(0.1), budgetTravel: part(0.05), budgetMeeting: part(0.05), budgetLabour: part(0.2), budgetExpert: part(0.05) };
  const used = Object.values(lines).reduce((s, x) => s + Math.round(x * 100), 0);
  const year = new Date().getFullYear() + 1;
  return {
    name: d.name, code: d.code, type: d.type, researchType: '2', deptId, ...(guideId ? { guideId } : {}), leader: '王申', leaderPhone: '13800000001', contact: '刘研', contactPhone: '13800000002',
    cooperateUnits: '国家粮食和物资储备局科学研究院', startDate: `${year}-01-01`, endDate: `${year + 1}-12-31`,
    researchContent: `围绕${d.name}开展关键技术研究、装备研制与库点应用示范。`, objectives: '形成可在集团所属库点推广的成套技术与标准规范。', indicators: '综合能耗降低15%；申请发明专利2项；制定企业标准1项。',
    totalBudget: b, allocatedBudget: part(0.6), selfRaisedBudget: (Math.round(b * 100) - Math.round(part(0.6) * 100)) / 100,
    ...lines, budgetOther: (Math.round(b * 100) - used) / 100,
    teamMembers: [{ name: '王申', unit: '华北储备库', title: '3', role: '1', workload: 12 }, { name: '刘研', unit: '华北储备库', title: '2', role: '3', workload: 8 }],
    annex: [],
  };
}

/**
 * Seeds the demo projects through the API once `app` is ready (module comment): in the background, right after
 * the ready hooks (a request injected during them would wait for the readiness it is part of); closing the app
 * waits for it. Callers that need the projects before going on (the integration tests' global setup) await
 * `seedDemoProjects` themselves: it waits for a seed under way on any node.
 */
export function registerDemoProjects(app: FastifyInstance, k: Kernel): void {
  let running: Promise<unknown> = Promise.resolve();
  app.addHook('onReady', async () => {
    running = new Promise((resolve) => setImmediate(resolve))
      .then(() => seedDemoProjects(app, k))
      .catch((e: unknown) => app.log.warn(`demo projects not seeded: ${e instanceof Error ? e.message : String(e)}`));
  });
  app.addHook('onClose', async () => {
    await running;
  });
}

/** The demo projects (module comment); answers how many were declared, 0 when the tenant had some. */
export async function seedDemoProjects(app: FastifyInstance, k: Kernel): Promise<number> {
  const client = await k.database.pool.connect();
  try {
    await client.query(`SELECT pg_advisory_lock(hashtext('project-demo-seed'))`);
    // the tenant never declared a project (the system seed's three plain projects, for achievements, do not count)
    const has = await client.query(`SELECT 1 FROM flow_instance WHERE tenant_id = $1 AND business_type = 'project/baseinfo'
                                    UNION ALL SELECT 1 FROM project_baseinfo WHERE tenant_id = $1 AND code = ANY($2) LIMIT 1`, [DEMO_TENANT, DEMO.map((d) => d.code)]);
    if (has.rows.length) return 0;
    return await run(app, k);
  } finally {
    await client.query(`SELECT pg_advisory_unlock(hashtext('project-demo-seed'))`).catch(() => undefined);
    client.release();
  }
}

async function run(app: FastifyInstance, k: Kernel): Promise<number> {
  const db = k.database.db;
  const tokens = new Map<string, { token: string; userId: string; deptId: string }>();
  for (const account of ['sbdw', 'kygl_hb', 'kygl', 'zj']) {
    const u = (await sql<{ id: string; dept: string | null; name: string | null; real: string | null }>`
      SELECT id::text AS id, dept_id::text AS dept, name, real_name AS real FROM blade_user WHERE tenant_id = ${DEMO_TENANT} AND account = ${account} AND is_deleted = 0`.execute(db)).rows[0];
    if (!u) return 0; // the demo accounts were changed: no demo projects
    const roles = (await sql<{ id: string; alias: string }>`SELECT r.id::text AS id, r.role_alias AS alias FROM blade_user_role ur JOIN blade_role r ON r.id = ur.role_id
                                                          WHERE ur.user_id = ${u.id}::bigint AND r.is_deleted = 0 ORDER BY r.sort, r.id`.execute(db)).rows;
    const { token } = await k.tokens.signAccess({
      tenant_id: DEMO_TENANT, user_id: u.id, dept_id: u.dept ?? '', role_id: roles.map((r) => r.id).join(','), role_name: roles.map((r) => r.alias).join(','),
      account, user_name: account, nick_name: u.name ?? account, real_name: u.real ?? account, client_id: 'saber',
    }, 600);
    tokens.set(account, { token, userId: u.id, deptId: u.dept ?? '' });
  }
  const call = async (account: string, method: 'GET' | 'POST', url: string, payload?: Row): Promise<any> => {
    const res = await app.inject({ method, url, headers: { 'blade-auth': `bearer ${tokens.get(account)!.token}`, 'tenant-id': DEMO_TENANT }, ...(payload ? { payload } : {}) });
    const body = res.json() as { code?: number; msg?: string; data?: unknown };
    if (res.statusCode !== 200) throw new Error(`${account} ${method} ${url}: ${res.statusCode} ${body.msg ?? ''}`);
    return body.data;
  };
  const step = async (account: string, api: string, list: string, businessId: string, outcome: string) => {
    const tasks = (await call(account, 'GET', `${api}/${list}?size=200`)) as { records: Row[] };
    const t = tasks.records.find((x) => String(x.businessId) === businessId);
    if (!t) throw new Error(`${account}: no task in ${list} for ${businessId}`);
    await call(account, 'GET', `${api}/confirm-task?taskId=${String(t.taskId)}`);
    await call(account, 'POST', `${api}/complete-task`, { taskId: String(t.taskId), outcome, comment: COMMENTS[outcome] ?? '同意。' });
  };
  const guide = (await sql<{ id: string }>`SELECT id::text AS id FROM project_guide WHERE tenant_id = ${DEMO_TENANT} AND is_deleted = 0 ORDER BY id LIMIT 1`.execute(db)).rows[0];
  const sbdw = tokens.get('sbdw')!;
  let declared = 0;
  for (const d of DEMO) {
    const saved = (await call('sbdw', 'POST', `${API}/totalSave`, declaration(d, sbdw.deptId, guide?.id ?? null))) as { record: Row };
    const id = String(saved.record.id);
    if (!d.declare) continue;
    await call('sbdw', 'POST', `${API}/start-process`, { businessId: id });
    declared += 1;
    for (const [account, list, outcome] of d.path) {
      if (account === 'zj') {
        const review = (await sql<{ id: string }>`SELECT id::text AS id FROM project_expert WHERE tenant_id = ${DEMO_TENANT} AND project_id = ${id} AND is_deleted = 0 LIMIT 1`.execute(db)).rows[0];
        await call('zj', 'POST', '/api/project/expert/submitComment', {
          id: review.id, scoreInnovation: 25, scoreFeasibility: 26, scoreBenefit: 16, scoreTeam: 17, comment: '技术路线清晰，预期效益明显，建议立项。',
        });
      }
      await step(account, API, list, id, outcome);
      if (d.expert && account === 'kygl' && list === 'claim-list-for-kygl') {
        const deadline = `${new Date().getFullYear() + 1}-01-31`;
        await call('kygl', 'POST', '/api/project/expert/submit', { projectId: id, expertId: tokens.get('zj')!.userId, reviewDeadline: deadline });
      }
    }
    if (d.reports) await reports(call, step, id, d.name, d.reports === 'final');
  }
  return declared;
}

/**
 * An approved project's 开题报告 (approved) and 中期报告 (submitted, awaiting research management); with `final`, the
 * 中期报告 approved too and a 结题报告 written and approved (the project is then 已结题).
 */
async function reports(
  call: (account: string, method: 'GET' | 'POST', url: string, payload?: Row) => Promise<any>,
  step: (account: string, api: string, list: string, businessId: string, outcome: string) => Promise<void>,
  projectId: string,
  name: string,
  final: boolean,
): Promise<void> {
  const api = '/api/project/report';
  const today = new Date().toISOString().slice(0, 10);
  const opening = (await call('sbdw', 'POST', `${api}/submit`, {
    title: `${name} 开题报告`, projectId, reportKind: '1', reportDate: today, progress: 10, spentBudget: 5,
    workDone: '完成开题论证，明确技术路线与进度安排。', nextPlan: '开展样机设计与库点选址。',
  })) as Row;
  await call('sbdw', 'POST', `${api}/start-process`, { businessId: String(opening.id) });
  await step('kygl_hb', api, 'claim-list', String(opening.id), 'approve');
  const midterm = (await call('sbdw', 'POST', `${api}/submit`, {
    title: `${name} 中期报告`, projectId, reportKind: '2', reportDate: today, progress: 50, spentBudget: 62.5,
    workDone: '完成监测系统在两个库点的部署，累计运行三个月。', results: '申请发明专利1项。', problems: '部分传感器低温下漂移。', nextPlan: '完成节能控制策略优化与验收准备。',
  })) as Row;
  await call('sbdw', 'POST', `${api}/start-process`, { businessId: String(midterm.id) });
  if (!final) return;
  await step('kygl_hb', api, 'claim-list', String(midterm.id), 'approve');
  const closing = (await call('sbdw', 'POST', `${api}/submit`, {
    title: `${name} 结题报告`, projectId, reportKind: '3', reportDate: today, progress: 100, spentBudget: 88,
    workDone: '全部研究任务完成，考核指标均已达到。', results: '申请发明专利2项，制定企业标准1项。', nextPlan: '在集团所属库点推广应用。',
  })) as Row;
  await call('sbdw', 'POST', `${api}/start-process`, { businessId: String(closing.id) });
  await step('kygl_hb', api, 'claim-list', String(closing.id), 'approve');
}
