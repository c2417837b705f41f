/**
 * Data scopes by name and API scopes (DESIGN §5 'data scopes … and API scopes granted to roles', the
 * pipeline's 'API scope check', §11; spec 002 §1 数据权限 / 接口权限; migration 0006, core/context.ts,
 * core/api-scope.ts, the seed):
 *
 * - `blade_scope_data.scope_type` holds names, checked by the database; `blade_scope_api.scope_method` too;
 * - the research management of 华北分公司 (kygl_hb) acts through its own role (alias kygl, scope 'own company
 *   and children' on the six achievement types): it lists its company's records and those of a company below
 *   it, never another subsidiary's or the group's (404 on detail, submit and remove, nothing changed), while
 *   the group's research management (kygl) still sees all; migration 0006 gives an older database that role;
 * - a role granted the API scope `/api/basic/patent/**` GET only may list patents, and gets 403 (zh and en
 *   message) on a thesis list and a patent submit, nothing stored; the shell's essentials stay open; a role
 *   without API scopes, a user acting with an unrestricted role too, and an administrator are unaffected;
 *   a user of tenant 100001 gets nothing of tenant 000000 through the allowed path;
 * - Ant patterns: `*`, `**`, `?`, `{name}`, methods.
 *
 * Test files share one database: every record carries TAG in its name, and what this file grants it takes
 * back in afterAll.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, validPatent, type Json, type Session, type TestServer } from './helpers.js';
import { nextId } from '../../src/server/core/ids.js';
import { antPatternToRegExp, apiScopeMatches, compileApiScope } from '../../src/server/core/api-scope.js';
import { addSubsidiaryResearchManagement } from '../../src/server/core/db/migrations/0006_scopes.js';

let s: TestServer;
let kygl: Session; // research management of the group: no data scope
let kyglHb: Session; // research management of 华北分公司: own company and children
let kyry: Session; // researcher, 华北分公司 / 仓储管理部
let duo: Session; // researcher + project manager, 华东分公司
let admin: Session; // administrator, tenant 000000
const TAG = `SC${Date.now().toString(36)}`;
const TYPES = ['patent', 'thesis', 'softwarecopyright', 'book', 'award', 'standard'];

const q = async <T extends Json = Json>(text: string, params: unknown[] = []) => (await s.kernel.database.pool.query<T>(text, params)).rows;
const ids = (res: { body: Json }) => (res.body.data.records as Json[]).map((r) => r.id as string);
const patent = async (who: Session, tag: string) => {
  const res = await call(s, who, 'POST', '/api/basic/patent/submit', validPatent(`${TAG}-${tag}`, who.deptId));
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data as Json;
};

/** Adds a user of `tenantId` in `deptId` with the password of `like` (same tenant) and the roles `roleIds`. */
async function addUser(tenantId: string, account: string, deptId: string, like: string, roleIds: string[]): Promise<void> {
  const id = nextId();
  await q(
    `INSERT INTO blade_user (id, tenant_id, account, password, name, real_name, dept_id)
     SELECT $1::bigint, $2::varchar, $3::varchar, password, $3::varchar, $3::varchar, $4::bigint FROM blade_user WHERE tenant_id = $2::varchar AND account = $5::varchar AND is_deleted = 0`,
    [id, tenantId, account, deptId, like],
  );
  for (const r of roleIds) await q(`INSERT INTO blade_user_role (id, user_id, role_id) VALUES ($1, $2, $3)`, [nextId(), id, r]);
}

/** The ids of `account`'s roles (tenant `tenantId`). */
async function rolesOf(account: string, tenantId = '000000'): Promise<string[]> {
  return (await q<{ id: string }>(
    `SELECT ur.role_id::text AS id FROM blade_user_role ur JOIN blade_user u ON u.id = ur.user_id WHERE u.tenant_id = $1 AND u.account = $2`,
    [tenantId, account],
  )).map((r) => r.id);
}

/** A new role of `tenantId` with the menu and button grants of `likeRoleId`. */
async function addRole(tenantId: string, alias: string, likeRoleId: string): Promise<string> {
  const id = nextId();
  await q(`INSERT INTO blade_role (id, tenant_id, role_name, role_name_en, role_alias, sort) VALUES ($1, $2, $3::varchar, $3::varchar, $3::varchar, 90)`, [id, tenantId, alias]);
  const menus = await q<{ menu_id: string }>(`SELECT menu_id::text AS menu_id FROM blade_role_menu WHERE role_id = $1`, [likeRoleId]);
  for (const m of menus) await q(`INSERT INTO blade_role_menu (id, menu_id, role_id) VALUES ($1, $2, $3)`, [nextId(), m.menu_id, id]);
  return id;
}

