/**
 * The menu panel (`/api/system/menupanel`: getMyPanel, getDefaultPanel, saveMyPanel, configurationDefaultPanel;
 * spec 002 §7, issue 18): the user's shortcut panel on the home page, the tenant default an administrator
 * configures, only screens the caller may open, the tenant's own rows only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let admin: Session;
let kyry: Session; // researcher
let sbdw: Session; // declaring unit
let other: Session; // administrator of tenant 100001
const P = '/api/system/menupanel';
/** Ids of the screens a session may open (appList: the current role's granted screens). */
let kyryScreens: Json[];
let adminScreens: Json[];

/** The screens of appList without a role restriction (a restricted one is offered only to the roles it names). */
const screensOf = async (session: Session) => ((await call(s, session, 'GET', '/api/blade-system/menu/appList')).body.data as Json[]).filter((m) => !m.meta?.roles?.length);
const panelRows = (where = 'TRUE', params: unknown[] = []) => countRows(s, 'blade_menu_panel', `is_deleted = 0 AND ${where}`, params);

beforeAll(async () => {
  s = await testServer();
  [admin, kyry, sbdw] = await Promise.all([login(s, 'admin'), login(s, 'kyry'), login(s, 'sbdw')]);
  other = await login(s, 'admin', { tenantId: '100001' });
  [kyryScreens, adminScreens] = await Promise.all([screensOf(kyry), screensOf(admin)]);
});
afterAll(async () => {
  await s?.close();
});

