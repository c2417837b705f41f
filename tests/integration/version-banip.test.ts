/**
 * Version history (`/api/basic/version`: list, detail, submit, startVersion, selectVersion), the ban-IP list
 * (`/api/project/systembanip`: list, detail, submit, remove, unseal; a banned IP gets 403 on login; automatic
 * bans) and user message settings (`/api/system/usermsgsetting`: getMySetting, saveMySetting) — issue 9,
 * spec 000 §2.8, 002 §2–§7.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASIC, call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';
import { canonicalBan, isBanned } from '../../src/server/modules/system/banip.js';

let s: TestServer;
let admin: Session;
let kyry: Session;
let other: Session; // administrator of tenant 100001
const VERSION = '/api/basic/version';
const BAN = '/api/project/systembanip';
const MSG = '/api/system/usermsgsetting';
const TAG = `VB${Date.now().toString(36)}`;
const PRODUCT = `p${Date.now().toString(36)}`;

/** A login from `ip` (Fastify's inject sets the socket address). */
async function loginFrom(ip: string, account: string, opts: { tenantId?: string; password?: string } = {}) {
  const res = await s.app.inject({
    method: 'POST',
    url: '/api/blade-auth/oauth/token',
    remoteAddress: ip,
    headers: { authorization: BASIC, 'tenant-id': opts.tenantId ?? '000000', 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'password', username: account, password: opts.password ?? s.password }).toString(),
  });
  return { status: res.statusCode, body: res.json() as Json };
}

beforeAll(async () => {
  s = await testServer();
  [admin, kyry] = await Promise.all([login(s, 'admin'), login(s, 'kyry')]);
  other = await login(s, 'admin', { tenantId: '100001' });
});
afterAll(async () => {
  await s?.close();
});

