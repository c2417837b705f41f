/**
 * System endpoints as the shell and the admin screens use them (spec 000 §6–§7, 002 §3, §7; DESIGN §5–§6):
 * menus, buttons and top menus per role, dictionaries, regions (a generic tree resource), departments, the
 * signed-in user, and the request pipeline (404 and 500 envelopes, error and API logs).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let admin: Session;
let kyry: Session;
let sbdw: Session;
let kygl: Session;
let duo: Session;
let tenantAdmin: Session;

beforeAll(async () => {
  s = await testServer({}, (app) => {
    app.get('/api/test/boom', async () => {
      throw new Error('kaboom');
    });
  });
  [admin, kyry, sbdw, kygl, duo, tenantAdmin] = await Promise.all([
    login(s, 'admin'),
    login(s, 'kyry'),
    login(s, 'sbdw'),
    login(s, 'kygl'),
    login(s, 'duo'),
    login(s, 'admin', { tenantId: '100001' }),
  ]);
});

afterAll(async () => {
  await s?.close();
});

type MenuNode = Json & { children: MenuNode[] };

/** Every node of a tree, depth first. */
function flatten(nodes: MenuNode[]): MenuNode[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);
}
const named = (nodes: MenuNode[], name: string) => flatten(nodes).find((n) => n.name === name);

