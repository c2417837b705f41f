/**
 * Research projects (issue 12; spec 001 §1, §2 "Project screens", §4, §7 "Projects"): guides, the declaration
 * on the BPMN process `projectDeclaration` (schemas/flows/project-declaration.bpmn, through the schema key
 * `flow`), expert review, and the lists and figures of each role.
 *
 * - schemas (schemas/project/): `project/guide` (examined and published through generic `actions`, POST
 *   /api/project/guide/examine), `project/baseinfo` (the declaration), `project/expert` (experts picked for a
 *   project and their scores);
 * - declaration.ts: the budget arithmetic, the fixed states, the group company, the save progress;
 *   routes.ts: the declaration's own lists and calls; expert.ts: picking rules and submitComment;
 *   dashboard.ts: the project figures of the home page (myProjectNumber, companyProjectNumber,
 *   companyProjectMoney, expertProject); templates.ts: the Word templates of the project documents (enable,
 *   checkVersion, tree; the documents themselves come from src/server/modules/documents); team.ts: team/list
 *   and annex/clearFile; reports.ts: the reports' myReport and reportexamine/list; task-lists.ts: the intents'
 *   done-list-of-jituan / done-list-of-yuan and the declaration's todoBfList; report-due.ts: reports due by the
 *   report rules as to-dos of the projects' registrants;
 *   migrations.ts: the project's state kept from its process (triggers);
 * - seed (every start, for each live tenant, add-only): the project dictionaries (dictionaries.ts) a tenant
 *   lacks, and the values a dictionary it has lacks; the data scopes of project/baseinfo when none exist (declaring units: their department and below;
 *   a subsidiary's research management: its company and below; researchers: their own), the expert's scope
 *   on project/expert (their own picks, expert_id) when it has none, the expert's 专家评审 menu row an older
 *   seed left disabled (enableExpertMenu), and, in the demo
 *   tenant 000000 when it has no guide, a published guide;
 * - demo.ts (once the app is ready, tenant 000000 without projects): a project in every state, an expert
 *   review and reports, each step taken by its demo account through the API and the real process.
 */
import { sql, type Db } from '../../core/db/index.js';
import { nextId } from '../../core/ids.js';
import { CHANNEL, notify } from '../../core/channels.js';
import type { Module } from '../../core/module.js';
import { PROJECT_DICTIONARIES } from './dictionaries.js';
import { registerDeclarationHooks, PROJECT } from './declaration.js';
import { registerDeclarationRoutes } from './routes.js';
import { registerExpert, EXPERT } from './expert.js';
import { registerProjectDashboard } from './dashboard.js';
import { registerTemplates } from './templates.js';
import { registerTeamAndAnnex } from './team.js';
import { migrations } from './migrations.js';
import { registerDemoProjects } from './demo.js';
import { registerReportLists } from './reports.js';
import { registerTaskLists } from './task-lists.js';
import { registerReportReminders } from './report-due.js';

