/**
 * Issue 9: 'a grant takes effect on the grantee's next request (caches invalidated on every node)' — DESIGN §12
 * (stateless API nodes, caches dropped through PostgreSQL LISTEN/NOTIFY). Two API nodes over one database: the
 * grantee works on node B, whose grant cache is warm (kept 30 s otherwise, core/context.ts); the administrator
 * grants a menu on node A (role/grant), and B's next requests see it — the menu in menu/routes and its
 * resource readable — without waiting out the cache; taking the grant back on A takes both away on B.
 *
 * NOTIFY is delivered on commit, asynchronously: B is asked again for at most 2 s (the cache would keep the
 * old grants for 30 s), which is what 'the next request' means across nodes.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, login, type Json, type Session, type TestServer, testServer } from './helpers.js';
import { nextId } from '../../src/server/core/ids.js';

let a: TestServer;
let b: TestServer;
let admin: Session;
let grantee: Session;
let roleId: string;
const userId = nextId();
const TAG = `GN${Date.now().toString(36)}`;

type Node = Json & { children?: Node[] };
const flatten = (nodes: Node[]): Node[] => nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);
const q = async <T extends Json = Json>(text: string, params: unknown[] = []) => (await a.kernel.database.pool.query<T>(text, params)).rows;

beforeAll(async () => {
  [a, b] = await Promise.all([testServer(), testServer()]);
  admin = await login(a, 'admin');
  const role = await call(a, admin, 'POST', '/api/blade-system/role/submit', { roleName: `${TAG} 跨节点`, roleAlias: TAG.toLowerCase(), sort: 9 });
  expect(role.status, role.body.msg).toBe(200);
  roleId = role.body.data.id;
  // a user of tenant 000000 holding only that role, with the demo password (kyry's hash)
  await q(
    `INSERT INTO blade_user (id, tenant_id, account, password, name, real_name, dept_id)
     SELECT $1::bigint, '000000', $2::varchar, password, $2::varchar, $2::varchar, dept_id FROM blade_user WHERE tenant_id = '000000' AND account = 'kyry'`,
    [userId, TAG.toLowerCase()],
  );
  await q(`INSERT INTO blade_user_role (id, user_id, role_id) VALUES ($1, $2, $3)`, [nextId(), userId, roleId]);
  grantee = await login(b, TAG.toLowerCase());
});

afterAll(async () => {
  if (roleId) {
    await q(`DELETE FROM blade_role_menu WHERE role_id = $1`, [roleId]);
    await q(`DELETE FROM blade_user_role WHERE user_id = $1`, [userId]);
    await q(`UPDATE blade_role SET is_deleted = 1 WHERE id = $1`, [roleId]);
    await q(`UPDATE blade_user SET is_deleted = 1 WHERE id = $1`, [userId]);
  }
  await Promise.all([a?.close(), b?.close()]);
});

/** Node B's answer: the grantee's menu codes and the status of the patent list. */
async function onB(): Promise<{ codes: string[]; list: number }> {
  const routes = await call(b, grantee, 'GET', '/api/blade-system/menu/routes');
  const list = await call(b, grantee, 'GET', '/api/basic/patent/list');
  return { codes: flatten((routes.body.data ?? []) as Node[]).map((n) => String(n.code)), list: list.status };
}

/** Asks node B until `ok` holds or 2 s pass; answers the last answer. */
async function untilOnB(ok: (x: { codes: string[]; list: number }) => boolean): Promise<{ codes: string[]; list: number }> {
  let x = await onB();
  for (let i = 0; i < 40 && !ok(x); i++) {
    await new Promise((r) => setTimeout(r, 50));
    x = await onB();
  }
  return x;
}

it('a menu granted on node A reaches the grantee on node B at once, and goes when the grant is taken back', async () => {
  // B's caches are warm: nothing granted
  expect(await onB()).toEqual({ codes: [], list: 403 });
  const ids = await q<{ id: string; code: string }>(`SELECT id::text AS id, code FROM blade_menu WHERE code IN ('achievement', 'patent') AND is_deleted = 0`);
  const menuIds = ids.map((m) => m.id);
  expect(menuIds).toHaveLength(2);

  const granted = await call(a, admin, 'POST', '/api/blade-system/role/grant', { roleIds: [roleId], menuIds });
  expect(granted.status, granted.body.msg).toBe(200);
  const after = await untilOnB((x) => x.list === 200);
  expect(after.list).toBe(200);
  expect(after.codes).toEqual(['achievement', 'patent']);

  const taken = await call(a, admin, 'POST', '/api/blade-system/role/grant', { roleIds: [roleId], menuIds: [] });
  expect(taken.status, taken.body.msg).toBe(200);
  expect(await untilOnB((x) => x.list === 403)).toEqual({ codes: [], list: 403 });
});