const created: { users: string[]; roles: string[]; depts: string[]; apiScopes: string[] } = { users: [], roles: [], depts: [], apiScopes: [] };

beforeAll(async () => {
  s = await testServer();
  [kygl, kyglHb, kyry, duo, admin] = await Promise.all(['kygl', 'kygl_hb', 'kyry', 'duo', 'admin'].map((a) => login(s, a)));
});
afterAll(async () => {
  // take back what this file granted, so later files see the seeded grants only
  if (created.apiScopes.length) {
    await q(`DELETE FROM blade_role_scope WHERE scope_category = 2 AND scope_id = ANY($1::bigint[])`, [created.apiScopes]);
    await q(`UPDATE blade_scope_api SET is_deleted = 1 WHERE id = ANY($1::bigint[])`, [created.apiScopes]);
  }
  if (created.users.length) await q(`UPDATE blade_user SET is_deleted = 1 WHERE account = ANY($1)`, [created.users]);
  if (created.roles.length) await q(`UPDATE blade_role SET is_deleted = 1 WHERE id = ANY($1::bigint[])`, [created.roles]);
  if (created.depts.length) await q(`UPDATE blade_dept SET is_deleted = 1 WHERE id = ANY($1::bigint[])`, [created.depts]);
  s.kernel.grants.invalidate();
  s.kernel.org.invalidate();
  await s.close();
});

describe('the scope tables (migration 0006)', () => {
  it('data scope types are names, and the database refuses anything else', async () => {
    const col = await q(`SELECT data_type, character_maximum_length AS len FROM information_schema.columns WHERE table_name = 'blade_scope_data' AND column_name = 'scope_type'`);
    expect(col).toEqual([{ data_type: 'character varying', len: 32 }]);
    const types = (await q<{ t: string }>(`SELECT DISTINCT scope_type AS t FROM blade_scope_data WHERE is_deleted = 0`)).map((r) => r.t).sort();
    expect(types).toEqual(['own', 'ownCompanyAndChildren', 'ownDeptAndChildren']);
    for (const bad of ['2', 'everything', 'OWN']) {
      await expect(q(`INSERT INTO blade_scope_data (id, resource_code, scope_name, scope_type) VALUES ($1, 'basic/patent', 'x', $2)`, [nextId(), bad])).rejects.toThrow(/blade_scope_data_scope_type_check/);
    }
    expect(await countRows(s, 'blade_scope_data', 'scope_name = $1', ['x'])).toBe(0);
  });

  it('API scopes carry a method: * by default, or a list of HTTP methods', async () => {
    const id = nextId();
    await q(`INSERT INTO blade_scope_api (id, resource_code, scope_name, scope_path) VALUES ($1, 'basic/patent', $2, '/api/basic/patent/**')`, [id, `${TAG} default`]);
    expect((await q(`SELECT scope_method FROM blade_scope_api WHERE id = $1`, [id]))[0]).toEqual({ scope_method: '*' });
    await q(`UPDATE blade_scope_api SET scope_method = 'GET,POST', is_deleted = 1 WHERE id = $1`, [id]);
    for (const bad of ['get', 'FETCH', 'GET,', '', 'GET;DROP']) {
      await expect(q(`UPDATE blade_scope_api SET scope_method = $2 WHERE id = $1`, [id, bad])).rejects.toThrow(/blade_scope_api_scope_method_check/);
    }
  });
});

