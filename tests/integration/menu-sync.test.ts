/**
 * Menus for existing databases (issue 9; src/server/modules/system/seed/menu-sync.ts): at every start the seed's
 * menu tree is synced add-only — a code the database never knew is added with its grants in every tenant that
 * has the seed's roles; a menu an administrator renamed or removed stays as they left it. The tests run the
 * sync over trees of their own (codes unique to this run) on the shared test database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Session, type TestServer } from './helpers.js';
import { syncSeedMenus } from '../../src/server/modules/system/seed/menu-sync.js';
import { ROLE, type MenuSeed } from '../../src/server/modules/system/seed/index.js';

let s: TestServer;
let admin: Session;
let kyry: Session; // researcher of 000000
const T = `ms${Date.now().toString(36)}`;

const tree = (extra: MenuSeed[] = []): MenuSeed[] => [
  {
    code: `${T}_root`, name: '同步菜单', nameEn: 'Synced', path: `/${T}`, source: 'AppstoreOutlined', grant: [ROLE.researcher],
    children: [
      { code: `${T}_child`, name: '子菜单', nameEn: 'Child', path: `/${T}/child`, resource: 'basic/patent', grant: [ROLE.researcher], children: [{ code: `${T}_child_add`, name: '新增', nameEn: 'Add', category: 2, grant: [ROLE.admin] }] },
      ...extra,
    ],
  },
];
const TOPS = [{ code: 'admin', menus: [`${T}_root`] }];
const db = () => s.kernel.database.db;
const q = async (text: string, params: unknown[] = []) => (await s.kernel.database.pool.query(text, params)).rows;
const menuId = async (code: string) => (await q(`SELECT id::text AS id FROM blade_menu WHERE code = $1 AND is_deleted = 0`, [code]))[0]?.id as string | undefined;
/** Role aliases (with tenant) granted menu `code`, in the two seeded tenants (other test files add tenants of their own). */
const grantees = async (code: string) =>
  (await q(`SELECT r.tenant_id || ':' || r.role_alias AS g FROM blade_role_menu rm JOIN blade_role r ON r.id = rm.role_id JOIN blade_menu m ON m.id = rm.menu_id
             WHERE m.code = $1 AND m.is_deleted = 0 AND r.tenant_id IN ('000000', '100001') ORDER BY 1`, [code])).map((r) => r.g as string);
/** Physically deletes menu `code` (and its links), as a database edited by hand would have it. */
async function purge(code: string) {
  await q(`DELETE FROM blade_role_menu WHERE menu_id IN (SELECT id FROM blade_menu WHERE code = $1)`, [code]);
  await q(`DELETE FROM blade_top_menu_setting WHERE menu_id IN (SELECT id FROM blade_menu WHERE code = $1)`, [code]);
  await q(`DELETE FROM blade_menu WHERE code = $1`, [code]);
}

beforeAll(async () => {
  s = await testServer();
  [admin, kyry] = await Promise.all([login(s, 'admin'), login(s, 'kyry')]);
});
afterAll(async () => {
  await s?.close();
});