describe('menu panel', () => {
  it('until anything is saved: an empty default panel', async () => {
    const mine = await call(s, sbdw, 'GET', `${P}/getMyPanel`);
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(mine.body.data).toMatchObject({ menuIds: [], menus: [], isDefault: true });
    // the picker's choices: the screens the user may open
    expect(mine.body.data.choices.map((m: Json) => m.id)).toEqual((await screensOf(sbdw)).map((m) => m.id));
    expect((await call(s, null, 'GET', `${P}/getMyPanel`)).status).toBe(401);
  });

  it('the administrator’s default is every user’s panel until they save their own, narrowed to what each may open', async () => {
    expect(kyryScreens.length).toBeGreaterThan(2);
    const kyryIds = new Set(kyryScreens.map((m) => m.id));
    const adminOnly = adminScreens.find((m) => !kyryIds.has(m.id));
    expect(adminOnly, 'a screen the researcher may not open').toBeDefined();
    const wanted = [kyryScreens[1].id, adminOnly!.id, kyryScreens[0].id];
    const conf = await call(s, admin, 'POST', `${P}/configurationDefaultPanel`, { menuIds: wanted });
    expect(conf.status, JSON.stringify(conf.body)).toBe(200);
    expect(conf.body.data.menuIds).toEqual(wanted);
    expect(conf.body.data.menus.map((m: Json) => m.id)).toEqual(wanted);
    const seen = await call(s, kyry, 'GET', `${P}/getMyPanel`);
    expect(seen.body.data.isDefault).toBe(true);
    // the researcher sees the two screens they may open, in the administrator's order, each ready to open
    expect(seen.body.data.menus.map((m: Json) => m.id)).toEqual([kyryScreens[1].id, kyryScreens[0].id]);
    expect(seen.body.data.menus[0]).toMatchObject({ name: kyryScreens[1].name, path: kyryScreens[1].path });
    expect((await call(s, kyry, 'GET', `${P}/getDefaultPanel`)).body.data.menuIds).toEqual(wanted);
    // configuring again updates the tenant's one default row
    await call(s, admin, 'POST', `${P}/configurationDefaultPanel`, { menuIds: [kyryScreens[0].id, kyryScreens[1].id] });
    expect(await panelRows("tenant_id = '000000' AND user_id = 0")).toBe(1);
    expect((await call(s, kyry, 'GET', `${P}/getMyPanel`)).body.data.menus.map((m: Json) => m.id)).toEqual([kyryScreens[0].id, kyryScreens[1].id]);
  });

  it('saveMyPanel keeps the caller’s own panel, in their order, once per menu; the default no longer applies to them', async () => {
    const ids = [kyryScreens[2].id, kyryScreens[0].id, kyryScreens[2].id];
    const save = await call(s, kyry, 'POST', `${P}/saveMyPanel`, { menuIds: ids, userId: admin.userId });
    expect(save.status, JSON.stringify(save.body)).toBe(200);
    expect(save.body.data).toMatchObject({ menuIds: [kyryScreens[2].id, kyryScreens[0].id], isDefault: false });
    const mine = await call(s, kyry, 'GET', `${P}/getMyPanel`);
    expect(mine.body.data.isDefault).toBe(false);
    expect(mine.body.data.menus.map((m: Json) => m.id)).toEqual([kyryScreens[2].id, kyryScreens[0].id]);
    // the administrator's own panel is still the default (the body's userId was ignored)
    expect((await call(s, admin, 'GET', `${P}/getMyPanel`)).body.data.isDefault).toBe(true);
    expect(await panelRows('user_id = $1', [admin.userId])).toBe(0);
    // saving again updates the one row; an empty panel is a panel too
    const empty = await call(s, kyry, 'POST', `${P}/saveMyPanel`, { menuIds: [] });
    expect(empty.body.data).toMatchObject({ menuIds: [], menus: [], isDefault: false });
    expect(await panelRows('user_id = $1', [kyry.userId])).toBe(1);
    await call(s, kyry, 'POST', `${P}/saveMyPanel`, { menuIds: [kyryScreens[0].id] });
    expect((await call(s, kyry, 'GET', `${P}/getMyPanel`)).body.data.menus.map((m: Json) => m.id)).toEqual([kyryScreens[0].id]);
  });

  it('a menu the user may not open, a menu that is not a screen, bad ids, too many: the message, nothing stored', async () => {
    const kyryIds = new Set(kyryScreens.map((m) => m.id));
    const adminOnly = adminScreens.find((m) => !kyryIds.has(m.id))!;
    const parent = (await s.kernel.database.pool.query(`SELECT id::text AS id, name FROM blade_menu WHERE category = 1 AND is_deleted = 0 AND id IN (SELECT parent_id FROM blade_menu WHERE category = 1) ORDER BY id LIMIT 1`)).rows[0];
    const before = await call(s, kyry, 'GET', `${P}/getMyPanel`);
    const cases: Array<[Session, Json, string]> = [
      [kyry, { menuIds: [kyryScreens[1].id, adminOnly.id] }, `所选菜单「${adminOnly.name}」不可用或您无权打开`],
      [kyry, { menuIds: [parent.id] }, `所选菜单「${parent.name}」不可用或您无权打开`],
      [kyry, { menuIds: ['9000000000000000001'] }, '所选菜单「9000000000000000001」不可用或您无权打开'],
      [kyry, { menuIds: 'abc' }, '参数 menuIds 的值无效'],
      [kyry, { menuIds: [1] }, '参数 menuIds 的值无效'],
      [kyry, {}, '参数 menuIds 的值无效'],
      [admin, { menuIds: adminScreens.slice(0, 21).map((m) => m.id) }, '快捷菜单最多 20 个'],
    ];
    expect(adminScreens.length).toBeGreaterThan(20);
    for (const [who, body, msg] of cases) {
      const res = await call(s, who, 'POST', `${P}/saveMyPanel`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.msg).toBe(msg);
    }
    const en = await call(s, kyry, 'POST', `${P}/saveMyPanel`, { menuIds: [adminOnly.id] }, { 'accept-language': 'en' });
    expect(en.body.msg).toContain('you may not open it');
    expect((await call(s, kyry, 'GET', `${P}/getMyPanel`)).body.data).toEqual(before.body.data);
    expect(await panelRows('user_id = $1', [admin.userId])).toBe(0);
  });

  it('configurationDefaultPanel needs the top-menu grant: a researcher gets 403 and the default is unchanged', async () => {
    const before = await call(s, kyry, 'GET', `${P}/getDefaultPanel`);
    const res = await call(s, kyry, 'POST', `${P}/configurationDefaultPanel`, { menuIds: [kyryScreens[0].id] });
    expect(res.status).toBe(403);
    expect((await call(s, kyry, 'GET', `${P}/getDefaultPanel`)).body.data).toEqual(before.body.data);
    const bad = await call(s, admin, 'POST', `${P}/configurationDefaultPanel`, { menuIds: ['x'] });
    expect(bad.status).toBe(400);
    expect((await call(s, kyry, 'GET', `${P}/getDefaultPanel`)).body.data).toEqual(before.body.data);
  });

  it('another tenant sees nothing of tenant 000000’s panels and keeps its own default', async () => {
    expect((await call(s, other, 'GET', `${P}/getDefaultPanel`)).body.data).toMatchObject({ menuIds: [], menus: [], isDefault: true });
    expect((await call(s, other, 'GET', `${P}/getMyPanel`)).body.data.menus).toEqual([]);
    expect((await call(s, other, 'GET', `${P}/myList`)).body.data.total).toBe(0);
    const theirs = (await screensOf(other))[0];
    const conf = await call(s, other, 'POST', `${P}/configurationDefaultPanel`, { menuIds: [theirs.id] });
    expect(conf.status, JSON.stringify(conf.body)).toBe(200);
    expect(await panelRows("tenant_id = '100001' AND user_id = 0")).toBe(1);
    // tenant 000000's default is untouched
    expect((await call(s, kyry, 'GET', `${P}/getDefaultPanel`)).body.data.menuIds).toEqual([kyryScreens[0].id, kyryScreens[1].id]);
    // the researcher's own row is not in the other tenant's lists
    expect((await call(s, kyry, 'GET', `${P}/myList`)).body.data.records.map((r: Json) => r.userId)).toEqual([kyry.userId]);
  });

  it('a user of two roles: the panel shows what the role they work as may open; a menu of the other role is refused', async () => {
    const duo = await login(s, 'duo');
    expect(duo.roleIds.length).toBe(2);
    const aliases = String(duo.body.role_name).split(',');
    const as = (roleId: string) => ({ 'role-id': roleId });
    const [first, second] = duo.roleIds;
    const screens = async (roleId: string) => ((await call(s, duo, 'GET', '/api/blade-system/menu/appList', undefined, as(roleId))).body.data as Json[]).filter((m) => !m.meta?.roles?.length).map((m) => m.id as string);
    const secondScreens = await screens(second);
    const [only, shared] = (await screens(first)).filter((id) => secondScreens.includes(id));
    // a screen both roles are granted, restricted to the first role's alias (the menu's 可见角色)
    const detail = (await call(s, admin, 'GET', `/api/blade-system/menu/detail?id=${only}`)).body.data as Json;
    expect((await call(s, admin, 'POST', '/api/blade-system/menu/submit', { ...detail, roles: [aliases[0]] })).status).toBe(200);
    try {
      const refused = await call(s, duo, 'POST', `${P}/saveMyPanel`, { menuIds: [only] }, as(second));
      expect(refused.status).toBe(400);
      expect(refused.body.msg).toBe(`所选菜单「${detail.name}」不可用或您无权打开`);
      expect(await panelRows('user_id = $1', [duo.userId])).toBe(0);
      // saved as the role that may open it; working as the other role, the panel shows only the shared screen
      expect((await call(s, duo, 'POST', `${P}/saveMyPanel`, { menuIds: [only, shared] }, as(first))).status).toBe(200);
      const seen = await call(s, duo, 'GET', `${P}/getMyPanel`, undefined, as(second));
      expect(seen.body.data.menuIds).toEqual([only, shared]);
      expect(seen.body.data.menus.map((m: Json) => m.id)).toEqual([shared]);
      expect((await call(s, duo, 'GET', `${P}/getMyPanel`, undefined, as(first))).body.data.menus.map((m: Json) => m.id)).toEqual([only, shared]);
    } finally {
      await call(s, admin, 'POST', '/api/blade-system/menu/submit', detail);
    }
  });
});