describe('menu/routes', () => {
  it('gives a researcher the 科技成果 tree with 专利 (a resource page) and no 系统管理', async () => {
    const { status, body } = await call(s, kyry, 'GET', '/api/blade-system/menu/routes');
    expect(status).toBe(200);
    expect(body).toMatchObject({ code: 200, success: true, msg: '操作成功' });
    const tree = body.data as MenuNode[];
    expect(tree.map((n) => n.name)).toEqual(['科研项目', '科技成果', '工作台', '智能标书']); // 智能标书: researchers write bids (issue 17)
    const achievement = tree.find((n) => n.name === '科技成果')!;
    expect(achievement).toMatchObject({ path: '/basic', isEnabled: true, hasChildren: true, nameEn: 'Achievements' });
    const patent = achievement.children.find((n) => n.name === '专利');
    expect(patent).toMatchObject({ path: '/basic/patent', isEnabled: true, resource: 'basic/patent', code: 'patent', parentId: achievement.id });
    // routes carry menus only: the buttons (category 2) are not routes
    expect(flatten(tree).every((n) => n.category === 1)).toBe(true);
    expect(named(tree, '系统管理')).toBeUndefined();
    expect(named(tree, '行政区划')).toBeUndefined();
  });

  it('enables the research projects once built (issue 12: 项目申报, 项目指南)', async () => {
    const { body } = await call(s, kyry, 'GET', '/api/blade-system/menu/routes');
    expect(named(body.data, '项目申报')).toMatchObject({ path: '/project/baseinfo', isEnabled: true, resource: 'project/baseinfo' });
    expect(named(body.data, '项目指南')).toMatchObject({ path: '/project/guide', isEnabled: true, resource: 'project/guide' });
    expect(named(body.data, '科研项目')).toMatchObject({ isEnabled: true });
  });

  it('enables every achievement type as a resource page (专利, 论文, 软件著作权, 著作, 奖励, 标准)', async () => {
    const { body } = await call(s, kyry, 'GET', '/api/blade-system/menu/routes');
    const achievement = (body.data as MenuNode[]).find((n) => n.name === '科技成果')!;
    expect(achievement.children.map((c) => [c.name, c.path, c.resource, c.isEnabled])).toEqual([
      ['专利', '/basic/patent', 'basic/patent', true],
      ['论文', '/basic/thesis', 'basic/thesis', true],
      ['软件著作权', '/basic/softwarecopyright', 'basic/softwarecopyright', true],
      ['著作', '/basic/book', 'basic/book', true],
      ['奖励', '/basic/award', 'basic/award', true],
      ['标准', '/basic/standard', 'basic/standard', true],
      // suppliers (issue 17) sit beside the achievements: researchers read them when naming project partners
      ['供应商管理', '/basic/supplier', 'basic/supplier', true],
    ]);
  });

  it('gives the administrator 系统管理 with 行政区划', async () => {
    const { status, body } = await call(s, admin, 'GET', '/api/blade-system/menu/routes');
    expect(status).toBe(200);
    const system = (body.data as MenuNode[]).find((n) => n.name === '系统管理');
    expect(system).toBeDefined();
    // the screens of issue 9 (in the seed's order; other issues add theirs in between)
    const names = system!.children.map((c) => c.name);
    const expected = ['字典管理', '业务字典', '行政区划', '用户管理', '机构管理', '岗位管理', '租户管理', '应用管理', '参数管理', '日志管理', '附件管理', '轮播图管理', '版本历史', 'IP封禁', '角色管理', '菜单管理', '顶部菜单', '数据权限', '接口权限', '表单设计'];
    expect(names.filter((n) => expected.includes(n))).toEqual(expected);
    expect(system!.children.find((c) => c.name === '表单设计')).toMatchObject({ path: '/designer', meta: { roles: ['administrator'] } });
    expect(system!.children.find((c) => c.name === '行政区划')).toMatchObject({ path: '/system/region', resource: 'system/region' });
    expect(named(body.data, '专利')).toBeDefined();
  });

  it('limits the tree to one top menu with topMenuId (科研管理 → projects and achievements)', async () => {
    const top = await call(s, kyry, 'GET', '/api/blade-system/menu/top-menu');
    const research = (top.body.data as Json[]).find((t) => t.name === '科研管理')!;
    expect(research.id).toMatch(/^\d+$/);
    const { status, body } = await call(s, kyry, 'GET', `/api/blade-system/menu/routes?topMenuId=${research.id}`);
    expect(status).toBe(200);
    expect((body.data as MenuNode[]).map((n) => n.code)).toEqual(['project', 'achievement']);

    const adminTop = await call(s, admin, 'GET', '/api/blade-system/menu/top-menu');
    const adminTab = (adminTop.body.data as Json[]).find((t) => t.name === '系统管理')!;
    const sys = await call(s, admin, 'GET', `/api/blade-system/menu/routes?topMenuId=${adminTab.id}`);
    expect((sys.body.data as MenuNode[]).map((n) => n.code)).toEqual(['system']);
  });

  it("refuses a top menu of another tenant (404) and a malformed one (400)", async () => {
    const other = await call(s, tenantAdmin, 'GET', '/api/blade-system/menu/top-menu');
    const foreign = (other.body.data as Json[]).find((t) => t.name === '科研管理')!;
    const r = await call(s, kyry, 'GET', `/api/blade-system/menu/routes?topMenuId=${foreign.id}`);
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ code: 404, success: false, msg: '数据不存在' });
    const bad = await call(s, kyry, 'GET', '/api/blade-system/menu/routes?topMenuId=abc');
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('参数 topMenuId 的值无效');
  });

  it('narrows to one of the user\'s roles with roleId; a role the user does not hold → 403', async () => {
    const asResearcher = await call(s, duo, 'GET', `/api/blade-system/menu/routes?roleId=${duo.roleIds[0]}`);
    expect(asResearcher.status).toBe(200);
    const r = await call(s, kyry, 'GET', `/api/blade-system/menu/routes?roleId=${admin.roleIds[0]}`);
    expect(r.status).toBe(403);
    expect(r.body).toEqual({ code: 403, success: false, data: null, msg: '没有权限执行此操作' });
  });

  it('answers 401 in the envelope without a token or with a bad one', async () => {
    const r = await call(s, null, 'GET', '/api/blade-system/menu/routes');
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ code: 401, success: false, data: null, msg: '请求未授权，请重新登录' });
    const bad = await call(s, null, 'GET', '/api/blade-system/menu/routes', undefined, { 'blade-auth': 'bearer not-a-token' });
    expect(bad.status).toBe(401);
    expect(bad.body).toMatchObject({ code: 401, success: false });
  });
});

