/**
 * Roles, menus, top menus, data scopes and API scopes (issue 9; spec 002 §2–§7, spec 000 §6–§7; DESIGN §5,
 * §11; src/server/modules/system/roles.ts, menus.ts, scopes.ts, routes.ts, migration 0008):
 *
 * - every call of role/*, menu/* (list … top-parentId, grant trees and keys), topmenu/*, data-scope/*,
 *   api-scope/*, answered in the envelope;
 * - tenant 100001's administrator sees none of tenant 000000's roles or top menus and cannot grant them
 *   (404, nothing changes), and cannot write platform rows (menus, scopes: 403);
 * - a non-administrator gets 403 on every call;
 * - a menu added through menu/submit and granted through role/grant is in the grantee's menu/routes on the
 *   next request, and gone after the grant is taken back; a data scope and an API scope granted through
 *   role/grant are enforced on the next request, and lifted with the grant; top menus granted to a role are
 *   what its top bar shows;
 * - bad input answers the message and stores nothing.
 *
 * Test files share one database: every row this file adds carries TAG, and afterAll removes them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, validPatent, type Json, type Session, type TestServer } from './helpers.js';
import { nextId } from '../../src/server/core/ids.js';

let s: TestServer;
let admin: Session;
let kygl: Session;
let tenantAdmin: Session;
const TAG = `RM${Date.now().toString(36)}`;

const q = async <T extends Json = Json>(text: string, params: unknown[] = []) => (await s.kernel.database.pool.query<T>(text, params)).rows;
const created = { menus: [] as string[], roles: [] as string[], users: [] as string[], topMenus: [] as string[], dataScopes: [] as string[], apiScopes: [] as string[], patents: [] as string[] };

type Node = Json & { children?: Node[] };
const flatten = (nodes: Node[]): Node[] => nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);

/** POST `url` as `who` with a JSON body; expects 200 and answers data. */
async function post(who: Session, url: string, body: unknown): Promise<Json> {
  const res = await call(s, who, 'POST', url, body);
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data;
}
async function get(who: Session, url: string): Promise<any> {
  const res = await call(s, who, 'GET', url);
  expect(res.status, res.body.msg).toBe(200);
  return res.body.data;
}

/** A user of tenant 000000 in kyry's department holding `roleIds`, with the test password; logged in. */
async function userWith(account: string, roleIds: string[]): Promise<Session> {
  const id = nextId();
  await q(
    `INSERT INTO blade_user (id, tenant_id, account, password, name, real_name, dept_id)
     SELECT $1::bigint, '000000', $2::varchar, password, $2::varchar, $2::varchar, dept_id FROM blade_user WHERE tenant_id = '000000' AND account = 'kyry'`,
    [id, account],
  );
  for (const r of roleIds) await q(`INSERT INTO blade_user_role (id, user_id, role_id) VALUES ($1, $2, $3)`, [nextId(), id, r]);
  created.users.push(id);
  return login(s, account);
}

const menuIdByCode = async (code: string) => (await q<{ id: string }>(`SELECT id::text AS id FROM blade_menu WHERE code = $1 AND is_deleted = 0`, [code]))[0].id;

beforeAll(async () => {
  s = await testServer();
  [admin, kygl, tenantAdmin] = await Promise.all([login(s, 'admin'), login(s, 'kygl'), login(s, 'admin', { tenantId: '100001' })]);
});

afterAll(async () => {
  if (created.users.length) {
    await q(`DELETE FROM blade_user_role WHERE user_id = ANY($1::bigint[])`, [created.users]);
    await q(`UPDATE blade_user SET is_deleted = 1 WHERE id = ANY($1::bigint[])`, [created.users]);
  }
  await q(`DELETE FROM blade_role_menu WHERE role_id = ANY($1::bigint[]) OR menu_id = ANY($2::bigint[])`, [created.roles, created.menus]);
  await q(`DELETE FROM blade_role_scope WHERE role_id = ANY($1::bigint[]) OR (scope_category = 1 AND scope_id = ANY($2::bigint[])) OR (scope_category = 2 AND scope_id = ANY($3::bigint[]))`, [created.roles, created.dataScopes, created.apiScopes]);
  await q(`DELETE FROM blade_role_top_menu WHERE role_id = ANY($1::bigint[]) OR top_menu_id = ANY($2::bigint[])`, [created.roles, created.topMenus]);
  await q(`DELETE FROM blade_top_menu_setting WHERE top_menu_id = ANY($1::bigint[]) OR menu_id = ANY($2::bigint[])`, [created.topMenus, created.menus]);
  await q(`UPDATE blade_role SET is_deleted = 1 WHERE id = ANY($1::bigint[])`, [created.roles]);
  await q(`UPDATE blade_menu SET is_deleted = 1 WHERE id = ANY($1::bigint[])`, [created.menus]);
  await q(`UPDATE blade_top_menu SET is_deleted = 1 WHERE id = ANY($1::bigint[])`, [created.topMenus]);
  await q(`UPDATE blade_scope_data SET is_deleted = 1 WHERE id = ANY($1::bigint[])`, [created.dataScopes]);
  await q(`UPDATE blade_scope_api SET is_deleted = 1 WHERE id = ANY($1::bigint[])`, [created.apiScopes]);
  await q(`UPDATE basic_patent SET is_deleted = 1 WHERE id = ANY($1::bigint[])`, [created.patents]);
  s.kernel.grants.invalidate();
  await s.close();
});