describe('research management of a subsidiary: own company and the companies below it', () => {
  let north: Json; // kyry's, 华北分公司 / 仓储管理部
  let below: Json; // of a company below 华北分公司
  let east: Json; // duo's, 华东分公司
  let group: Json; // kygl's, the group's 集团科技信息部

  beforeAll(async () => {
    // a company below 华北分公司 with a department and a researcher
    const northId = (await q<{ id: string }>(`SELECT id::text AS id FROM blade_dept WHERE tenant_id = '000000' AND dept_name = '华北分公司' AND is_deleted = 0`))[0].id;
    const depot = nextId();
    const office = nextId();
    await q(
      `INSERT INTO blade_dept (id, tenant_id, parent_id, ancestors, dept_category, dept_name, full_name, sort) VALUES
         ($1, '000000', $2, $3, 1, $4, $4, 9), ($5, '000000', $1, $6, 2, '保管科', '保管科', 1)`,
      [depot, northId, `0,${northId}`, `华北${TAG}储备库`, office, `0,${northId},${depot}`],
    );
    created.depts.push(depot, office);
    s.kernel.org.invalidate('000000');
    const account = `${TAG}depot`.toLowerCase();
    await addUser('000000', account, office, 'kyry', await rolesOf('kyry'));
    created.users.push(account);
    const depotUser = await login(s, account);

    north = await patent(kyry, 'north');
    below = await patent(depotUser, 'below');
    east = await patent(duo, 'east');
    group = await patent(kygl, 'group');
  });

  it('kygl_hb holds its own role: alias kygl (the workflow actions and menus accept it), a child of the group’s', async () => {
    expect(kyglHb.body.role_name).toBe('kygl');
    expect(kyglHb.roleIds).toHaveLength(1);
    expect(kyglHb.roleIds[0]).not.toBe(kygl.roleIds[0]);
    const [role] = await q(`SELECT parent_id::text AS parent, role_alias, role_name, role_name_en FROM blade_role WHERE id = $1`, [kyglHb.roleIds[0]]);
    expect(role).toEqual({ parent: kygl.roleIds[0], role_alias: 'kygl', role_name: '科研管理人员（下属单位）', role_name_en: 'Research management (subsidiary)' });
    const info = await call(s, kyglHb, 'GET', '/api/blade-auth/oauth/user-info');
    expect(info.body.data.roles).toEqual([{ id: kyglHb.roleIds[0], roleName: '科研管理人员（下属单位）', roleNameEn: 'Research management (subsidiary)', roleAlias: 'kygl' }]);
    // the same menus and buttons as the group's research management
    const menus = async (roleId: string) => (await q<{ code: string }>(`SELECT m.code FROM blade_role_menu rm JOIN blade_menu m ON m.id = rm.menu_id WHERE rm.role_id = $1 ORDER BY 1`, [roleId])).map((r) => r.code);
    expect(await menus(kyglHb.roleIds[0])).toEqual(await menus(kygl.roleIds[0]));
  });

  it('the seed gives that role the scope own company and children on the six achievement types and the project declarations', async () => {
    const rows = await q(
      `SELECT d.resource_code, d.scope_column, d.scope_type FROM blade_role_scope rs JOIN blade_scope_data d ON d.id = rs.scope_id
        WHERE rs.role_id = $1 AND rs.scope_category = 1 AND d.is_deleted = 0 ORDER BY 1`,
      [kyglHb.roleIds[0]],
    );
    expect(rows).toEqual([...TYPES.map((t) => `basic/${t}`), 'project/baseinfo'].sort().map((r) => ({ resource_code: r, scope_column: 'create_dept', scope_type: 'ownCompanyAndChildren' })));
    // the group's research management has none
    expect(await countRows(s, 'blade_role_scope', 'role_id = $1', [kygl.roleIds[0]])).toBe(0);
  });

  it('kygl_hb lists its company’s records and those of the company below it, not 华东’s nor the group’s', async () => {
    for (const ep of ['list', 'page']) {
      const got = ids(await call(s, kyglHb, 'GET', `/api/basic/patent/${ep}?name=${TAG}&size=200`));
      expect(new Set(got), ep).toEqual(new Set([north.id, below.id]));
    }
  });

  it('the group’s research management (kygl) still sees every company', async () => {
    const got = ids(await call(s, kygl, 'GET', `/api/basic/patent/list?name=${TAG}&size=200`));
    expect(new Set(got)).toEqual(new Set([north.id, below.id, east.id, group.id]));
  });

  it('kygl_hb reads a record of its company', async () => {
    for (const rec of [north, below]) {
      const res = await call(s, kyglHb, 'GET', `/api/basic/patent/detail?id=${rec.id}`);
      expect(res.status).toBe(200);
      expect(res.body.data.id).toBe(rec.id);
    }
  });

  it('another subsidiary’s (or the group’s) record: 404 on detail, submit and remove, nothing changed', async () => {
    for (const rec of [east, group]) {
      const detail = await call(s, kyglHb, 'GET', `/api/basic/patent/detail?id=${rec.id}`);
      expect(detail.status).toBe(404);
      expect(detail.body.msg).toBe('数据不存在');
      const upd = await call(s, kyglHb, 'POST', '/api/basic/patent/submit', { id: rec.id, name: `${TAG} 改名` });
      expect(upd.status).toBe(404);
      const rm = await call(s, kyglHb, 'POST', `/api/basic/patent/remove?ids=${rec.id}`);
      expect(rm.status).toBe(404);
      expect(await q(`SELECT name, is_deleted FROM basic_patent WHERE id = $1`, [rec.id])).toEqual([{ name: rec.name, is_deleted: 0 }]);
    }
  });

  it('the other types too: a thesis of 华东分公司 is not listed for kygl_hb', async () => {
    const thesis = {
      title: `${TAG} 华东 通风`, projectSource: 3, projectName: '智能粮库关键技术研究', projectType: '3', publish: '粮油食品科技', publishDate: '2024',
      issueNumber: '4', pageScope: '12-18', level: '5', scope: '2', deptId: duo.deptId, authorDetailForm: [{ name: '赵多', rank: 1 }],
      annex: [{ name: '论文.pdf', link: '/upload/20250101/a.pdf' }],
    };
    const res = await call(s, duo, 'POST', '/api/basic/thesis/submit', thesis);
    expect(res.status, res.body.msg).toBe(200);
    expect((await call(s, kyglHb, 'GET', `/api/basic/thesis/list?title=${TAG}`)).body.data.total).toBe(0);
    expect((await call(s, kygl, 'GET', `/api/basic/thesis/list?title=${TAG}`)).body.data.total).toBe(1);
    expect((await call(s, kyglHb, 'GET', `/api/basic/thesis/detail?id=${res.body.data.id}`)).status).toBe(404);
  });

  it('migration 0006 gives a database seeded before it the same role, once, and only in the seeded state', async () => {
    const db = s.kernel.database.db;
    const hbUser = (await q<{ id: string }>(`SELECT id::text AS id FROM blade_user WHERE tenant_id = '000000' AND account = 'kygl_hb'`))[0].id;
    const rollback = new Error('rollback');
    await expect(
      db.transaction().execute(async (trx) => {
        // the state before 0006: kygl_hb holds the group's role, there is no subsidiary role
        await trx.updateTable('blade_user_role').set({ role_id: kygl.roleIds[0] }).where('user_id', '=', hbUser).execute();
        await trx.updateTable('blade_role').set({ is_deleted: 1 }).where('id', '=', kyglHb.roleIds[0]).execute();
        const roleId = await addSubsidiaryResearchManagement(trx);
        expect(roleId).toMatch(/^\d+$/);
        const role = await trx.selectFrom('blade_role').select(['parent_id', 'role_alias', 'tenant_id']).where('id', '=', roleId).executeTakeFirstOrThrow();
        expect({ ...role, parent_id: String(role.parent_id) }).toEqual({ parent_id: kygl.roleIds[0], role_alias: 'kygl', tenant_id: '000000' });
        const held = await trx.selectFrom('blade_user_role').select('role_id').where('user_id', '=', hbUser).execute();
        expect(held.map((r) => String(r.role_id))).toEqual([roleId]);
        const scopes = await trx
          .selectFrom('blade_role_scope as rs')
          .innerJoin('blade_scope_data as d', 'd.id', 'rs.scope_id')
          .select(['d.resource_code', 'd.scope_type', 'd.menu_id'])
          .where('rs.role_id', '=', roleId)
          .execute();
        expect(scopes.map((x) => x.resource_code).sort()).toEqual(TYPES.map((t) => `basic/${t}`).sort());
        expect(scopes.every((x) => x.scope_type === 'ownCompanyAndChildren' && x.menu_id !== null)).toBe(true);
        const menuCount = async (id: string) => Number((await trx.selectFrom('blade_role_menu').select((e) => e.fn.countAll().as('n')).where('role_id', '=', id).executeTakeFirstOrThrow()).n);
        expect(await menuCount(roleId!)).toBe(await menuCount(kygl.roleIds[0]));
        // done once: a second run changes nothing
        expect(await addSubsidiaryResearchManagement(trx)).toBeNull();
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    // not in the seeded state (kygl_hb holds its own role already): nothing is done
    expect(await addSubsidiaryResearchManagement(db)).toBeNull();
    expect(await rolesOf('kygl_hb')).toEqual([kyglHb.roleIds[0]]);
  });
});

describe('API scopes', () => {
  let patentReader: string; // a role limited to GET /api/basic/patent/**
  let reader: Session; // holds patentReader only
  let both: Session; // holds patentReader and the researcher role
  let foreign: Session; // tenant 100001, limited to GET /api/basic/patent/**
  let ours: Json; // a patent of tenant 000000
  let scopeId: string;
  const researcher = async () => (await rolesOf('kyry'))[0];

  /** Grants the API scope `scopeId` to `roleId` (blade_role_scope, scope_category 2). */
  const grant = (roleId: string) => q(`INSERT INTO blade_role_scope (id, scope_category, scope_id, role_id) VALUES ($1, 2, $2, $3)`, [nextId(), scopeId, roleId]);

  beforeAll(async () => {
    ours = await patent(kyry, 'api');
    patentReader = await addRole('000000', `${TAG}reader`, await researcher());
    created.roles.push(patentReader);
    const a = `${TAG}r1`.toLowerCase();
    const b = `${TAG}r2`.toLowerCase();
    await addUser('000000', a, kyry.deptId, 'kyry', [patentReader]);
    await addUser('000000', b, kyry.deptId, 'kyry', [patentReader, await researcher()]);
    created.users.push(a, b);

    // tenant 100001: a role like its researcher, limited the same way
    const demoResearcher = (await q<{ id: string }>(`SELECT id::text AS id FROM blade_role WHERE tenant_id = '100001' AND role_alias = 'researcher' AND is_deleted = 0`))[0].id;
    const demoDept = (await q<{ id: string }>(`SELECT dept_id::text AS id FROM blade_user WHERE tenant_id = '100001' AND account = 'admin'`))[0].id;
    const foreignRole = await addRole('100001', `${TAG}reader`, demoResearcher);
    created.roles.push(foreignRole);
    const f = `${TAG}f1`.toLowerCase();
    await addUser('100001', f, demoDept, 'admin', [foreignRole]);
    created.users.push(f);

    // the API scope, granted to both readers; then every node drops its cached grants (NOTIFY kc_cache 'grants')
    scopeId = nextId();
    created.apiScopes.push(scopeId);
    await q(
      `INSERT INTO blade_scope_api (id, resource_code, scope_name, scope_path, scope_method) VALUES ($1, 'basic/patent', '专利只读', '/api/basic/patent/**', 'GET')`,
      [scopeId],
    );
    [reader, both] = await Promise.all([login(s, a), login(s, b)]);
    foreign = await login(s, f, { tenantId: '100001' });
    // warm the cache before the grant, so the test shows the notification dropping it
    expect((await call(s, reader, 'GET', '/api/basic/thesis/list')).status).toBe(200);
    await grant(patentReader);
    await grant(foreignRole);
    await q(`SELECT pg_notify('kc_cache', 'grants')`);
    for (let i = 0; i < 50 && (await call(s, reader, 'GET', '/api/basic/thesis/list')).status === 200; i++) await new Promise((r) => setTimeout(r, 50));
  });

  it('a limited role lists patents (query strings and a trailing slash do not matter)', async () => {
    const res = await call(s, reader, 'GET', `/api/basic/patent/list?name=${TAG}-api&size=200`);
    expect(res.status, res.body.msg).toBe(200);
    expect(ids(res)).toEqual([ours.id]);
    expect((await call(s, reader, 'GET', `/api/basic/patent/detail?id=${ours.id}`)).body.data.id).toBe(ours.id);
    expect((await call(s, reader, 'GET', `/api/basic/patent/page/?name=${TAG}-api`)).status).toBe(200);
  });

  it('but gets 403 on a thesis list, with a message in both languages', async () => {
    const zh = await call(s, reader, 'GET', '/api/basic/thesis/list?size=10');
    expect(zh.status).toBe(403);
    expect(zh.body).toMatchObject({ code: 403, success: false, data: null, msg: '当前角色无权访问接口 GET /api/basic/thesis/list' });
    const en = await call(s, reader, 'GET', '/api/basic/thesis/list', undefined, { 'accept-language': 'en' });
    expect(en.body.msg).toBe('The current role is not allowed to call GET /api/basic/thesis/list');
  });

  it('and 403 on a patent submit (POST is not granted), nothing stored', async () => {
    const res = await call(s, reader, 'POST', '/api/basic/patent/submit', validPatent(`${TAG}-denied`, reader.deptId));
    expect(res.status).toBe(403);
    expect(res.body.msg).toBe('当前角色无权访问接口 POST /api/basic/patent/submit');
    expect(await countRows(s, 'basic_patent', 'name LIKE $1', [`${TAG}-denied%`])).toBe(0);
    const rm = await call(s, reader, 'POST', `/api/basic/patent/remove?ids=${ours.id}`);
    expect(rm.status).toBe(403);
    expect(await countRows(s, 'basic_patent', 'id = $1 AND is_deleted = 0', [ours.id])).toBe(1);
  });

  it('a path that only looks like the granted one is not let through', async () => {
    for (const url of ['/api/basic/patent/../thesis/list', '/api/basic/patent/%2e%2e/thesis/list', '/api/basic/patentx/list', '/api/basic/Patent/list']) {
      const res = await call(s, reader, 'GET', url);
      expect([403, 404], url).toContain(res.status);
      expect(res.body.success, url).toBe(false);
    }
  });

  it('the shell’s essentials stay open: user info, menus, buttons, top menus, logout', async () => {
    for (const url of ['/api/blade-auth/oauth/user-info', '/api/blade-user/info', '/api/blade-system/menu/routes', '/api/blade-system/menu/buttons', '/api/blade-system/menu/top-menu', '/api/system/schema/detail?name=basic/patent', '/api/blade-system/dict-biz/dictionary?code=patent_type']) {
      const res = await call(s, reader, 'GET', url);
      expect(res.status, `${url}: ${res.body.msg}`).toBe(200);
    }
    const menus = (await call(s, reader, 'GET', '/api/blade-system/menu/routes')).body.data as Json[];
    expect(JSON.stringify(menus)).toContain('/basic/patent');
    // and the account's own onboarding and password change: a limited role can still replace a generated password
    for (const url of ['/api/blade-user/checkInit', '/api/blade-user/showInitPassWord', '/api/blade-user/checkPasswordTime']) {
      const res = await call(s, reader, 'GET', url);
      expect(res.status, `${url}: ${res.body.msg}`).toBe(200);
    }
    const wrong = await call(s, reader, 'POST', '/api/blade-user/update-password', { oldPassword: 'not-the-password', newPassword: 'Abcdef1!x', newPassword1: 'Abcdef1!x' });
    expect(wrong.status).toBe(400); // reached the route: the old password is wrong, not the API scope
    expect(wrong.body.msg).not.toContain('当前角色无权访问接口');
    // and the shell's report of its own client errors lands in the error log
    const message = `${TAG} limited role's page failed`;
    const sent = await call(s, reader, 'POST', '/api/blade-log/error/submit', [{ type: 'error', url: '/basic/patent', message, stack: '', info: '', time: '2026-01-01 00:00:00' }]);
    expect([sent.status, sent.body.msg]).toEqual([200, '操作成功']);
    expect(await countRows(s, 'blade_log_error', 'message = $1 AND user_id = $2', [message, reader.userId])).toBe(1);
    await q(`DELETE FROM blade_log_error WHERE message = $1`, [message]);
  });

  it('acting with an unrestricted role too lifts the limit; choosing the limited role applies it', async () => {
    expect((await call(s, both, 'GET', '/api/basic/thesis/list')).status).toBe(200);
    const limited = await call(s, both, 'GET', '/api/basic/thesis/list', undefined, { 'role-id': patentReader });
    expect(limited.status).toBe(403);
    expect((await call(s, both, 'GET', '/api/basic/patent/list', undefined, { 'role-id': patentReader })).status).toBe(200);
  });

  it('a role without API scopes is unaffected', async () => {
    expect((await call(s, kyry, 'GET', '/api/basic/thesis/list')).status).toBe(200);
    const res = await call(s, kyry, 'POST', '/api/basic/patent/submit', validPatent(`${TAG}-free`, kyry.deptId));
    expect(res.status, res.body.msg).toBe(200);
  });

  it('an administrator is never limited, even when granted an API scope', async () => {
    await grant(admin.roleIds[0]);
    s.kernel.grants.invalidate();
    try {
      expect((await call(s, admin, 'GET', '/api/basic/thesis/list')).status).toBe(200);
      expect((await call(s, admin, 'GET', '/api/blade-system/dict/list')).status).not.toBe(403);
    } finally {
      await q(`DELETE FROM blade_role_scope WHERE role_id = $1 AND scope_id = $2`, [admin.roleIds[0], scopeId]);
      s.kernel.grants.invalidate();
    }
  });

  it('tenant isolation still applies: tenant 100001 gets nothing of tenant 000000 through the allowed path', async () => {
    const list = await call(s, foreign, 'GET', `/api/basic/patent/list?name=${TAG}&size=200`);
    expect(list.status, list.body.msg).toBe(200);
    expect(list.body.data.total).toBe(0);
    const detail = await call(s, foreign, 'GET', `/api/basic/patent/detail?id=${ours.id}`);
    expect(detail.status).toBe(404);
    expect((await call(s, foreign, 'GET', '/api/basic/thesis/list')).status).toBe(403);
  });

  it('taking the grant back (and notifying) restores the role’s former reach', async () => {
    await q(`DELETE FROM blade_role_scope WHERE role_id = $1 AND scope_id = $2`, [patentReader, scopeId]);
    s.kernel.grants.invalidate();
    expect((await call(s, reader, 'GET', '/api/basic/thesis/list')).status).toBe(200);
  });
});

describe('Ant patterns and methods', () => {
  const m = (pattern: string, path: string, method = 'GET', methods = '*') => apiScopeMatches(compileApiScope('1', pattern, methods), method, path);

  it('** spans any number of segments, none included', () => {
    expect(m('/api/basic/patent/**', '/api/basic/patent')).toBe(true);
    expect(m('/api/basic/patent/**', '/api/basic/patent/list')).toBe(true);
    expect(m('/api/basic/patent/**', '/api/basic/patent/a/b/c')).toBe(true);
    expect(m('/api/basic/patent/**', '/api/basic/patentx/list')).toBe(false);
    expect(m('/api/**/list', '/api/basic/thesis/list')).toBe(true);
    expect(m('/api/**/list', '/api/list')).toBe(true);
    expect(m('/api/**/list', '/api/basic/thesis/detail')).toBe(false);
    expect(m('/**', '/api/anything/at/all')).toBe(true);
  });

  it('* and ? stay inside one segment; {name} is one segment part; other characters are literal', () => {
    expect(m('/api/basic/*/list', '/api/basic/thesis/list')).toBe(true);
    expect(m('/api/basic/*/list', '/api/basic/a/b/list')).toBe(false);
    expect(m('/api/basic/pat*', '/api/basic/patent')).toBe(true);
    expect(m('/api/basic/pat*', '/api/basic/patent/list')).toBe(false);
    expect(m('/api/basic/b??k/list', '/api/basic/book/list')).toBe(true);
    expect(m('/api/basic/b??k/list', '/api/basic/bk/list')).toBe(false);
    expect(m('/api/basic/{type}/list', '/api/basic/award/list')).toBe(true);
    expect(m('/api/basic/{type}/list', '/api/basic//list')).toBe(false);
    expect(m('/api/basic/a.b', '/api/basic/aXb')).toBe(false);
    expect(m('api/basic/patent/list/', '/api/basic/patent/list/')).toBe(true);
    // consecutive ** collapse into one group, so matching stays linear
    const re = antPatternToRegExp('/a/**/**/b/**');
    expect(re.source.match(/\(\?:/g)).toHaveLength(2);
    expect(re.test('/a/x/y/b/z')).toBe(true);
    expect(re.test('/a/b')).toBe(true);
  });

  it('methods: * any; a list admits its own (HEAD goes with GET)', () => {
    expect(m('/api/**', '/api/x', 'POST', '*')).toBe(true);
    expect(m('/api/**', '/api/x', 'POST', 'GET')).toBe(false);
    expect(m('/api/**', '/api/x', 'POST', 'get, post')).toBe(true);
    expect(m('/api/**', '/api/x', 'HEAD', 'GET')).toBe(true);
    expect(m('/api/**', '/api/x', 'DELETE', 'GET,POST')).toBe(false);
  });
});