async function seedDictionaries(db: Db, tenantId: string): Promise<void> {
  for (const [i, d] of PROJECT_DICTIONARIES.entries()) {
    const has = (await sql<{ id: string }>`SELECT id::text AS id FROM blade_dict_biz WHERE tenant_id = ${tenantId} AND code = ${d.code} AND parent_id = 0 ORDER BY id LIMIT 1`.execute(db)).rows[0];
    if (has) {
      // a dictionary the tenant has gets only the values it never had (project_status 8 已结题 came later); edits stay
      const keys = new Set((await sql<{ k: string }>`SELECT dict_key AS k FROM blade_dict_biz WHERE tenant_id = ${tenantId} AND code = ${d.code} AND parent_id = ${has.id}::bigint`.execute(db)).rows.map((r) => r.k));
      for (const [j, [key, zh, en]] of d.items.entries()) {
        if (keys.has(key)) continue;
        await sql`INSERT INTO blade_dict_biz (id, tenant_id, parent_id, code, dict_key, dict_value, dict_value_en, sort, is_sealed)
                  VALUES (${nextId()}::bigint, ${tenantId}, ${has.id}::bigint, ${d.code}, ${key}, ${zh}, ${en}, ${j + 1}, 0)`.execute(db);
      }
      continue;
    }
    const parentId = nextId();
    await sql`INSERT INTO blade_dict_biz (id, tenant_id, parent_id, code, dict_key, dict_value, dict_value_en, sort, remark, is_sealed)
              VALUES (${parentId}::bigint, ${tenantId}, 0, ${d.code}, '-1', ${d.dictValue}, ${d.dictValueEn}, ${100 + i}, ${d.remark}, 0)`.execute(db);
    for (const [j, [key, zh, en]] of d.items.entries()) {
      await sql`INSERT INTO blade_dict_biz (id, tenant_id, parent_id, code, dict_key, dict_value, dict_value_en, sort, is_sealed)
                VALUES (${nextId()}::bigint, ${tenantId}, ${parentId}::bigint, ${d.code}, ${key}, ${zh}, ${en}, ${j + 1}, 0)`.execute(db);
    }
  }
}

/** Data scopes of the declaration, as the achievements have (seed/index.ts ACHIEVEMENT_SCOPES). */
const SCOPES = [
  { name: '本人数据', column: 'create_user', type: 'own', roles: sql`r.role_alias = 'researcher'` },
  { name: '本部门及子部门数据', column: 'create_dept', type: 'ownDeptAndChildren', roles: sql`r.role_alias = 'sbdw'` },
  { name: '本单位及下属单位数据', column: 'create_dept', type: 'ownCompanyAndChildren', roles: sql`r.role_alias = 'kygl' AND r.parent_id <> 0` },
];

async function seedScopes(db: Db): Promise<void> {
  if ((await sql`SELECT 1 FROM blade_scope_data WHERE resource_code = ${PROJECT} LIMIT 1`.execute(db)).rows.length) return;
  const menu = (await sql<{ id: string }>`SELECT id::text AS id FROM blade_menu WHERE code = 'project_baseinfo' AND is_deleted = 0 LIMIT 1`.execute(db)).rows[0];
  if (!menu) return;
  for (const sc of SCOPES) {
    const id = nextId();
    await sql`INSERT INTO blade_scope_data (id, menu_id, resource_code, scope_name, scope_column, scope_type) VALUES (${id}::bigint, ${menu.id}::bigint, ${PROJECT}, ${sc.name}, ${sc.column}, ${sc.type})`.execute(db);
    const roles = await sql<{ id: string }>`SELECT r.id::text AS id FROM blade_role r WHERE r.is_deleted = 0 AND ${sc.roles}`.execute(db);
    for (const r of roles.rows) await sql`INSERT INTO blade_role_scope (id, scope_category, scope_id, role_id) VALUES (${nextId()}::bigint, 1, ${id}::bigint, ${r.id}::bigint)`.execute(db);
  }
}

/**
 * The expert's scope on project/expert (their 专家评审 menu): only the picks naming them (scope type own on the
 * column expert_id, resources/access.ts), so an expert sees and scores their own reviews and nobody else's.
 */
async function seedExpertScope(db: Db): Promise<void> {
  if ((await sql`SELECT 1 FROM blade_scope_data WHERE resource_code = ${EXPERT} LIMIT 1`.execute(db)).rows.length) return;
  const menu = (await sql<{ id: string }>`SELECT id::text AS id FROM blade_menu WHERE code = 'project_expert_todo' AND is_deleted = 0 LIMIT 1`.execute(db)).rows[0];
  if (!menu) return;
  const id = nextId();
  await sql`INSERT INTO blade_scope_data (id, menu_id, resource_code, scope_name, scope_column, scope_type) VALUES (${id}::bigint, ${menu.id}::bigint, ${EXPERT}, '本人评审', 'expert_id', 'own')`.execute(db);
  const roles = await sql<{ id: string }>`SELECT r.id::text AS id FROM blade_role r WHERE r.is_deleted = 0 AND r.role_alias = 'majorManager'`.execute(db);
  for (const r of roles.rows) await sql`INSERT INTO blade_role_scope (id, scope_category, scope_id, role_id) VALUES (${nextId()}::bigint, 1, ${id}::bigint, ${r.id}::bigint)`.execute(db);
}