describe('roles', () => {
  it('list, tree, tree-by-id, myRole and detail show the caller tenant only', async () => {
    const page = await get(admin, '/api/blade-system/role/list?size=100');
    const aliases = (page.records as Json[]).map((r) => r.roleAlias);
    expect(aliases).toEqual(expect.arrayContaining(['administrator', 'kygl', 'researcher']));
    expect((page.records as Json[]).every((r) => r.tenantId === '000000')).toBe(true);
    const tree = (await get(admin, '/api/blade-system/role/tree')) as Node[];
    const kyglNode = tree.find((n) => n.roleAlias === 'kygl' && n.children?.length)!;
    expect(kyglNode.children![0]).toMatchObject({ roleAlias: 'kygl', title: '科研管理人员（下属单位）', parentId: kyglNode.id });
    expect(await get(admin, '/api/blade-system/role/tree?tenantId=100001')).toEqual([]);
    expect(flatten(await get(admin, `/api/blade-system/role/tree-by-id?roleId=${kyglNode.id}`)).length).toBe(flatten(tree).length);
    const mine = await get(kygl, '/api/blade-system/role/myRole');
    expect(mine).toEqual([expect.objectContaining({ roleAlias: 'kygl', roleName: '科研管理人员', active: true })]);
    expect(await get(admin, `/api/blade-system/role/detail?id=${kyglNode.id}`)).toMatchObject({ roleAlias: 'kygl', roleNameEn: 'Research management' });
    // tenant 100001 sees its own two roles, never 000000's
    const other = await get(tenantAdmin, '/api/blade-system/role/list?size=100');
    expect((other.records as Json[]).map((r) => r.roleAlias).sort()).toEqual(['administrator', 'researcher']);
    expect((await call(s, tenantAdmin, 'GET', `/api/blade-system/role/detail?id=${kyglNode.id}`)).status).toBe(404);
    expect((await call(s, tenantAdmin, 'GET', `/api/blade-system/role/tree-by-id?roleId=${kyglNode.id}`)).status).toBe(404);
    expect(await get(tenantAdmin, '/api/blade-system/role/tree?tenantId=000000')).toEqual([]);
  });

  it('submit checks the alias (required, unique under one parent) and the parent; remove refuses a role in use', async () => {
    const missing = await call(s, admin, 'POST', '/api/blade-system/role/submit', { roleName: `${TAG} 无别名`, sort: 1 });
    expect(missing.status).toBe(400);
    expect(missing.body.msg).toBe('请输入角色别名');
    expect(await countRows(s, 'blade_role', 'role_name = $1', [`${TAG} 无别名`])).toBe(0);

    const role = await post(admin, '/api/blade-system/role/submit', { roleName: `${TAG} 角色`, roleNameEn: `${TAG} role`, roleAlias: `${TAG}a`, sort: 5 });
    created.roles.push(role.id);
    expect(role).toMatchObject({ parentId: '0', tenantId: '000000', roleAlias: `${TAG}a` });
    const dup = await call(s, admin, 'POST', '/api/blade-system/role/submit', { roleName: `${TAG} 重复`, roleAlias: `${TAG}a`, sort: 5 });
    expect(dup.status).toBe(400);
    expect(dup.body.msg).toBe(`同一上级角色下已有别名为 ${TAG}a 的角色`);
    expect(await countRows(s, 'blade_role', 'role_name = $1', [`${TAG} 重复`])).toBe(0);
    // the same alias under another parent is a role of its own (migration 0006)
    const child = await post(admin, '/api/blade-system/role/submit', { roleName: `${TAG} 下级`, roleAlias: `${TAG}a`, parentId: role.id, sort: 1 });
    created.roles.push(child.id);
    const cycle = await call(s, admin, 'POST', '/api/blade-system/role/submit', { ...role, parentId: child.id });
    expect(cycle.status).toBe(400);
    expect(cycle.body.msg).toBe('上级角色不能是该角色本身或其下级角色');
    const foreignParent = (await q<{ id: string }>(`SELECT id::text AS id FROM blade_role WHERE tenant_id = '100001' LIMIT 1`))[0].id;
    const bad = await call(s, admin, 'POST', '/api/blade-system/role/submit', { roleName: `${TAG} 外租户`, roleAlias: `${TAG}b`, parentId: foreignParent, sort: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('上级角色不存在');

    const hasKids = await call(s, admin, 'POST', `/api/blade-system/role/remove?ids=${role.id}`);
    expect(hasKids.status).toBe(400);
    expect(hasKids.body.msg).toBe('请先删除下级角色');
    await userWith(`${TAG}holder`, [child.id]);
    const inUse = await call(s, admin, 'POST', `/api/blade-system/role/remove?ids=${child.id}`);
    expect(inUse.status).toBe(400);
    expect(inUse.body.msg).toBe(`角色 ${TAG} 下级 已分配给用户，不能删除`);
    expect(await countRows(s, 'blade_role', 'id = ANY($1::bigint[]) AND is_deleted = 0', [[role.id, child.id]])).toBe(2);
    // another tenant cannot touch it
    expect((await call(s, tenantAdmin, 'POST', `/api/blade-system/role/remove?ids=${role.id}`)).status).toBe(404);
    expect((await call(s, tenantAdmin, 'POST', '/api/blade-system/role/submit', { ...role, roleName: 'x' })).status).toBe(404);
    const spare = await post(admin, '/api/blade-system/role/submit', { roleName: `${TAG} 待删`, roleAlias: `${TAG}c`, sort: 9 });
    created.roles.push(spare.id);
    await post(admin, `/api/blade-system/role/remove?ids=${spare.id}`, undefined);
    expect(await countRows(s, 'blade_role', 'id = $1 AND is_deleted = 1', [spare.id])).toBe(1);
  });

  it('a non-administrator gets 403 on every call', async () => {
    const role = (await q<{ id: string }>(`SELECT id::text AS id FROM blade_role WHERE tenant_id = '000000' AND role_alias = 'kygl' AND parent_id = 0`))[0].id;
    const gets = [
      '/api/blade-system/role/list', '/api/blade-system/role/tree', `/api/blade-system/role/tree-by-id?roleId=${role}`, `/api/blade-system/role/detail?id=${role}`,
      '/api/blade-system/menu/list', '/api/blade-system/menu/lazy-list', '/api/blade-system/menu/lazy-menu-list', '/api/blade-system/menu/menu-list',
      '/api/blade-system/menu/tree', '/api/blade-system/menu/grant-tree', `/api/blade-system/menu/role-tree-keys?roleIds=${role}`,
      '/api/blade-system/menu/grant-top-tree', '/api/blade-system/topmenu/list', '/api/blade-system/data-scope/list', '/api/blade-system/api-scope/list',
    ];
    for (const url of gets) {
      const res = await call(s, kygl, 'GET', url);
      expect([url, res.status, res.body.msg]).toEqual([url, 403, '没有权限执行此操作']);
    }
    const posts: Array<[string, unknown]> = [
      ['/api/blade-system/role/grant', { roleIds: [role], menuIds: [] }],
      ['/api/blade-system/role/submit', { roleName: 'x', roleAlias: 'x', sort: 1 }],
      [`/api/blade-system/role/remove?ids=${role}`, undefined],
      ['/api/blade-system/menu/submit', { name: 'x', code: `${TAG}x`, category: 1, sort: 1 }],
      ['/api/blade-system/topmenu/grant', { topMenuIds: ['1'], menuIds: [] }],
      ['/api/blade-system/data-scope/submit', { scopeName: 'x', resourceCode: 'basic/patent', scopeType: 'all', scopeColumn: 'create_dept' }],
    ];
    for (const [url, body] of posts) {
      const res = await call(s, kygl, 'POST', url, body);
      expect([url, res.status]).toEqual([url, 403]);
    }
    expect(await countRows(s, 'blade_role_menu', 'role_id = $1', [role])).toBeGreaterThan(0);
  });
});

describe('menus and grants', () => {
  let menu: Json;
  let role: Json;
  let user: Session;
  const path = () => `/system/${TAG}`;

  beforeAll(async () => {
    const systemId = await menuIdByCode('system');
    menu = await post(admin, '/api/blade-system/menu/submit', {
      name: `${TAG} 新菜单`, nameEn: `${TAG} new menu`, code: `${TAG}menu`, category: 1, parentId: systemId, path: path(), resource: 'system/dict', sort: 99, source: 'StarOutlined',
    });
    created.menus.push(menu.id);
    const button = await post(admin, '/api/blade-system/menu/submit', { name: `${TAG} 按钮`, code: `${TAG}menu_add`, category: 2, parentId: menu.id, sort: 1 });
    created.menus.push(button.id);
    role = await post(admin, '/api/blade-system/role/submit', { roleName: `${TAG} 受权角色`, roleAlias: `${TAG}g`, sort: 7 });
    created.roles.push(role.id);
    user = await userWith(`${TAG}user`, [role.id]);
  });

  it('menu reads: list, detail, lazy-list, lazy-menu-list, menu-list, tree', async () => {
    expect(await get(admin, `/api/blade-system/menu/detail?id=${menu.id}`)).toMatchObject({ code: `${TAG}menu`, category: 1, isEnabled: true, isOpen: 1, roles: [] });
    const page = await get(admin, `/api/blade-system/menu/list?code=${TAG}`);
    expect((page.records as Json[]).map((r) => r.code).sort()).toEqual([`${TAG}menu`, `${TAG}menu_add`]);
    const under = (await get(admin, `/api/blade-system/menu/lazy-list?parentId=${menu.parentId}`)) as Json[];
    expect(under.find((m) => m.id === menu.id)).toMatchObject({ hasChildren: true, name: `${TAG} 新菜单` });
    expect(((await get(admin, `/api/blade-system/menu/lazy-list?parentId=${menu.id}`)) as Json[]).map((m) => m.code)).toEqual([`${TAG}menu_add`]);
    expect(await get(admin, `/api/blade-system/menu/lazy-menu-list?parentId=${menu.id}`)).toEqual([]);
    const roots = ((await get(admin, '/api/blade-system/menu/lazy-list')) as Json[]).map((m) => m.code);
    expect(roots).toEqual(expect.arrayContaining(['project', 'achievement', 'system']));
    const list = flatten(await get(admin, '/api/blade-system/menu/menu-list'));
    expect(list.some((m) => m.code === `${TAG}menu`)).toBe(true);
    expect(list.every((m) => m.category === 1)).toBe(true);
    const tree = flatten(await get(admin, '/api/blade-system/menu/tree'));
    expect(tree.find((n) => n.id === menu.id)).toMatchObject({ title: `${TAG} 新菜单`, titleEn: `${TAG} new menu`, value: menu.id, parentId: menu.parentId });
    expect(tree.some((n) => n.code === `${TAG}menu_add`)).toBe(false);
    // a tenant's administrator reads the platform's menus
    expect((await get(tenantAdmin, `/api/blade-system/menu/detail?id=${menu.id}`)).code).toBe(`${TAG}menu`);
  });

  it('menu writes: platform administrators only; code unique; parent checked; children block a remove', async () => {
    const foreign = await call(s, tenantAdmin, 'POST', '/api/blade-system/menu/submit', { name: 'x', code: `${TAG}foreign`, category: 1, sort: 1 });
    expect(foreign.status).toBe(403);
    expect(foreign.body.msg).toBe('平台数据只能由平台管理员维护');
    const dup = await call(s, admin, 'POST', '/api/blade-system/menu/submit', { name: `${TAG} 重复`, code: 'patent', category: 1, sort: 1 });
    expect(dup.status).toBe(400);
    expect(dup.body.msg).toBe('菜单编号 patent 已存在');
    const orphan = await call(s, admin, 'POST', '/api/blade-system/menu/submit', { name: `${TAG} 孤儿`, code: `${TAG}orphan`, category: 2, sort: 1 });
    expect(orphan.status).toBe(400);
    expect(orphan.body.msg).toBe('按钮必须属于一个菜单');
    const badParent = await call(s, admin, 'POST', '/api/blade-system/menu/submit', { name: `${TAG} 无父`, code: `${TAG}noparent`, category: 1, parentId: '123', sort: 1 });
    expect(badParent.body.msg).toBe('上级菜单不存在');
    expect(await countRows(s, 'blade_menu', 'name LIKE $1', [`${TAG} %`])).toBe(2);
    const kids = await call(s, admin, 'POST', `/api/blade-system/menu/remove?ids=${menu.id}`);
    expect(kids.status).toBe(400);
    expect(kids.body.msg).toBe('请先删除下级菜单或按钮');
    expect((await call(s, tenantAdmin, 'POST', `/api/blade-system/menu/remove?ids=${menu.id}`)).status).toBe(403);
    expect(await countRows(s, 'blade_menu', 'id = $1 AND is_deleted = 0', [menu.id])).toBe(1);
  });

  it('a granted menu is in the grantee’s routes on the next request, and gone when the grant is taken back', async () => {
    const routes = async () => flatten((await get(user, '/api/blade-system/menu/routes')) as Node[]);
    expect(await routes()).toEqual([]);
    const tree = await get(admin, '/api/blade-system/menu/grant-tree');
    const nodes = flatten(tree.menu);
    expect(nodes.find((n) => n.id === menu.id)).toMatchObject({ kind: 'menu', code: `${TAG}menu` });
    const button = nodes.find((n) => n.code === `${TAG}menu_add`)!;
    expect(button).toMatchObject({ kind: 'button', parentId: menu.id });

    await post(admin, '/api/blade-system/role/grant', { roleIds: [role.id], menuIds: [menu.id, button.id] });
    const after = await routes();
    expect(after.find((n) => n.id === menu.id)).toMatchObject({ path: path(), resource: 'system/dict', name: `${TAG} 新菜单` });
    expect(after.map((n) => n.code)).toEqual(['system', `${TAG}menu`]); // with its ancestor, without other menus
    const buttons = flatten(await get(user, '/api/blade-system/menu/buttons'));
    expect(buttons.some((n) => n.code === `${TAG}menu_add`)).toBe(true);
    // the grant codes reach the engine at once: the menu's resource (system/dict) needs the code `dict`, not this menu's
    expect(await get(admin, `/api/blade-system/menu/role-tree-keys?roleIds=${role.id}`)).toEqual({ menu: [menu.id, button.id].sort(), dataScope: [], apiScope: [], topMenu: [] });

    // routes-app, appList and top-parentId of the grantee
    expect(flatten(await get(user, '/api/blade-system/menu/routes-app')).map((n) => n.code)).toEqual(['system', `${TAG}menu`, `${TAG}menu_add`]);
    expect((await get(user, '/api/blade-system/menu/appList')).map((n: Json) => n.code)).toEqual([`${TAG}menu`]);
    const adminTop = (await get(admin, '/api/blade-system/menu/top-menu')) as Json[];
    const adminTopId = adminTop.find((t) => t.code === 'admin')!.id;
    expect(await get(user, `/api/blade-system/menu/top-parentId?id=${menu.id}`)).toEqual({ menuId: menu.id, rootId: menu.parentId, topMenuId: adminTopId });
    expect((await get(user, `/api/blade-system/menu/top-parentId?path=${encodeURIComponent(path())}`)).menuId).toBe(menu.id);

    await post(admin, '/api/blade-system/role/grant', { roleIds: [role.id], menuIds: [] });
    expect(await routes()).toEqual([]);
    expect(await countRows(s, 'blade_role_menu', 'role_id = $1', [role.id])).toBe(0);
  });

  it('grant refuses bad input and another tenant’s roles, storing nothing', async () => {
    await post(admin, '/api/blade-system/role/grant', { roleIds: role.id, menuIds: menu.id });
    const cases: Array<[Json, number, string]> = [
      [{ menuIds: [menu.id] }, 400, '请选择要授权的角色'],
      [{ roleIds: ['abc'], menuIds: [menu.id] }, 400, '参数 roleIds 应为 id 列表'],
      [{ roleIds: [role.id], menuIds: { a: 1 } }, 400, '参数 menuIds 应为 id 列表'],
      [{ roleIds: [role.id], menuIds: ['123'] }, 400, '菜单不存在或已删除: 123'],
      [{ roleIds: [role.id], dataScopeIds: ['124'] }, 400, '数据权限不存在或已删除: 124'],
      [{ roleIds: [role.id], apiScopeIds: '125' }, 400, '接口权限不存在或已删除: 125'],
      [{ roleIds: [role.id], topMenuIds: ['126'] }, 400, '顶部菜单不存在或已删除: 126'],
      [{ roleIds: [role.id, '127'], menuIds: [] }, 404, '数据不存在'],
    ];
    for (const [body, status, msg] of cases) {
      const res = await call(s, admin, 'POST', '/api/blade-system/role/grant', body);
      expect([res.status, res.body.msg]).toEqual([status, msg]);
    }
    const en = await call(s, admin, 'POST', '/api/blade-system/role/grant', { roleIds: [role.id], menuIds: ['123'] }, { 'accept-language': 'en' });
    expect(en.body.msg).toBe('Menus not found or removed: 123');
    // tenant 100001's administrator cannot see or grant a role of 000000
    const foreign = await call(s, tenantAdmin, 'POST', '/api/blade-system/role/grant', { roleIds: [role.id], menuIds: [] });
    expect(foreign.status).toBe(404);
    expect((await call(s, tenantAdmin, 'GET', `/api/blade-system/menu/role-tree-keys?roleIds=${role.id}`)).status).toBe(404);
    expect(await countRows(s, 'blade_role_menu', 'role_id = $1 AND menu_id = $2', [role.id, menu.id])).toBe(1);
    await post(admin, '/api/blade-system/role/grant', { roleIds: [role.id] });
  });

  it('top menus: submit, grant (topMenuIds + menuIds), trees and keys, and a role’s top bar', async () => {
    const top = await post(admin, '/api/blade-system/topmenu/submit', { name: `${TAG} 顶部`, nameEn: `${TAG} top`, code: `${TAG}top`, sort: 9 });
    created.topMenus.push(top.id);
    expect(top.tenantId).toBe('000000');
    const dup = await call(s, admin, 'POST', '/api/blade-system/topmenu/submit', { name: `${TAG} 重复`, code: `${TAG}top`, sort: 9 });
    expect(dup.body.msg).toBe(`顶部菜单编号 ${TAG}top 已存在`);
    expect(await get(admin, `/api/blade-system/topmenu/detail?id=${top.id}`)).toMatchObject({ code: `${TAG}top` });
    expect(((await get(admin, '/api/blade-system/topmenu/list?size=100')).records as Json[]).some((t) => t.id === top.id)).toBe(true);
    expect(((await get(tenantAdmin, '/api/blade-system/topmenu/list?size=100')).records as Json[]).some((t) => t.id === top.id)).toBe(false);
    expect((await call(s, tenantAdmin, 'GET', `/api/blade-system/topmenu/detail?id=${top.id}`)).status).toBe(404);
    expect((await call(s, tenantAdmin, 'POST', '/api/blade-system/topmenu/grant', { topMenuIds: [top.id], menuIds: [menu.id] })).status).toBe(404);

    await post(admin, '/api/blade-system/topmenu/grant', { topMenuIds: [top.id], menuIds: [menu.id] });
    expect(await get(admin, `/api/blade-system/menu/top-tree-keys?topMenuIds=${top.id}`)).toEqual({ menu: [menu.id] });
    const grantTop = (await get(admin, '/api/blade-system/menu/grant-top-tree')).menu as Json[];
    expect(grantTop.find((t) => t.id === top.id)).toMatchObject({ title: `${TAG} 顶部`, kind: 'topMenu' });
    expect(((await get(tenantAdmin, '/api/blade-system/menu/grant-top-tree')).menu as Json[]).some((t) => t.id === top.id)).toBe(false);

    // granted no top menu, the role's top bar holds the top menus that hold one of its menus: this one
    await post(admin, '/api/blade-system/role/grant', { roleIds: [role.id], menuIds: [menu.id] });
    const codes = async () => ((await get(user, '/api/blade-system/menu/top-menu')) as Json[]).map((t) => t.code).sort();
    expect(await codes()).toEqual([`${TAG}top`]);
    expect(flatten(await get(user, `/api/blade-system/menu/routes?topMenuId=${top.id}`)).map((n) => n.code)).toEqual([`${TAG}menu`]);
    // granted top menus are exactly what it shows
    const adminTop = ((await get(admin, '/api/blade-system/menu/top-menu')) as Json[]).find((t) => t.code === 'admin')!.id;
    await post(admin, '/api/blade-system/role/grant', { roleIds: [role.id], menuIds: [menu.id], topMenuIds: [adminTop] });
    expect(await codes()).toEqual(['admin']);
    expect((await get(admin, `/api/blade-system/menu/role-tree-keys?roleIds=${role.id}`)).topMenu).toEqual([adminTop]);
    // an absent topMenuIds leaves them as they are
    await post(admin, '/api/blade-system/role/grant', { roleIds: [role.id], menuIds: [menu.id] });
    expect(await codes()).toEqual(['admin']);
    await post(admin, '/api/blade-system/role/grant', { roleIds: [role.id], topMenuIds: [] });
    expect(await codes()).toEqual([]);
    expect((await call(s, admin, 'POST', '/api/blade-system/topmenu/grant', { menuIds: [menu.id] })).body.msg).toBe('请选择顶部菜单');
    await post(admin, `/api/blade-system/topmenu/remove?ids=${top.id}`, undefined);
  });
});

describe('data scopes and API scopes', () => {
  let role: Json;
  let user: Session;
  let patentId: string;

  beforeAll(async () => {
    role = await post(admin, '/api/blade-system/role/submit', { roleName: `${TAG} 范围角色`, roleAlias: `${TAG}s`, sort: 8 });
    created.roles.push(role.id);
    const patentMenu = await menuIdByCode('patent');
    const view = await menuIdByCode('patent_view');
    await post(admin, '/api/blade-system/role/grant', { roleIds: [role.id], menuIds: [patentMenu, view] });
    user = await userWith(`${TAG}scoped`, [role.id]);
    const p = await post(admin, '/api/basic/patent/submit', validPatent(`${TAG}-admin`, admin.deptId));
    patentId = p.id;
    created.patents.push(patentId);
  });

  const visible = async () => ((await get(user, `/api/basic/patent/list?name=${TAG}&size=50`)).records as Json[]).map((r) => r.id);

  it('list, detail, submit, remove; bad input stores nothing', async () => {
    const bad = await call(s, admin, 'POST', '/api/blade-system/data-scope/submit', { scopeName: `${TAG} 坏`, resourceCode: 'basic/nothing', scopeType: 'own', scopeColumn: 'create_user' });
    expect([bad.status, bad.body.msg]).toEqual([400, '资源 basic/nothing 不存在']);
    const badType = await call(s, admin, 'POST', '/api/blade-system/data-scope/submit', { scopeName: `${TAG} 坏`, resourceCode: 'basic/patent', scopeType: 'everything', scopeColumn: 'create_user' });
    expect(badType.status).toBe(400);
    const badMethod = await call(s, admin, 'POST', '/api/blade-system/api-scope/submit', { scopeName: `${TAG} 坏`, resourceCode: 'basic/patent', scopePath: '/api/basic/patent/**', scopeMethod: 'FETCH' });
    expect([badMethod.status, badMethod.body.msg]).toEqual([400, '请求方法须为 * 或逗号分隔的大写方法名（GET,POST …）']);
    const badPath = await call(s, admin, 'POST', '/api/blade-system/api-scope/submit', { scopeName: `${TAG} 坏`, resourceCode: 'basic/patent', scopePath: 'basic/patent', scopeMethod: 'GET' });
    expect([badPath.status, badPath.body.msg]).toEqual([400, '接口路径须以 /api/ 开头，不含空白']);
    expect(await countRows(s, 'blade_scope_data', 'scope_name = $1', [`${TAG} 坏`])).toBe(0);
    expect(await countRows(s, 'blade_scope_api', 'scope_name = $1', [`${TAG} 坏`])).toBe(0);
    const foreign = await call(s, tenantAdmin, 'POST', '/api/blade-system/data-scope/submit', { scopeName: `${TAG} 外`, resourceCode: 'basic/patent', scopeType: 'own', scopeColumn: 'create_user' });
    expect(foreign.status).toBe(403);

    const ds = await post(admin, '/api/blade-system/data-scope/submit', { scopeName: `${TAG} 临时`, resourceCode: 'basic/thesis', scopeType: 'custom', scopeColumn: 'create_dept', scopeValue: '1,2' });
    created.dataScopes.push(ds.id);
    expect(await get(admin, `/api/blade-system/data-scope/detail?id=${ds.id}`)).toMatchObject({ scopeType: 'custom', scopeValue: '1,2' });
    const changed = await post(admin, '/api/blade-system/data-scope/submit', { ...ds, scopeType: 'own' });
    expect(changed.scopeValue).toBeNull(); // only a custom scope keeps a list of departments
    expect(((await get(admin, `/api/blade-system/data-scope/list?scopeName=${TAG}`)).records as Json[]).map((r) => r.id)).toEqual([ds.id]);
    await post(admin, `/api/blade-system/data-scope/remove?ids=${ds.id}`, undefined);
    const as = await post(admin, '/api/blade-system/api-scope/submit', { scopeName: `${TAG} 临时`, resourceCode: 'basic/thesis', scopePath: '/api/basic/thesis/**', scopeMethod: 'GET,POST' });
    created.apiScopes.push(as.id);
    expect(((await get(admin, `/api/blade-system/api-scope/list?scopeName=${TAG}`)).records as Json[]).map((r) => r.id)).toEqual([as.id]);
    expect(await get(admin, `/api/blade-system/api-scope/detail?id=${as.id}`)).toMatchObject({ scopeMethod: 'GET,POST', scopeType: 1 });
    await post(admin, `/api/blade-system/api-scope/remove?ids=${as.id}`, undefined);
    expect(await countRows(s, 'blade_scope_api', 'id = $1 AND is_deleted = 1', [as.id])).toBe(1);
  });

  it('a data scope granted through role/grant applies on the next request, and is lifted with the grant', async () => {
    expect(await visible()).toContain(patentId);
    const patentMenu = await menuIdByCode('patent');
    const own = await post(admin, '/api/blade-system/data-scope/submit', { scopeName: `${TAG} 本人`, menuId: patentMenu, resourceCode: 'basic/patent', scopeType: 'own', scopeColumn: 'create_user' });
    created.dataScopes.push(own.id);
    const tree = await get(admin, '/api/blade-system/menu/grant-tree');
    const leaf = flatten(tree.dataScope).find((n) => n.id === own.id)!;
    expect(leaf).toMatchObject({ kind: 'dataScope', parentId: `menu-${patentMenu}`, title: `${TAG} 本人` });
    const keep = (await get(admin, `/api/blade-system/menu/role-tree-keys?roleIds=${role.id}`)).menu;
    await post(admin, '/api/blade-system/role/grant', { roleIds: [role.id], menuIds: keep, dataScopeIds: [own.id] });
    expect(await visible()).not.toContain(patentId);
    expect((await call(s, user, 'GET', `/api/basic/patent/detail?id=${patentId}`)).status).toBe(404);
    await post(admin, '/api/blade-system/role/grant', { roleIds: [role.id], menuIds: keep });
    expect(await visible()).toContain(patentId);
  });

  it('an API scope granted through role/grant applies on the next request; changing the scope applies too', async () => {
    const keep = (await get(admin, `/api/blade-system/menu/role-tree-keys?roleIds=${role.id}`)).menu;
    const api = await post(admin, '/api/blade-system/api-scope/submit', { scopeName: `${TAG} 论文`, resourceCode: 'basic/thesis', scopePath: '/api/basic/thesis/**', scopeMethod: 'GET' });
    created.apiScopes.push(api.id);
    expect(flatten((await get(admin, '/api/blade-system/menu/grant-tree')).apiScope).find((n) => n.id === api.id)).toMatchObject({ kind: 'apiScope', parentId: 'resource-basic/thesis' });
    await post(admin, '/api/blade-system/role/grant', { roleIds: [role.id], menuIds: keep, apiScopeIds: [api.id] });
    const denied = await call(s, user, 'GET', `/api/basic/patent/list?name=${TAG}`);
    expect([denied.status, denied.body.msg]).toEqual([403, `当前角色无权访问接口 GET /api/basic/patent/list`]);
    // the scope itself changed to cover patents: allowed on the next request
    await post(admin, '/api/blade-system/api-scope/submit', { ...api, scopePath: '/api/basic/patent/**' });
    expect(await visible()).toContain(patentId);
    await post(admin, '/api/blade-system/api-scope/submit', { ...api, scopePath: '/api/basic/thesis/**' });
    expect((await call(s, user, 'GET', `/api/basic/patent/list?name=${TAG}`)).status).toBe(403);
    await post(admin, '/api/blade-system/role/grant', { roleIds: [role.id], menuIds: keep });
    expect(await visible()).toContain(patentId);
    expect(await get(admin, `/api/blade-system/menu/role-tree-keys?roleIds=${role.id}`)).toMatchObject({ dataScope: [], apiScope: [] });
  });
});