describe('version history', () => {
  const v = (main: number, son: number, stage: number, time: string) => ({ product: PRODUCT, mainVersion: main, sonVersion: son, stageVersion: stage, time, description: `${TAG} 更新 ${main}.${son}.${stage}` });
  const ids: Record<string, string> = {};

  it('submit adds versions; the list is newest first; detail answers one', async () => {
    for (const [k, body] of Object.entries({ a: v(1, 0, 0, '2025-01-10'), c: v(1, 10, 0, '2025-06-01'), b: v(1, 2, 3, '2025-03-01') })) {
      const res = await call(s, admin, 'POST', `${VERSION}/submit`, body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      ids[k] = res.body.data.id;
    }
    const list = await call(s, kyry, 'GET', `${VERSION}/list?product_equal=${PRODUCT}&size=500`);
    expect(list.status).toBe(200);
    expect(list.body.data.records.map((r: Json) => r.versionName)).toEqual(['V1.10.0', 'V1.2.3', 'V1.0.0']);
    const detail = await call(s, kyry, 'GET', `${VERSION}/detail?id=${ids.b}`);
    expect(detail.body.data).toMatchObject({ versionName: 'V1.2.3', time: '2025-03-01', isCurrent: false, product: PRODUCT });
    const edit = await call(s, admin, 'POST', `${VERSION}/submit`, { ...detail.body.data, stageVersion: 4 });
    expect(edit.body.data.versionName).toBe('V1.2.4');
  });

  it('selectVersion: the newest until one is started, then the started one, with its heading in zh and en', async () => {
    const newest = await call(s, kyry, 'GET', `${VERSION}/selectVersion?product=${PRODUCT}`);
    expect(newest.body.data).toMatchObject({ id: ids.c, heading: '版本 V1.10.0 [2025-06-01]' });
    const start = await call(s, admin, 'POST', `${VERSION}/startVersion?id=${ids.b}`);
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    expect(start.body.data).toMatchObject({ id: ids.b, isCurrent: true });
    const cur = await call(s, kyry, 'POST', `${VERSION}/selectVersion?product=${PRODUCT}`, undefined, { 'accept-language': 'en' });
    expect(cur.body.data).toMatchObject({ id: ids.b, isCurrent: true, heading: 'Version V1.2.4 [2025-03-01]' });
    // starting another makes it the only current one of the product
    await call(s, admin, 'POST', `${VERSION}/startVersion?id=${ids.a}`);
    expect(await countRows(s, 'basic_version', 'product = $1 AND is_current AND is_deleted = 0', [PRODUCT])).toBe(1);
    expect((await call(s, kyry, 'GET', `${VERSION}/selectVersion?product=${PRODUCT}`)).body.data.id).toBe(ids.a);
    expect((await call(s, kyry, 'GET', `${VERSION}/selectVersion?product=nothing${TAG}`)).body.data).toBeNull();
    expect((await call(s, kyry, 'GET', `${VERSION}/selectVersion?product=${encodeURIComponent('a b')}`)).status).toBe(400);
  });

  it('bad input and a duplicate number: the message, nothing stored', async () => {
    const before = await countRows(s, 'basic_version');
    const cases: Array<[Json, string]> = [
      [v(1, 0, 0, '2025-01-10'), '该产品已有此版本号'],
      [{ ...v(2, 0, 0, '2025-01-10'), description: '' }, '请输入更新内容'],
      [{ ...v(2, 0, 0, '2025-01-10'), mainVersion: 1000 }, '主版本号不能大于 999'],
      [{ ...v(2, 0, 0, '') }, '请选择发布日期'],
    ];
    for (const [body, msg] of cases) {
      const res = await call(s, admin, 'POST', `${VERSION}/submit`, body);
      expect(res.status, msg).toBe(400);
      expect(res.body.msg).toBe(msg);
    }
    expect((await call(s, admin, 'POST', `${VERSION}/startVersion?id=1`)).status).toBe(404);
    expect((await call(s, admin, 'POST', `${VERSION}/startVersion?id=x`)).status).toBe(400);
    expect(await countRows(s, 'basic_version')).toBe(before);
  });

  it('one history for every tenant, written by platform administrators only (403 otherwise, nothing changes)', async () => {
    expect((await call(s, other, 'GET', `${VERSION}/list?product_equal=${PRODUCT}`)).body.data.total).toBe(3);
    const before = await countRows(s, 'basic_version');
    for (const who of [other, kyry]) {
      expect((await call(s, who, 'POST', `${VERSION}/submit`, v(9, 9, 9, '2025-01-01'))).status).toBe(403);
      expect((await call(s, who, 'POST', `${VERSION}/startVersion?id=${ids.c}`)).status).toBe(403);
      expect((await call(s, who, 'POST', `${VERSION}/remove?ids=${ids.c}`)).status).toBe(403);
    }
    expect(await countRows(s, 'basic_version')).toBe(before);
    expect(await countRows(s, 'basic_version', 'id = $1 AND is_current', [ids.a])).toBe(1);
  });
});

describe('ban-IP list', () => {
  const IP = '198.51.100.23';
  let entry: Json;

  it('addresses and networks are understood', () => {
    expect(canonicalBan(' 203.0.113.7 ')).toBe('203.0.113.7');
    expect(canonicalBan('2001:DB8:0:0::1')).toBe('2001:db8::1');
    expect(canonicalBan('203.0.113.0/24')).toBe('203.0.113.0/24');
    expect(canonicalBan('203.0.113.0/33')).toBeNull();
    expect(canonicalBan('localhost')).toBeNull();
    expect(isBanned('203.0.113.99', ['203.0.113.0/24'])).toBe(true);
    expect(isBanned('::ffff:203.0.113.99', ['203.0.113.0/24'])).toBe(true);
    expect(isBanned('203.0.114.1', ['203.0.113.0/24', '198.51.100.1'])).toBe(false);
  });

  it('a banned IP gets 403 on login with a clear message (zh and en); unseal lifts it', async () => {
    expect((await loginFrom(IP, 'kyry')).status).toBe(200);
    const add = await call(s, admin, 'POST', `${BAN}/submit`, { ip: IP, reason: `${TAG} 暴力破解` });
    expect(add.status, JSON.stringify(add.body)).toBe(200);
    entry = add.body.data;
    expect(entry).toMatchObject({ ip: IP, banStatus: 1, banSource: 1, tenantId: '000000' });
    const refused = await loginFrom(IP, 'kyry');
    expect(refused.status).toBe(403);
    expect(refused.body.msg).toBe('当前IP已被禁止登录，请联系管理员');
    const en = await s.app.inject({ method: 'POST', url: '/api/blade-auth/oauth/token', remoteAddress: IP, headers: { authorization: BASIC, 'tenant-id': '000000', 'accept-language': 'en' }, payload: { grant_type: 'password', username: 'kyry', password: s.password } });
    expect(en.json().msg).toBe('Logins from this IP address are banned: please contact the administrator');
    // another address and another tenant (the ban is tenant 000000's: the platform's, so every tenant) …
    expect((await loginFrom('198.51.100.24', 'kyry')).status).toBe(200);
    expect((await loginFrom(IP, 'admin', { tenantId: '100001' })).status).toBe(403);
    // … and login by phone as well
    const byPhone = await s.app.inject({ method: 'POST', url: '/api/blade-auth/oauth/token-by-phone', remoteAddress: IP, headers: { authorization: BASIC, 'tenant-id': '000000' }, payload: { phone: '13800138000' } });
    expect(byPhone.statusCode).toBe(403);
    const unseal = await call(s, admin, 'POST', `${BAN}/unseal?ids=${entry.id}`);
    expect(unseal.status).toBe(200);
    expect((await call(s, admin, 'GET', `${BAN}/detail?id=${entry.id}`)).body.data).toMatchObject({ banStatus: 0 });
    expect((await loginFrom(IP, 'kyry')).status).toBe(200);
  });

  it('a tenant’s ban covers logins to that tenant only; networks and expiry', async () => {
    const net = await call(s, other, 'POST', `${BAN}/submit`, { ip: '192.0.2.0/28' });
    expect(net.status, JSON.stringify(net.body)).toBe(200);
    expect((await loginFrom('192.0.2.9', 'admin', { tenantId: '100001' })).status).toBe(403);
    expect((await loginFrom('192.0.2.9', 'kyry')).status).toBe(200);
    expect((await loginFrom('192.0.2.17', 'admin', { tenantId: '100001' })).status).toBe(200);
    const past = await call(s, admin, 'POST', `${BAN}/submit`, { ip: '192.0.2.100', expireTime: '2020-01-01 00:00:00' });
    expect(past.status).toBe(200);
    expect((await loginFrom('192.0.2.100', 'kyry')).status).toBe(200);
  });

  it('bad input and a second live ban of one address: the message, nothing stored', async () => {
    await call(s, admin, 'POST', `${BAN}/submit`, { ip: '198.51.100.50' });
    const before = await countRows(s, 'project_systembanip');
    for (const [body, msg] of [
      [{ ip: '' }, '请输入IP地址'],
      [{ ip: '999.1.1.1' }, 'IP地址格式不正确'],
      [{ ip: '10.0.0.0/40' }, 'IP地址格式不正确'],
      [{ ip: '198.51.100.50' }, '该IP已在封禁名单中'],
      [{ ip: '198.51.100.51', expireTime: '2025-02-30 00:00:00' }, null],
    ] as Array<[Json, string | null]>) {
      const res = await call(s, admin, 'POST', `${BAN}/submit`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      if (msg) expect(res.body.msg).toBe(msg);
    }
    expect(await countRows(s, 'project_systembanip')).toBe(before);
  });

  it('another tenant gets nothing; a non-administrator gets 403; list, page, remove', async () => {
    expect((await call(s, other, 'GET', `${BAN}/list?ip=${IP}`)).body.data.total).toBe(0);
    expect((await call(s, other, 'GET', `${BAN}/detail?id=${entry.id}`)).status).toBe(404);
    expect((await call(s, other, 'POST', `${BAN}/unseal?ids=${entry.id}`)).status).toBe(404);
    expect((await call(s, other, 'POST', `${BAN}/remove?ids=${entry.id}`)).status).toBe(404);
    for (const url of ['list', 'page', `detail?id=${entry.id}`]) expect((await call(s, kyry, 'GET', `${BAN}/${url}`)).status, url).toBe(403);
    const before = await countRows(s, 'project_systembanip');
    expect((await call(s, kyry, 'POST', `${BAN}/submit`, { ip: '203.0.113.200' })).status).toBe(403);
    expect((await call(s, kyry, 'POST', `${BAN}/unseal?ids=${entry.id}`)).status).toBe(403);
    expect((await call(s, kyry, 'POST', `${BAN}/remove?ids=${entry.id}`)).status).toBe(403);
    expect(await countRows(s, 'project_systembanip')).toBe(before);
    for (const ep of ['list', 'page']) expect((await call(s, admin, 'GET', `${BAN}/${ep}?ip=${IP}`)).body.data.records.map((r: Json) => r.id), ep).toEqual([entry.id]);
    expect((await call(s, admin, 'POST', `${BAN}/remove?ids=${entry.id}`)).status).toBe(200);
    expect((await call(s, admin, 'GET', `${BAN}/detail?id=${entry.id}`)).status).toBe(404);
  });

  it('repeated failed logins from one address ban it automatically (not this machine’s own address)', async () => {
    const bad = '203.0.113.77';
    const seeded = (await s.kernel.database.pool.query(`SELECT param_value AS v FROM blade_param WHERE param_key = 'ban_ip_max_failures' AND is_deleted = 0`)).rows[0]?.v;
    expect(seeded).toBe('20'); // the seeded default
    await s.kernel.database.pool.query(`UPDATE blade_param SET param_value = '3' WHERE param_key = 'ban_ip_max_failures'`);
    try {
      for (let i = 0; i < 3; i++) expect((await loginFrom(bad, `nobody${i}`, { password: 'Wrong#123' })).status).toBe(400);
      const row = await s.kernel.database.pool.query(`SELECT tenant_id, ban_source, ban_status, expire_time > now() + interval '50 minutes' AS long FROM project_systembanip WHERE ip = $1 AND is_deleted = 0`, [bad]);
      expect(row.rows).toEqual([{ tenant_id: '000000', ban_source: 2, ban_status: 1, long: true }]);
      expect((await loginFrom(bad, 'kyry')).status).toBe(403);
      for (let i = 0; i < 4; i++) expect((await loginFrom('127.0.0.1', 'kyry', { password: 'Wrong#123' })).status).toBe(400);
      expect(await countRows(s, 'project_systembanip', `ip = '127.0.0.1'`)).toBe(0);
    } finally {
      await s.kernel.database.pool.query(`UPDATE blade_param SET param_value = '20' WHERE param_key = 'ban_ip_max_failures'`);
      await s.kernel.database.pool.query(`UPDATE project_systembanip SET is_deleted = 1 WHERE ip = $1`, [bad]);
      await s.kernel.database.pool.query(`UPDATE blade_user SET fail_count = 0, lock_until = NULL WHERE account = 'kyry'`);
    }
  });
});

describe('user message settings', () => {
  it('getMySetting answers the defaults until the user saves; saveMySetting keeps the caller’s own row', async () => {
    const first = await call(s, kyry, 'GET', `${MSG}/getMySetting`);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ userId: kyry.userId, todo: ['site'], examine: ['site'], notice: ['site'], account: ['site', 'sms'] });
    const save = await call(s, kyry, 'POST', `${MSG}/saveMySetting`, { todo: ['site', 'email', 'email'], notice: [], userId: admin.userId });
    expect(save.status, JSON.stringify(save.body)).toBe(200);
    expect(save.body.data).toMatchObject({ userId: kyry.userId, todo: ['site', 'email'], notice: [], examine: ['site'] });
    expect((await call(s, kyry, 'GET', `${MSG}/getMySetting`)).body.data).toMatchObject({ todo: ['site', 'email'], notice: [] });
    // the administrator's own setting is untouched (and still the defaults)
    expect((await call(s, admin, 'GET', `${MSG}/getMySetting`)).body.data).toMatchObject({ userId: admin.userId, todo: ['site'], notice: ['site'] });
    expect(await countRows(s, 'blade_user_msg_setting', 'user_id = $1', [admin.userId])).toBe(0);
    // saving again updates the one row
    await call(s, kyry, 'POST', `${MSG}/saveMySetting`, { examine: ['sms'] });
    expect(await countRows(s, 'blade_user_msg_setting', 'user_id = $1', [kyry.userId])).toBe(1);
    expect((await call(s, kyry, 'GET', `${MSG}/getMySetting`)).body.data).toMatchObject({ todo: ['site', 'email'], examine: ['sms'] });
  });

  it('bad input: the message, nothing stored', async () => {
    const zj = await login(s, 'zj');
    for (const body of [{ todo: ['pigeon'] }, { todo: 'site' }, { unknown: ['site'] }]) {
      const res = await call(s, zj, 'POST', `${MSG}/saveMySetting`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(await countRows(s, 'blade_user_msg_setting', 'user_id = $1', [zj.userId])).toBe(0);
    expect((await call(s, null, 'GET', `${MSG}/getMySetting`)).status).toBe(401);
  });

  it('another tenant’s user has a setting of their own', async () => {
    expect((await call(s, other, 'GET', `${MSG}/getMySetting`)).body.data).toMatchObject({ userId: other.userId, todo: ['site'] });
    const mine = await call(s, kyry, 'GET', `${MSG}/myList`);
    expect(mine.body.data.records.map((r: Json) => r.userId)).toEqual([kyry.userId]);
    expect((await call(s, other, 'GET', `${MSG}/myList`)).body.data.total).toBe(0);
  });
});