describe('menu sync at start', () => {
  it('a seeded database knows every menu of the seed: nothing is added, every code is recorded', async () => {
    expect(await syncSeedMenus(db())).toEqual([]);
    expect(await countRows(s, 'kc_seeded_menu', `code IN ('system', 'user', 'attach', 'systembanip_unseal')`)).toBe(4);
  });

  it('adds a new menu tree with its grants in every tenant with the seed’s roles, and its top menu', async () => {
    expect(await syncSeedMenus(db(), tree(), TOPS)).toEqual([`${T}_root`, `${T}_child`, `${T}_child_add`]);
    expect(await grantees(`${T}_root`)).toEqual(['000000:administrator', '000000:researcher', '100001:administrator', '100001:researcher']);
    expect(await grantees(`${T}_child_add`)).toEqual(['000000:administrator', '100001:administrator']);
    const child = await q(`SELECT c.parent_id::text AS p, c.resource, c.sort FROM blade_menu c WHERE c.code = $1`, [`${T}_child`]);
    expect(child[0]).toEqual({ p: await menuId(`${T}_root`), resource: 'basic/patent', sort: 1 });
    // every tenant's 管理 top menu holds it (tenants made since the seed have one too)
    const tops = await countRows(s, 'blade_top_menu', `code = 'admin' AND is_deleted = 0`);
    expect(tops).toBeGreaterThanOrEqual(2);
    expect(await countRows(s, 'blade_top_menu_setting s JOIN blade_top_menu t ON t.id = s.top_menu_id', `t.code = 'admin' AND t.is_deleted = 0 AND s.menu_id = $1`, [await menuId(`${T}_root`)])).toBe(tops);
    // the researcher sees it in the sidebar at once
    const routes = await call(s, kyry, 'GET', '/api/blade-system/menu/routes');
    expect(JSON.stringify(routes.body.data)).toContain(`${T}_child`);
    // a second start adds nothing
    expect(await syncSeedMenus(db(), tree(), TOPS)).toEqual([]);
    expect(await countRows(s, 'blade_menu', 'code = $1', [`${T}_root`])).toBe(1);
  });

  it('an administrator’s rename stays', async () => {
    const root = (await call(s, admin, 'GET', `/api/blade-system/menu/detail?id=${await menuId(`${T}_root`)}`)).body.data;
    const res = await call(s, admin, 'POST', '/api/blade-system/menu/submit', { ...root, name: '改过的名字' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await syncSeedMenus(db(), tree(), TOPS)).toEqual([]);
    expect((await q(`SELECT name FROM blade_menu WHERE code = $1`, [`${T}_root`]))[0].name).toBe('改过的名字');
  });

  it('a menu deleted from blade_menu comes back only if it was never seeded there', async () => {
    await purge(`${T}_child_add`);
    expect(await syncSeedMenus(db(), tree(), TOPS)).toEqual([]); // recorded as seeded: stays gone
    expect(await countRows(s, 'blade_menu', 'code = $1', [`${T}_child_add`])).toBe(0);
    await q(`DELETE FROM kc_seeded_menu WHERE code = $1`, [`${T}_child_add`]); // a database that never had it
    expect(await syncSeedMenus(db(), tree(), TOPS)).toEqual([`${T}_child_add`]);
    expect(await grantees(`${T}_child_add`)).toEqual(['000000:administrator', '100001:administrator']);
  });

  it('a menu an administrator removed stays removed, even where it was never recorded', async () => {
    const id = await menuId(`${T}_child_add`);
    expect((await call(s, admin, 'POST', `/api/blade-system/menu/remove?ids=${id}`)).status).toBe(200);
    await q(`DELETE FROM kc_seeded_menu WHERE code = $1`, [`${T}_child_add`]);
    expect(await syncSeedMenus(db(), tree(), TOPS)).toEqual([]);
    expect(await countRows(s, 'blade_menu', 'code = $1 AND is_deleted = 0', [`${T}_child_add`])).toBe(0);
    expect(await countRows(s, 'kc_seeded_menu', 'code = $1', [`${T}_child_add`])).toBe(1);
  });

  it('a new child goes only to the roles that hold its parent, and not under a removed parent', async () => {
    const researcher = (await q(`SELECT id::text AS id FROM blade_role WHERE tenant_id = '100001' AND role_alias = 'researcher'`))[0].id;
    await q(`DELETE FROM blade_role_menu WHERE role_id = $1 AND menu_id = $2`, [researcher, await menuId(`${T}_child`)]);
    const more: MenuSeed = { code: `${T}_child2`, name: '新子菜单', nameEn: 'New child', path: `/${T}/child2`, grant: [ROLE.researcher] };
    const deeper: MenuSeed = { code: `${T}_child3`, name: '孙菜单', nameEn: 'Grandchild', path: `/${T}/child3`, grant: [ROLE.researcher] };
    const t = tree([more]);
    t[0].children![0].children!.push(deeper);
    expect(await syncSeedMenus(db(), t, TOPS)).toEqual([`${T}_child3`, `${T}_child2`]);
    expect(await grantees(`${T}_child2`)).toEqual(['000000:administrator', '000000:researcher', '100001:administrator', '100001:researcher']);
    expect(await grantees(`${T}_child3`)).toEqual(['000000:administrator', '000000:researcher', '100001:administrator']);
    // the parent removed by an administrator: its new children are not added
    expect((await call(s, admin, 'POST', `/api/blade-system/menu/remove?ids=${await menuId(`${T}_child2`)}`)).status).toBe(200);
    const t2 = tree([{ ...more, children: [{ code: `${T}_orphan`, name: '孤儿', nameEn: 'Orphan', category: 2, grant: [ROLE.admin] }] }]);
    expect(await syncSeedMenus(db(), t2, TOPS)).toEqual([]);
    expect(await countRows(s, 'blade_menu', 'code = $1', [`${T}_orphan`])).toBe(0);
  });

  afterAll(async () => {
    // leave the shared database's menus as they were: this run's menus are removed
    await q(`UPDATE blade_menu SET is_deleted = 1 WHERE code LIKE $1`, [`${T}%`]);
    s.kernel.grants.invalidate();
  });
});