/**
 * Databases seeded before the expert's 专家评审 was built hold it as that seed left it (disabled, naming no
 * resource; menu sync only adds): that row, untouched, becomes the built screen. A row an administrator changed
 * (another path, a resource, removed) stays as they left it — and one they disabled after this names its resource.
 */
async function enableExpertMenu(db: Db): Promise<void> {
  const res = await sql`UPDATE blade_menu SET is_enabled = true, resource = ${EXPERT}
                         WHERE code = 'project_expert_todo' AND path = '/project/expert-todo' AND is_enabled = false AND resource IS NULL AND is_deleted = 0`.execute(db);
  if (Number(res.numAffectedRows ?? 0) > 0) await notify(db, CHANNEL.cache, 'grants'); // on commit: every node drops its menu and grant caches
}

async function seedDemo(db: Db): Promise<void> {
  if ((await sql`SELECT 1 FROM project_guide WHERE tenant_id = '000000' LIMIT 1`.execute(db)).rows.length) return;
  const kygl = (await sql<{ id: string; dept: string }>`SELECT id::text AS id, dept_id::text AS dept FROM blade_user WHERE tenant_id = '000000' AND account = 'kygl' AND is_deleted = 0`.execute(db)).rows[0];
  if (!kygl) return;
  const year = new Date().getFullYear() + 1;
  await sql`INSERT INTO project_guide (id, tenant_id, name, guide_year, guide_area, project_type, max_budget, start_date, deadline, topics, eligibility, guide_status, create_user, create_dept, update_user)
            VALUES (${nextId()}::bigint, '000000', ${`${year}年度集团科技项目申报指南`}, ${year}, '1', '3', 200, ${`${year}-01-01`}, ${`${year}-03-31`},
                    ${'1. 低温与准低温储粮技术集成示范；2. 粮情多参数在线监测与预警；3. 储粮害虫绿色防控；4. 粮库能耗监测与节能改造。'},
                    ${'申报单位为集团所属企业；项目负责人具有中级及以上职称，同期主持在研集团级项目不超过1项；执行期一般为1至3年。'},
                    '2', ${kygl.id}::bigint, ${kygl.dept}::bigint, ${kygl.id}::bigint)`.execute(db);
}

export const module: Module = {
  name: 'project',
  migrations,
  routes(app, k) {
    const db = k.database.db;
    registerDeclarationHooks(db, k.engine);
    registerDeclarationRoutes(app, { db, engine: k.engine, org: k.org });
    registerExpert(app, db, k.engine, k.org);
    registerProjectDashboard(app, { db, engine: k.engine, org: k.org });
    registerTemplates(app, db, k.engine);
    registerTeamAndAnnex(app, k.engine);
    registerReportLists(app, k.engine, k.org);
    registerTaskLists(app, db, k.engine, k.org);
    registerReportReminders(app, db); // reports due by the report rules become to-dos (hourly)
    registerDemoProjects(app, k); // once ready: the demo tenant's projects, through the API (demo.ts)
  },
  async seed(k) {
    const db = k.database.db;
    await db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(hashtext('project-seed'))`.execute(trx);
      const tenants = await sql<{ t: string }>`SELECT tenant_id AS t FROM blade_tenant WHERE is_deleted = 0 ORDER BY tenant_id`.execute(trx);
      for (const { t } of tenants.rows) await seedDictionaries(trx, t);
      await seedScopes(trx);
      await enableExpertMenu(trx);
      await seedExpertScope(trx);
      await seedDemo(trx);
    });
  },
};
