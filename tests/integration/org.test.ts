/**
 * Departments, posts, tenants, clients and parameters (spec 002 §2, §7; issue 9): every call, tenant
 * isolation, 403 for non-administrators (and for tenant administrators on platform data), removal refused for
 * a department with users or child departments with nothing changed, a new tenant with its administrator,
 * root department and roles whose administrator logs in with the answered password, an expired tenant that
 * cannot log in, a client whose secret is answered once and stored hashed, and bad input refused with its
 * message and nothing stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let admin: Session; // administrator of the platform tenant 000000
let kyry: Session; // researcher, no administration grants
let other: Session; // administrator of tenant 100001
const TAG = `og${Date.now().toString(36)}`;
const DEPT = '/api/blade-system/dept';
const POST = '/api/blade-system/post';
const TENANT = '/api/blade-system/tenant';
const CLIENT = '/api/blade-system/client';
const PARAM = '/api/blade-system/param';

beforeAll(async () => {
  s = await testServer();
  [admin, kyry, other] = await Promise.all([login(s, 'admin'), login(s, 'kyry'), login(s, 'admin', { tenantId: '100001' })]);
});
afterAll(async () => {
  await s?.close();
});

const addDept = async (who: Session, body: Json) => {
  const res = await call(s, who, 'POST', `${DEPT}/submit`, { deptCategory: 2, sort: 1, fullName: body.deptName, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as Json;
};

describe('departments', () => {
  let company: Json;
  let child: Json;

  it('submit creates a company and a department under it, ancestors derived', async () => {
    company = await addDept(admin, { deptName: `${TAG}公司`, deptCategory: 1 });
    expect(company.ancestors).toBe('0');
    child = await addDept(admin, { deptName: `${TAG}部门`, parentId: company.id });
    expect(child.ancestors).toBe(`0,${company.id}`);
    expect(child.parentId).toBe(company.id);
  });

  it('list, detail, tree, lazy-tree, lazy-list and lazy-tree-no-auth answer them', async () => {
    const list = await call(s, admin, 'GET', `${DEPT}/list?deptName=${TAG}`);
    expect(list.body.data.records.map((r: Json) => r.id).sort()).toEqual([company.id, child.id].sort());
    const detail = await call(s, admin, 'GET', `${DEPT}/detail?id=${child.id}`);
    expect(detail.body.data.deptName).toBe(`${TAG}部门`);
    const tree = await call(s, admin, 'GET', `${DEPT}/tree`);
    const node = tree.body.data.find((n: Json) => n.id === company.id);
    expect(node.children.map((c: Json) => c.id)).toEqual([child.id]);
    const lazy = await call(s, admin, 'GET', `${DEPT}/lazy-tree?parentId=${company.id}`);
    expect(lazy.body.data.map((n: Json) => [n.id, n.title, n.hasChildren])).toEqual([[child.id, `${TAG}部门`, false]]);
    const lazyList = await call(s, admin, 'GET', `${DEPT}/lazy-list?parentId=0`);
    expect(lazyList.body.data.find((n: Json) => n.id === company.id).hasChildren).toBe(true);
    const noAuth = await call(s, null, 'GET', `${DEPT}/lazy-tree-no-auth?tenantId=000000&parentId=${company.id}`);
    expect(noAuth.status).toBe(200);
    expect(noAuth.body.data).toEqual([{ id: child.id, key: child.id, value: child.id, title: `${TAG}部门`, parentId: company.id, hasChildren: false }]);
    expect((await call(s, null, 'GET', `${DEPT}/lazy-tree-no-auth`)).status).toBe(400);
  });

  it('another tenant gets nothing of them', async () => {
    expect((await call(s, other, 'GET', `${DEPT}/list?deptName=${TAG}`)).body.data.records).toEqual([]);
    expect((await call(s, other, 'GET', `${DEPT}/detail?id=${child.id}`)).status).toBe(404);
    expect((await call(s, other, 'GET', `${DEPT}/lazy-tree?parentId=${company.id}`)).body.data).toEqual([]);
    expect((await call(s, other, 'POST', `${DEPT}/remove?ids=${child.id}`)).status).toBe(404);
    const res = await call(s, other, 'POST', `${DEPT}/submit`, { deptName: 'x', fullName: 'x', deptCategory: 2, sort: 1, parentId: company.id });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('上级机构不存在');
  });

  it('a non-administrator gets 403 on writes', async () => {
    expect((await call(s, kyry, 'POST', `${DEPT}/submit`, { deptName: 'x', fullName: 'x', deptCategory: 2, sort: 1 })).status).toBe(403);
    expect((await call(s, kyry, 'POST', `${DEPT}/remove?ids=${child.id}`)).status).toBe(403);
  });

  it('a department cannot become its own descendant', async () => {
    const res = await call(s, admin, 'POST', `${DEPT}/submit`, { ...company, parentId: child.id });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('上级机构不能是自身或其下级机构');
  });

  it('bad input: the message, and nothing stored', async () => {
    const before = await countRows(s, 'blade_dept');
    const res = await call(s, admin, 'POST', `${DEPT}/submit`, { deptName: '', deptCategory: 2, sort: 1 });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('请输入机构名称');
    const en = await call(s, admin, 'POST', `${DEPT}/submit`, { fullName: 'x', deptCategory: 2, sort: 1 }, { 'accept-language': 'en' });
    expect(en.body.msg).toBe('Please enter the department name');
    expect(await countRows(s, 'blade_dept')).toBe(before);
  });

  it('removing a department with child departments or users is refused and nothing changes', async () => {
    const parent = await call(s, admin, 'POST', `${DEPT}/remove?ids=${company.id}`);
    expect(parent.status).toBe(400);
    expect(parent.body.msg).toBe('该机构下还有下级机构，不能删除');
    // a user in the child department
    await s.kernel.database.pool.query(
      `INSERT INTO blade_user (id, tenant_id, account, password, dept_id) VALUES ((SELECT max(id) + 1 FROM blade_user), '000000', $1, 'x', $2)`,
      [`${TAG}u`, child.id],
    );
    const withUser = await call(s, admin, 'POST', `${DEPT}/remove?ids=${child.id}`, undefined, { 'accept-language': 'en' });
    expect(withUser.status).toBe(400);
    expect(withUser.body.msg).toBe('The department still has users and cannot be removed');
    expect(await countRows(s, 'blade_dept', 'id = ANY($1::bigint[]) AND is_deleted = 0', [[company.id, child.id]])).toBe(2);
    // once the user is gone, the child and then the company can be removed
    await s.kernel.database.pool.query(`UPDATE blade_user SET is_deleted = 1 WHERE account = $1`, [`${TAG}u`]);
    expect((await call(s, admin, 'POST', `${DEPT}/remove?ids=${child.id}`)).status).toBe(200);
    expect((await call(s, admin, 'POST', `${DEPT}/remove?ids=${company.id}`)).status).toBe(200);
  });

  it('a change of departments reaches the organisation cache at once', async () => {
    const c = await addDept(admin, { deptName: `${TAG}新公司`, deptCategory: 1 });
    const d = await addDept(admin, { deptName: `${TAG}新部门`, parentId: c.id });
    expect(await s.kernel.org.companyOf('000000', d.id)).toBe(c.id);
    expect(await s.kernel.org.subtree('000000', c.id)).toEqual(expect.arrayContaining([c.id, d.id]));
  });
});

describe('posts', () => {
  let post: Json;
  it('submit, list, detail, select (tenantId), remove', async () => {
    const res = await call(s, admin, 'POST', `${POST}/submit`, { category: 2, postCode: `${TAG}p`.slice(0, 12), postName: `${TAG}岗位`, sort: 5 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    post = res.body.data;
    expect((await call(s, admin, 'GET', `${POST}/list?postName=${TAG}`)).body.data.records.map((r: Json) => r.id)).toEqual([post.id]);
    expect((await call(s, admin, 'GET', `${POST}/detail?id=${post.id}`)).body.data.postName).toBe(`${TAG}岗位`);
    const sel = await call(s, admin, 'GET', `${POST}/select?tenantId=000000`);
    expect(sel.body.data.map((r: Json) => r.id)).toContain(post.id);
    const platformPick = await call(s, admin, 'GET', `${POST}/select?tenantId=100001`);
    expect(platformPick.body.data.length).toBeGreaterThan(0);
    expect(platformPick.body.data.map((r: Json) => r.id)).not.toContain(post.id);
  });
  it('another tenant gets nothing, a non-administrator 403', async () => {
    expect((await call(s, other, 'GET', `${POST}/list?postName=${TAG}`)).body.data.records).toEqual([]);
    expect((await call(s, other, 'GET', `${POST}/select?tenantId=000000`)).body.data).toEqual([]);
    expect((await call(s, other, 'GET', `${POST}/detail?id=${post.id}`)).status).toBe(404);
    expect((await call(s, kyry, 'GET', `${POST}/list`)).status).toBe(403);
    expect((await call(s, kyry, 'POST', `${POST}/submit`, { category: 1, postCode: 'x', postName: 'x', sort: 1 })).status).toBe(403);
  });
  it('bad input: the message, and nothing stored', async () => {
    const before = await countRows(s, 'blade_post');
    const res = await call(s, admin, 'POST', `${POST}/submit`, { category: 1, postCode: 'a b', postName: 'x', sort: 1 });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('岗位编号只能包含字母、数字、_ 和 -');
    expect(await countRows(s, 'blade_post')).toBe(before);
  });
  it('remove', async () => {
    expect((await call(s, admin, 'POST', `${POST}/remove?ids=${post.id}`)).status).toBe(200);
    expect((await call(s, admin, 'GET', `${POST}/detail?id=${post.id}`)).status).toBe(404);
  });
});

describe('tenants', () => {
  let tenant: Json;

  it('only administrators of 000000 reach them', async () => {
    expect((await call(s, other, 'GET', `${TENANT}/list`)).status).toBe(403);
    expect((await call(s, other, 'GET', `${TENANT}/list`)).body.msg).toBe('平台数据只能由平台管理员维护');
    expect((await call(s, kyry, 'GET', `${TENANT}/list`)).status).toBe(403);
    expect((await call(s, other, 'POST', `${TENANT}/submit`, { tenantName: 'x', contactPerson: 'x' })).status).toBe(403);
    expect((await call(s, other, 'GET', `${TENANT}/datasource?tenantId=100001`)).status).toBe(403);
  });

  it('bad input: the message, and nothing stored', async () => {
    const before = [await countRows(s, 'blade_tenant'), await countRows(s, 'blade_user'), await countRows(s, 'blade_role')];
    const res = await call(s, admin, 'POST', `${TENANT}/submit`, { tenantName: '', contactPerson: 'x', expireTime: '2025-02-30 10:00:00' });
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('请输入租户名称');
    expect([await countRows(s, 'blade_tenant'), await countRows(s, 'blade_user'), await countRows(s, 'blade_role')]).toEqual(before);
  });

  it('creating a tenant creates its administrator, root department and roles; the administrator logs in', async () => {
    const res = await call(s, admin, 'POST', `${TENANT}/submit`, { tenantName: `${TAG}租户`, contactPerson: '王五', contactNumber: '010-1234', domain: `${TAG}.example.com`, tenantId: '000000' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    tenant = res.body.data;
    expect(tenant.tenantId).toMatch(/^\d{6}$/);
    expect(tenant.tenantId).not.toBe('000000');
    expect(tenant.adminAccount).toBe('admin');
    expect(typeof tenant.adminPassword).toBe('string');
    expect(await countRows(s, 'blade_dept', `tenant_id = $1 AND parent_id = 0 AND dept_category = 1 AND dept_name = $2`, [tenant.tenantId, `${TAG}租户`])).toBe(1);
    expect(await countRows(s, 'blade_role', `tenant_id = $1 AND role_alias = 'administrator'`, [tenant.tenantId])).toBe(1);
    expect(await countRows(s, 'blade_role', `tenant_id = $1`, [tenant.tenantId])).toBe(6);
    const stored = await s.kernel.database.pool.query(`SELECT password FROM blade_user WHERE tenant_id = $1 AND account = 'admin'`, [tenant.tenantId]);
    expect(stored.rows[0].password).toMatch(/^\$argon2id\$/);
    const newAdmin = await login(s, 'admin', { tenantId: tenant.tenantId, password: tenant.adminPassword });
    expect(newAdmin.body.tenant_id).toBe(tenant.tenantId);
    expect(newAdmin.body.role_name).toBe('administrator');
    // what the modules seed per tenant is there at once, not at the next start: the business dictionaries of the
    // projects, the duplicate-checking algorithms, the default search indexes
    expect(await countRows(s, 'blade_dict_biz', `tenant_id = $1 AND code = 'project_status' AND parent_id <> 0`, [tenant.tenantId])).toBe(9); // 0–8, 8 已结题 (issue 12)
    expect(await countRows(s, 'duplicate_algorithm', 'tenant_id = $1', [tenant.tenantId])).toBeGreaterThan(0);
    expect(await countRows(s, 'es_index', 'tenant_id = $1', [tenant.tenantId])).toBeGreaterThan(0);
    // its administrator sees its own tenant's departments only, and not the tenants
    const tree = await call(s, newAdmin, 'GET', `${DEPT}/tree`);
    expect(tree.body.data.map((n: Json) => n.title)).toEqual([`${TAG}租户`]);
    expect((await call(s, newAdmin, 'GET', `${TENANT}/list`)).status).toBe(403);
    // the detail no longer answers the password
    const detail = await call(s, admin, 'GET', `${TENANT}/detail?id=${tenant.id}`);
    expect(detail.body.data.adminPassword).toBeUndefined();
    expect((await call(s, admin, 'GET', `${TENANT}/list?tenantName=${TAG}`)).body.data.records.map((r: Json) => r.id)).toEqual([tenant.id]);
  });

  it('the tenant, its department, roles, top menus and administrator are one transaction: a failure at the last step leaves none of them', async () => {
    // fault injection: the administrator's role link (provisionTenant's last insert) fails for this tenant only
    const name = `${TAG}半途`;
    const fn = `${TAG}_fail`.toLowerCase();
    const pool = s.kernel.database.pool;
    await pool.query(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $f$
      BEGIN
        IF EXISTS (SELECT 1 FROM blade_user u JOIN blade_dept d ON d.tenant_id = u.tenant_id WHERE u.id = NEW.user_id AND d.dept_name = '${name}') THEN
          RAISE EXCEPTION 'injected failure';
        END IF;
        RETURN NEW;
      END $f$`);
    await pool.query(`CREATE TRIGGER ${fn} BEFORE INSERT ON blade_user_role FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
    try {
      const tables = ['blade_tenant', 'blade_dept', 'blade_role', 'blade_role_menu', 'blade_top_menu', 'blade_top_menu_setting', 'blade_user', 'blade_user_role'];
      const before = await Promise.all(tables.map((t) => countRows(s, t)));
      const res = await call(s, admin, 'POST', `${TENANT}/submit`, { tenantName: name, contactPerson: '赵六' });
      expect(res.status).toBe(500);
      expect(Object.keys(res.body.data)).toEqual(['errorId']); // the id of the error log row, nothing of the tenant
      expect(await Promise.all(tables.map((t) => countRows(s, t)))).toEqual(before);
      expect(await countRows(s, 'blade_tenant', 'tenant_name = $1', [name])).toBe(0);
    } finally {
      await pool.query(`DROP TRIGGER ${fn} ON blade_user_role`);
      await pool.query(`DROP FUNCTION ${fn}()`);
    }
  });

  it('info by domain (public) and datasource (no secrets)', async () => {
    const info = await call(s, null, 'GET', `${TENANT}/info?domain=${TAG}.example.com`);
    expect(info.body.data).toEqual({ tenantId: tenant.tenantId, tenantName: `${TAG}租户`, domain: `${TAG}.example.com` });
    expect((await call(s, null, 'GET', `${TENANT}/info?domain=nowhere.example.com`)).body.data).toBeNull();
    const ds = await call(s, admin, 'GET', `${TENANT}/datasource?tenantId=${tenant.tenantId}`);
    expect(ds.status).toBe(200);
    expect(ds.body.data).toMatchObject({ tenantId: tenant.tenantId, schema: 'public', shared: true });
    expect(JSON.stringify(ds.body.data)).not.toContain(s.kernel.database.url.split('@')[0].split(':').pop()!);
  });

  it('setting: an expired tenant cannot log in; a later expiry lets it in again', async () => {
    const bad = await call(s, admin, 'POST', `${TENANT}/setting`, { ids: tenant.id, expireTime: '2020-13-01 00:00:00' });
    expect(bad.status).toBe(400);
    const set = await call(s, admin, 'POST', `${TENANT}/setting`, { ids: tenant.id, accountNumber: 20, expireTime: '2020-01-01 00:00:00' });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data[0].accountNumber).toBe(20);
    await expect(login(s, 'admin', { tenantId: tenant.tenantId, password: tenant.adminPassword })).rejects.toThrow('租户已过期，请联系管理员');
    await call(s, admin, 'POST', `${TENANT}/setting`, { ids: tenant.id, expireTime: '2099-01-01 00:00:00' });
    await expect(login(s, 'admin', { tenantId: tenant.tenantId, password: tenant.adminPassword })).resolves.toBeTruthy();
  });

  it('the platform tenant cannot be removed; another can', async () => {
    const platform = await s.kernel.database.pool.query(`SELECT id::text AS id FROM blade_tenant WHERE tenant_id = '000000'`);
    const res = await call(s, admin, 'POST', `${TENANT}/remove?ids=${platform.rows[0].id}`);
    expect(res.status).toBe(400);
    expect(res.body.msg).toBe('平台租户不能删除');
    expect((await call(s, admin, 'POST', `${TENANT}/remove?ids=${tenant.id}`)).status).toBe(200);
    await expect(login(s, 'admin', { tenantId: tenant.tenantId, password: tenant.adminPassword })).rejects.toThrow('租户不存在或已过期');
  });
});

describe('clients', () => {
  it('the secret is answered once, stored hashed, and the login accepts it', async () => {
    const clientId = `${TAG}app`;
    const res = await call(s, admin, 'POST', `${CLIENT}/submit`, { clientId, authorizedGrantTypes: 'password,refresh_token', accessTokenValidity: 600, refreshTokenValidity: 3600 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const secret = res.body.data.clientSecret as string;
    expect(secret.length).toBeGreaterThan(30);
    const stored = await s.kernel.database.pool.query(`SELECT client_secret FROM blade_client WHERE client_id = $1`, [clientId]);
    expect(stored.rows[0].client_secret).toMatch(/^sha256:[0-9a-f]{64}$/);
    const detail = await call(s, admin, 'GET', `${CLIENT}/detail?id=${res.body.data.id}`);
    expect(detail.body.data.clientSecret).toBeUndefined();
    expect((await call(s, admin, 'GET', `${CLIENT}/list?clientSecret=x`)).status).toBe(400);
    const token = async (sec: string) =>
      s.app.inject({
        method: 'POST',
        url: '/api/blade-auth/oauth/token',
        headers: { authorization: 'Basic ' + Buffer.from(`${clientId}:${sec}`).toString('base64'), 'tenant-id': '000000', 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ grant_type: 'password', username: 'kyry', password: s.password }).toString(),
      });
    const good = await token(secret);
    expect(good.statusCode).toBe(200);
    expect(good.json().expires_in).toBe(600);
    expect((await token(stored.rows[0].client_secret)).statusCode).toBe(401);
    // an edit keeps the secret
    const edit = await call(s, admin, 'POST', `${CLIENT}/submit`, { ...detail.body.data, accessTokenValidity: 900 });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect(edit.body.data.clientSecret).toBeUndefined();
    const after = await s.kernel.database.pool.query(`SELECT client_secret FROM blade_client WHERE client_id = $1`, [clientId]);
    expect(after.rows[0].client_secret).toBe(stored.rows[0].client_secret);
  });

  it('a duplicate id or a bad grant type is refused and nothing stored; tenant administrators get 403', async () => {
    const before = await countRows(s, 'blade_client');
    const dup = await call(s, admin, 'POST', `${CLIENT}/submit`, { clientId: 'saber', authorizedGrantTypes: 'password', accessTokenValidity: 600, refreshTokenValidity: 3600 });
    expect(dup.status).toBe(400);
    expect(dup.body.msg).toBe('应用ID已存在');
    const grant = await call(s, admin, 'POST', `${CLIENT}/submit`, { clientId: `${TAG}x`, authorizedGrantTypes: 'password,magic', accessTokenValidity: 600, refreshTokenValidity: 3600 });
    expect(grant.status).toBe(400);
    expect(await countRows(s, 'blade_client')).toBe(before);
    expect((await call(s, other, 'GET', `${CLIENT}/list`)).status).toBe(403);
  });
});

describe('parameters', () => {
  it('the spec keys are there with their meaning; list, detail, submit, remove; key unique', async () => {
    const list = await call(s, admin, 'GET', `${PARAM}/list?size=100`);
    const keys = list.body.data.records.map((r: Json) => r.paramKey);
    expect(keys).toEqual(expect.arrayContaining(['expert_role', 'password_update_time', 'disable_devtool', 'fileViewServer', 'log_retention_days']));
    expect(list.body.data.records.every((r: Json) => r.remark)).toBe(true);
    const add = await call(s, admin, 'POST', `${PARAM}/submit`, { paramName: '测试', paramKey: `${TAG}k`, paramValue: '1' });
    expect(add.status, JSON.stringify(add.body)).toBe(200);
    expect((await call(s, admin, 'GET', `${PARAM}/detail?id=${add.body.data.id}`)).body.data.paramValue).toBe('1');
    const before = await countRows(s, 'blade_param');
    const dup = await call(s, admin, 'POST', `${PARAM}/submit`, { paramName: '重复', paramKey: 'expert_role', paramValue: '1' });
    expect(dup.status).toBe(400);
    expect(dup.body.msg).toBe('参数键名已存在');
    expect(await countRows(s, 'blade_param')).toBe(before);
    expect((await call(s, admin, 'POST', `${PARAM}/remove?ids=${add.body.data.id}`)).status).toBe(200);
    expect((await call(s, other, 'GET', `${PARAM}/list`)).status).toBe(403);
    expect((await call(s, kyry, 'GET', `${PARAM}/list`)).status).toBe(403);
  });
});