describe('menu/buttons', () => {
  const codes = (body: Json) => flatten(body.data).filter((n) => n.category === 2).map((n) => n.code);

  it("holds a researcher's patent buttons as leaves under 专利", async () => {
    const { status, body } = await call(s, kyry, 'GET', '/api/blade-system/menu/buttons');
    expect(status).toBe(200);
    const types = ['award', 'book', 'patent', 'softwarecopyright', 'standard', 'thesis'];
    // with the Excel export / import buttons (issue 13), whose path names the template
    const own = codes(body).filter((c) => !c.startsWith('project_') && !c.startsWith('basic_supplier') && !c.startsWith('smartdoc_'));
    expect(own.sort()).toEqual(types.flatMap((t) => [`${t}_add`, `${t}_delete`, `${t}_edit`, `${t}_export`, `${t}_import`, `${t}_view`]));
    // bidding projects (issue 17): researchers add and edit (the project's own rules decide whose), remove their own
    expect(codes(body).filter((c) => c.startsWith('smartdoc_')).sort()).toEqual(['smartdoc_biddingbaseinfo_add', 'smartdoc_biddingbaseinfo_delete', 'smartdoc_biddingbaseinfo_edit', 'smartdoc_biddingbaseinfo_view']);
    // suppliers: read only (issue 17)
    expect(codes(body).filter((c) => c.startsWith('basic_supplier'))).toEqual(['basic_supplier_view']);
    // the research projects (issue 12): guides read only, declarations written, not removed; of the sub-areas, a
    // researcher writes intents, reports, changes and documents and reads the rest
    const project = codes(body).filter((c) => c.startsWith('project_'));
    expect(project).toEqual(expect.arrayContaining(['project_baseinfo_add', 'project_baseinfo_edit', 'project_baseinfo_view', 'project_guide_view', 'project_report_add', 'project_plan_view', 'project_budget_view']));
    for (const never of ['project_baseinfo_delete', 'project_guide_add', 'project_plan_add', 'project_budget_add', 'project_report_delete', 'project_template_add']) expect(project).not.toContain(never);
    const patent = named(body.data, '专利')!;
    const leaves = patent.children.map((c) => c.code);
    expect(leaves.sort()).toEqual(['patent_add', 'patent_delete', 'patent_edit', 'patent_export', 'patent_import', 'patent_view']);
    expect(patent.children.find((c) => c.code === 'patent_export')).toMatchObject({ path: 'patent' });
    expect(patent.children.every((c) => c.children.length === 0)).toBe(true);
  });

  it('gives a declaring unit no delete button on any achievement type', async () => {
    const { body } = await call(s, sbdw, 'GET', '/api/blade-system/menu/buttons');
    const types = ['award', 'book', 'patent', 'softwarecopyright', 'standard', 'thesis'];
    expect(codes(body).filter((c) => !c.startsWith('project_') && !c.startsWith('basic_supplier')).sort()).toEqual(types.flatMap((t) => [`${t}_add`, `${t}_edit`, `${t}_export`, `${t}_import`, `${t}_view`]));
  });

  it('gives the administrator the region buttons too', async () => {
    const { body } = await call(s, admin, 'GET', '/api/blade-system/menu/buttons');
    expect(codes(body)).toEqual(expect.arrayContaining(['patent_delete', 'region_add', 'region_edit', 'region_delete', 'region_view']));
  });
});

