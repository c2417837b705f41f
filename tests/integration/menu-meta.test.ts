/**
 * Route meta of menus (spec 000 §2.1 'Any route opens a tab unless its meta disables tabs', 'Scroll position is
 * restored for cached pages'; issue 18): the menu's isTab and keepAlive, edited on the menu screen, reach the
 * client in the routes tree as meta.isTab / meta.keepAlive; rows without them read as the defaults.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let admin: Session;
let kyry: Session;
const MENU = '/api/blade-system/menu';

/** The nodes of a routes tree, flat. */
const flat = (nodes: Json[]): Json[] => nodes.flatMap((n) => [n, ...flat(n.children ?? [])]);

beforeAll(async () => {
  s = await testServer();
  [admin, kyry] = await Promise.all([login(s, 'admin'), login(s, 'kyry')]);
});
afterAll(async () => {
  await s?.close();
});

describe('menu route meta', () => {
  it('defaults: a tab, no scroll restore; an edited menu answers its flags in the routes tree', async () => {
    const before = flat((await call(s, kyry, 'GET', `${MENU}/routes`)).body.data);
    const screen = before.find((n) => n.path && !(n.children ?? []).length)!;
    expect(screen.meta).toMatchObject({ isTab: true, keepAlive: false });
    const detail = (await call(s, admin, 'GET', `${MENU}/detail?id=${screen.id}`)).body.data as Json;
    const save = await call(s, admin, 'POST', `${MENU}/submit`, { ...detail, isTab: false, keepAlive: true });
    expect(save.status, JSON.stringify(save.body)).toBe(200);
    try {
      const after = flat((await call(s, kyry, 'GET', `${MENU}/routes`)).body.data).find((n) => n.id === screen.id)!;
      expect(after.meta).toMatchObject({ isTab: false, keepAlive: true });
      // a row from before the columns (null) reads as the defaults
      await s.kernel.database.pool.query('UPDATE blade_menu SET is_tab = NULL, keep_alive = NULL WHERE id = $1', [screen.id]);
      const nulls = flat((await call(s, kyry, 'GET', `${MENU}/routes`)).body.data).find((n) => n.id === screen.id)!;
      expect(nulls.meta).toMatchObject({ isTab: true, keepAlive: false });
    } finally {
      await s.kernel.database.pool.query('UPDATE blade_menu SET is_tab = $2, keep_alive = $3 WHERE id = $1', [screen.id, detail.isTab ?? null, detail.keepAlive ?? null]);
    }
  });

  it('a flag that is not a boolean is refused with the message, nothing changed', async () => {
    const screen = flat((await call(s, kyry, 'GET', `${MENU}/routes`)).body.data).find((n) => n.path && !(n.children ?? []).length)!;
    const detail = (await call(s, admin, 'GET', `${MENU}/detail?id=${screen.id}`)).body.data as Json;
    const bad = await call(s, admin, 'POST', `${MENU}/submit`, { ...detail, isTab: 'sometimes' });
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toContain('显示标签');
    expect((await call(s, admin, 'GET', `${MENU}/detail?id=${screen.id}`)).body.data.isTab).toBe(detail.isTab);
  });
});