describe('menu/top-menu', () => {
  it('shows the tenant administrator 科研管理 and 系统管理', async () => {
    const { status, body } = await call(s, admin, 'GET', '/api/blade-system/menu/top-menu');
    expect(status).toBe(200);
    expect((body.data as Json[]).map((t) => t.name)).toEqual(['科研管理', '系统管理']);
    expect(body.data[0]).toMatchObject({ code: 'research', nameEn: 'Research' });
  });

  it('shows a researcher only 科研管理', async () => {
    const { body } = await call(s, kyry, 'GET', '/api/blade-system/menu/top-menu');
    expect((body.data as Json[]).map((t) => t.name)).toEqual(['科研管理']);
  });

  it("shows each tenant its own top menus", async () => {
    const mine = await call(s, admin, 'GET', '/api/blade-system/menu/top-menu');
    const theirs = await call(s, tenantAdmin, 'GET', '/api/blade-system/menu/top-menu');
    expect((theirs.body.data as Json[]).map((t) => t.name)).toEqual(['科研管理', '系统管理']);
    const ids = new Set((mine.body.data as Json[]).map((t) => t.id));
    expect((theirs.body.data as Json[]).some((t) => ids.has(t.id))).toBe(false);
  });
});

describe('dictionaries', () => {
  // spec 001 §3 'Dictionary-backed choice lists'
  const CODES = [
    'achievements_resource', 'patent_type', 'patent_group_sign', 'transform_type', 'paper_level', 'paper_apply_scope',
    'paper_languages', 'soft_apply_status', 'soft_get_type', 'soft_auth_scope', 'book_publish_address', 'book_language',
    'book_type', 'book_publish_level', 'honor_level', 'honor_grade', 'honor_product_type', 'standard_category',
    'standard_create_type', 'standard_state',
  ];

  it.each(CODES)('dict/dictionary?code=%s lists entries with dictKey, dictValue and dictValueEn', async (code) => {
    const { status, body } = await call(s, kyry, 'GET', `/api/blade-system/dict/dictionary?code=${code}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ code: 200, success: true });
    const items = body.data as Json[];
    expect(items.length).toBeGreaterThan(0);
    for (const it of items) {
      expect(it.code).toBe(code);
      expect(it.dictKey).toMatch(/^\S+$/);
      expect(typeof it.dictValue).toBe('string');
      expect(it.dictValue.length).toBeGreaterThan(0);
      expect(typeof it.dictValueEn).toBe('string');
      expect(it.dictValueEn.length).toBeGreaterThan(0);
      expect(it.id).toMatch(/^\d+$/);
    }
    expect(new Set(items.map((i) => i.dictKey)).size).toBe(items.length);
  });

  it('patent_type is exactly 发明专利, 实用新型专利, 外观设计专利, in that order', async () => {
    const { body } = await call(s, kyry, 'GET', '/api/blade-system/dict/dictionary?code=patent_type');
    expect((body.data as Json[]).map((i) => [i.dictKey, i.dictValue])).toEqual([
      ['1', '发明专利'],
      ['2', '实用新型专利'],
      ['3', '外观设计专利'],
    ]);
  });

  it('answers an empty list for an unknown code', async () => {
    const { status, body } = await call(s, kyry, 'GET', '/api/blade-system/dict/dictionary?code=no_such_dictionary');
    expect(status).toBe(200);
    expect(body).toMatchObject({ code: 200, success: true, data: [] });
  });

  it('answers 400 缺少参数 code without a code', async () => {
    for (const url of ['/api/blade-system/dict/dictionary', '/api/blade-system/dict/dictionary?code=', '/api/blade-system/dict-biz/dictionary']) {
      const { status, body } = await call(s, kyry, 'GET', url);
      expect(status, url).toBe(400);
      expect(body, url).toEqual({ code: 400, success: false, data: null, msg: '缺少参数 code' });
    }
  });

  it('keeps business dictionaries per tenant: tenant 100001 reads its own rows', async () => {
    const mine = await call(s, admin, 'GET', '/api/blade-system/dict-biz/dictionary?code=research_field');
    const theirs = await call(s, tenantAdmin, 'GET', '/api/blade-system/dict-biz/dictionary?code=research_field');
    expect(mine.status).toBe(200);
    expect(theirs.status).toBe(200);
    const a = mine.body.data as Json[];
    const b = theirs.body.data as Json[];
    expect(a.length).toBeGreaterThan(0);
    expect(b.map((i) => [i.dictKey, i.dictValue])).toEqual(a.map((i) => [i.dictKey, i.dictValue]));
    const ids = new Set(a.map((i) => i.id));
    expect(b.some((i) => ids.has(i.id))).toBe(false);
    // each tenant's rows are stored under that tenant
    expect(await countRows(s, 'blade_dict_biz', 'id = ANY($1::bigint[]) AND tenant_id = $2', [b.map((i) => i.id), '100001'])).toBe(b.length);
  });

  it('serves business codes only from dict-biz and system codes only from dict', async () => {
    const sys = await call(s, admin, 'GET', '/api/blade-system/dict/dictionary?code=research_field');
    expect(sys.body.data).toEqual([]);
    const biz = await call(s, admin, 'GET', '/api/blade-system/dict-biz/dictionary?code=patent_type');
    expect(biz.body.data).toEqual([]);
  });
});

describe('regions', () => {
  const R = '/api/blade-system/region';

  it('lazy-tree without a parent lists the 34 provinces, 北京市 with children', async () => {
    const { status, body } = await call(s, kyry, 'GET', `${R}/lazy-tree`);
    expect(status).toBe(200);
    const provinces = body.data as Json[];
    expect(provinces).toHaveLength(34);
    expect(provinces.every((p) => p.parentCode === '00' && p.regionLevel === 1)).toBe(true);
    const beijing = provinces.find((p) => p.title === '北京市');
    expect(beijing).toMatchObject({ code: '11', key: '11', value: '11', hasChildren: true });
    // Taiwan is a province row without children (regions.ts)
    expect(provinces.find((p) => p.code === '71')).toMatchObject({ hasChildren: false });
  });

  it('lazy-tree?parentCode=4401 (广州市) contains 天河区', async () => {
    const { body } = await call(s, kyry, 'GET', `${R}/lazy-tree?parentCode=4401`);
    const tianhe = (body.data as Json[]).find((d) => d.name === '天河区');
    expect(tianhe).toMatchObject({ code: '440106', parentCode: '4401', regionLevel: 3, hasChildren: false });
  });

  it('detail?code=110101 is 东城区', async () => {
    const { status, body } = await call(s, kyry, 'GET', `${R}/detail?code=110101`);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ code: '110101', name: '东城区', parentCode: '1101', provinceName: '北京市' });
  });

  it('detail of an unknown code → 404 数据不存在', async () => {
    const { status, body } = await call(s, kyry, 'GET', `${R}/detail?code=999999`);
    expect(status).toBe(404);
    expect(body).toEqual({ code: 404, success: false, data: null, msg: '数据不存在' });
  });

  it('the administrator adds a region, reads it back, and removes it', async () => {
    const add = await call(s, admin, 'POST', `${R}/submit`, { code: '110199', parentCode: '1101', name: '测试区', regionLevel: 3 });
    expect(add.status).toBe(200);
    expect(add.body).toMatchObject({ code: 200, success: true, data: { code: '110199', parentCode: '1101', name: '测试区', regionLevel: 3 } });

    const detail = await call(s, kyry, 'GET', `${R}/detail?code=110199`);
    expect(detail.body.data).toMatchObject({ code: '110199', name: '测试区', regionLevel: 3 });
    const siblings = await call(s, kyry, 'GET', `${R}/lazy-tree?parentCode=1101`);
    expect((siblings.body.data as Json[]).map((d) => d.name)).toContain('测试区');

    const update = await call(s, admin, 'POST', `${R}/submit`, { code: '110199', name: '测试区二' });
    expect(update.status).toBe(200);
    expect((await call(s, kyry, 'GET', `${R}/detail?code=110199`)).body.data).toMatchObject({ name: '测试区二', parentCode: '1101' });

    const removed = await call(s, admin, 'POST', `${R}/remove?ids=110199`);
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ code: 200, success: true });
    const gone = await call(s, kyry, 'GET', `${R}/detail?code=110199`);
    expect(gone.status).toBe(404);
    expect(gone.body.msg).toBe('数据不存在');
    const after = await call(s, kyry, 'GET', `${R}/lazy-tree?parentCode=1101`);
    expect((after.body.data as Json[]).map((d) => d.name)).not.toContain('测试区二');
  });

  it('a researcher cannot add a region (platform data): 403 and nothing stored', async () => {
    const { status, body } = await call(s, kyry, 'POST', `${R}/submit`, { code: '110198', parentCode: '1101', name: '越权区', regionLevel: 3 });
    expect(status).toBe(403);
    expect(body).toEqual({ code: 403, success: false, data: null, msg: '平台数据只能由平台管理员维护' });
    expect(await countRows(s, 'blade_region', 'code = $1', ['110198'])).toBe(0);
  });

  it('a researcher cannot remove a region: 403 and the region stays', async () => {
    const { status } = await call(s, kyry, 'POST', `${R}/remove?ids=110101`);
    expect(status).toBe(403);
    expect(await countRows(s, 'blade_region', 'code = $1 AND is_deleted = 0', ['110101'])).toBe(1);
  });

  it('a region without a name → 400 请输入区划名称 and nothing stored', async () => {
    const { status, body } = await call(s, admin, 'POST', `${R}/submit`, { code: '110197', parentCode: '1101', regionLevel: 3 });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 400, success: false, msg: '请输入区划名称' });
    expect(body.data).toEqual([{ field: 'name', message: '请输入区划名称' }]);
    expect(await countRows(s, 'blade_region', 'code = $1', ['110197'])).toBe(0);
  });

  it('a malformed code → 400 with the schema message and nothing stored', async () => {
    const { status, body } = await call(s, admin, 'POST', `${R}/submit`, { code: '11a', parentCode: '1101', name: '坏编号', regionLevel: 3 });
    expect(status).toBe(400);
    expect(body.msg).toBe('区划编号只能是 2 到 12 位数字');
    expect(await countRows(s, 'blade_region', 'name = $1', ['坏编号'])).toBe(0);
  });

  it('a region needs an existing parent, and takes its chain from it', async () => {
    const orphan = await call(s, admin, 'POST', `${R}/submit`, { code: '990101', parentCode: '9901', name: '无主区' });
    expect(orphan.status).toBe(400);
    expect(orphan.body.data).toEqual([{ field: 'parentCode', message: '上级区划不存在' }]);
    expect(await countRows(s, 'blade_region', 'code = $1', ['990101'])).toBe(0);
    const add = await call(s, admin, 'POST', `${R}/submit`, { code: '440196', parentCode: '4401', name: '示例新区' });
    expect(add.status).toBe(200);
    expect(add.body.data).toMatchObject({
      ancestors: '00,44,4401', regionLevel: 3, provinceCode: '44', provinceName: '广东省', cityCode: '4401', cityName: '广州市', districtCode: '440196', districtName: '示例新区',
    });
    expect((await call(s, admin, 'POST', `${R}/remove?ids=440196`)).status).toBe(200);
  });

  it('a code freed by a removal can be used again; a live code is refused in the field’s words', async () => {
    const first = await call(s, admin, 'POST', `${R}/submit`, { code: '440195', parentCode: '4401', name: '甲区' });
    expect(first.status).toBe(200);
    expect((await call(s, admin, 'POST', `${R}/remove?ids=440195`)).status).toBe(200);
    const again = await call(s, admin, 'POST', `${R}/submit`, { code: '440195', parentCode: '4401', name: '乙区' });
    expect(again.status).toBe(200);
    expect(again.body.data.name).toBe('乙区');
    expect(await countRows(s, 'blade_region', 'code = $1', ['440195'])).toBe(1);
    // submitting an existing live code updates it (the key identifies the region)
    const upd = await call(s, admin, 'POST', `${R}/submit`, { code: '440195', parentCode: '4401', name: '丙区' });
    expect(upd.body.data.name).toBe('丙区');
    await call(s, admin, 'POST', `${R}/remove?ids=440195`);
  });

  it('repeated parameters are refused, not joined', async () => {
    expect((await call(s, admin, 'GET', `${R}/lazy-tree?parentCode=11&parentCode=12`)).body.msg).toBe('参数 parentCode 的值无效');
    expect((await call(s, admin, 'GET', '/api/blade-system/dict/dictionary?code=a&code=b')).body.msg).toBe('参数 code 的值无效');
  });
});

describe('departments', () => {
  const titles = (nodes: Json[]): string[] => nodes.flatMap((n) => [n.title, ...titles(n.children ?? [])]);

  it("kygl's tree starts with 粮储集团有限公司 and holds the subsidiaries below it", async () => {
    const { status, body } = await call(s, kygl, 'GET', '/api/blade-system/dept/tree');
    expect(status).toBe(200);
    const roots = body.data as Json[];
    expect(roots[0]).toMatchObject({ title: '粮储集团有限公司', deptCategory: 1, hasChildren: true });
    expect(roots[0].children.map((c: Json) => c.title)).toEqual(expect.arrayContaining(['集团科技信息部', '华北分公司', '华东分公司', '科学研究院']));
    expect(titles(roots)).toContain('科技发展部');
    expect(titles(roots)).not.toContain('示范粮食储备有限公司');
  });

  it("tenant 100001's administrator sees only 示范粮食储备有限公司", async () => {
    const { body } = await call(s, tenantAdmin, 'GET', '/api/blade-system/dept/tree');
    const roots = body.data as Json[];
    expect(roots.map((r) => r.title)).toEqual(['示范粮食储备有限公司']);
    expect(titles(roots)).toEqual(['示范粮食储备有限公司', '综合管理部']);
  });

  it('lazy-tree lists the children of a department', async () => {
    const tree = await call(s, kygl, 'GET', '/api/blade-system/dept/tree');
    const group = tree.body.data[0] as Json;
    const { body } = await call(s, kygl, 'GET', `/api/blade-system/dept/lazy-tree?parentId=${group.id}`);
    const north = (body.data as Json[]).find((d) => d.title === '华北分公司');
    expect(north).toMatchObject({ parentId: group.id, hasChildren: true });
    const bad = await call(s, kygl, 'GET', '/api/blade-system/dept/lazy-tree?parentId=x');
    expect(bad.status).toBe(400);
    expect(bad.body.msg).toBe('参数 parentId 的值无效');
  });
});

describe('the signed-in user', () => {
  it.each(['/api/blade-auth/oauth/user-info', '/api/blade-user/info'])('%s: duo has two roles and works in 科技发展部', async (url) => {
    const { status, body } = await call(s, duo, 'GET', url);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ userId: duo.userId, account: 'duo', realName: '赵多', tenantId: '000000', deptId: duo.deptId, deptName: '科技发展部' });
    expect((body.data.roles as Json[]).map((r) => r.roleAlias).sort()).toEqual(['projectManager', 'researcher']);
    expect((body.data.roles as Json[]).map((r) => r.roleName).sort()).toEqual(['科研人员', '项目负责人'].sort());
    expect(JSON.stringify(body)).not.toMatch(/password"|\$argon2/);
  });

  it('needs a token', async () => {
    const { status } = await call(s, null, 'GET', '/api/blade-user/info');
    expect(status).toBe(401);
  });
});

describe('the request pipeline', () => {
  it('answers an unknown /api path with the 404 envelope', async () => {
    for (const who of [kyry, null]) {
      const { status, body } = await call(s, who, 'GET', '/api/no/such/endpoint?x=1');
      expect(status).toBe(404);
      expect(body).toEqual({ code: 404, success: false, data: null, msg: '接口不存在: /api/no/such/endpoint' });
    }
  });

  it('answers a failing route with 500 and an error id; the stack goes to blade_log_error only', async () => {
    const { status, body, res } = await call(s, kyry, 'GET', '/api/test/boom');
    expect(status).toBe(500);
    expect(body).toMatchObject({ code: 500, success: false });
    const errorId = body.data.errorId as string;
    expect(errorId).toMatch(/^\d+$/);
    expect(body.msg).toBe(`服务器内部错误，错误编号 ${errorId}`);
    expect(body).not.toHaveProperty('stack');
    expect(res.body).not.toContain('kaboom');
    expect(res.body).not.toMatch(/\bat\s.+:\d+:\d+/); // no stack frames
    const row = (
      await s.kernel.database.pool.query('SELECT method, request_uri, message, stack_trace, user_id::text AS user_id, tenant_id FROM blade_log_error WHERE id = $1', [errorId])
    ).rows[0];
    expect(row).toMatchObject({ method: 'GET', request_uri: '/api/test/boom', message: 'kaboom', user_id: kyry.userId, tenant_id: '000000' });
    expect(row.stack_trace).toContain('kaboom');
    expect(row.stack_trace).toMatch(/system\.test\.ts/);
  });

  it('answers in English when the client asks for it', async () => {
    const { body } = await call(s, null, 'GET', '/api/blade-system/menu/routes', undefined, { 'accept-language': 'en-US,en;q=0.9' });
    expect(body.msg).toBe('Not signed in or the session expired: please log in again');
  });

  it('writes every /api request to blade_log_api', async () => {
    const marker = `probe${Date.now()}`;
    await call(s, kyry, 'GET', `/api/blade-system/dict/dictionary?code=${marker}`);
    await call(s, null, 'GET', `/api/blade-system/menu/top-menu?m=${marker}`);
    await call(s, kyry, 'GET', `/api/no/such/${marker}`);
    // the writer buffers and its timer may be mid-insert: flush and wait until the rows are there
    let rows: Json[] = [];
    for (let i = 0; i < 50 && rows.length < 3; i++) {
      await s.kernel.apiLog.flush();
      rows = (
        await s.kernel.database.pool.query(
          `SELECT method, request_uri, params, user_id::text AS user_id, tenant_id, remote_ip, time, status_code, create_by
             FROM blade_log_api WHERE params LIKE $1 OR request_uri LIKE $1 ORDER BY status_code`,
          [`%${marker}%`],
        )
      ).rows;
      if (rows.length < 3) await new Promise((r) => setTimeout(r, 100));
    }
    expect(rows).toHaveLength(3);
    const [okRow, anon, missing] = rows;
    expect(okRow).toMatchObject({ method: 'GET', request_uri: '/api/blade-system/dict/dictionary', params: `code=${marker}`, user_id: kyry.userId, tenant_id: '000000', status_code: 200, create_by: 'kyry' });
    expect(okRow.remote_ip).toBe('127.0.0.1');
    expect(okRow.time).toBeGreaterThanOrEqual(0);
    expect(anon).toMatchObject({ request_uri: '/api/blade-system/menu/top-menu', user_id: null, tenant_id: null, status_code: 401 });
    expect(missing).toMatchObject({ request_uri: `/api/no/such/${marker}`, status_code: 404, user_id: kyry.userId });
  });

  it('never stores the query of the token endpoint (it may carry a password)', async () => {
    const agent = `kc-test-agent-${Date.now()}`;
    const res = await s.app.inject({
      method: 'POST',
      url: `/api/blade-auth/oauth/token?grant_type=password&username=kyry&password=${encodeURIComponent(s.password)}`,
      headers: { authorization: 'Basic ' + Buffer.from('saber:saber_secret').toString('base64'), 'tenant-id': '000000', 'user-agent': agent },
    });
    expect(res.statusCode).toBe(200);
    let rows: Json[] = [];
    for (let i = 0; i < 50 && rows.length === 0; i++) {
      await s.kernel.apiLog.flush();
      rows = (await s.kernel.database.pool.query('SELECT request_uri, params, status_code FROM blade_log_api WHERE user_agent = $1', [agent])).rows;
      if (rows.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    // the login was logged, without its query
    expect(rows).toEqual([{ request_uri: '/api/blade-auth/oauth/token', params: null, status_code: 200 }]);
    expect(await countRows(s, 'blade_log_api', 'params LIKE $1', [`%${s.password}%`])).toBe(0);
  });
});
