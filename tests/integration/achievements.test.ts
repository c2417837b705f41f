/**
 * The five achievement types besides the patent (spec 001 §3, §4, §5, §7, §9): thesis, software copyright,
 * book, award and standard, each end to end through the generic engine and the basic module. For every type:
 * each required field missing gives its own message and stores nothing, an empty form lists every missing
 * field in form order, the limits of §5/§9 (names 100, project name 50, collection name 50, long text 2000,
 * book description and award remark 300), a complete record round-trips (submit → detail), tenant isolation,
 * the researcher's and the declaring unit's data scopes, and the menu grants. Then what is particular to a
 * type: the software copyright's first publication date (§4) and defaults (§9), date and rank order, ISBN,
 * sub-forms.
 *
 * The test files share one database: every record carries TAG in its label field and the lists filter on it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anyProject, call, countRows, login, testServer, type Json, type Session, type TestServer } from './helpers.js';

let s: TestServer;
let kygl: Session; // research management, no data scope
let kyry: Session; // researcher at 华北分公司/仓储管理部: own records
let sbdw: Session; // declaring unit at 华北分公司/仓储管理部: own department and below
let other: Session; // administrator of tenant 100001
const TAG = `AC${Date.now().toString(36)}`;

beforeAll(async () => {
  s = await testServer();
  [kygl, kyry, sbdw] = await Promise.all(['kygl', 'kyry', 'sbdw'].map((a) => login(s, a)));
  other = await login(s, 'admin', { tenantId: '100001' });
});
afterAll(async () => {
  await s.close();
});

const ANNEX = [{ name: '证明材料.pdf', link: '/upload/20250101/a.pdf' }];
const PROJECT = { projectSource: 3, projectName: '智能粮库关键技术研究', projectType: '3' };

interface TypeCase {
  /** resource name under basic/, also the menu code */
  type: string;
  table: string;
  /** the field holding the record's name (the schema's labelField) */
  label: string;
  /** the generic over-length message of the label field */
  labelTooLong: string;
  /** a complete record (every field of spec 001 §3) whose label carries `tag` */
  full(tag: string, deptId: string): Json;
  /** required fields in form order → message; `blank` sends '' instead of leaving the field out (it has a default) */
  required: Array<[field: string, message: string, blank?: 'blank']>;
  /** field, too long / out of range / malformed value, message */
  limits: Array<[field: string, value: unknown, message: string]>;
}

const CASES: TypeCase[] = [
  {
    type: 'thesis',
    table: 'basic_thesis',
    label: 'title',
    labelTooLong: '论文名称长度不能超过 100 个字符',
    full: (tag, deptId) => ({
      title: `${tag} 低温储粮条件下稻谷品质变化研究`,
      ...PROJECT,
      publish: '粮油食品科技',
      publishDate: '2024',
      volumeNumber: '32',
      issueNumber: '4',
      pageScope: '12-18',
      wordsNumber: 0.85,
      cnCode: 'CN 11-3863/TS',
      level: '5',
      collectionName: '第十届全国粮食储藏学术会议论文集',
      scope: '2',
      region: '中国',
      meetingName: '第十届全国粮食储藏学术会议',
      meetingAddress: '河南省郑州市',
      meetingStartDate: '2024-05-10',
      meetingEndDate: '2024-05-12',
      language: '1',
      deptId,
      authorDetailForm: [
        { name: '刘研', rank: 1, unit: '华北分公司仓储管理部' },
        { name: '李科', rank: 2, unit: '集团科技信息部', userId: '1' },
      ],
      annex: ANNEX,
    }),
    required: [
      ['title', '请输入论文名称'],
      ['projectSource', '请选择项目来源'],
      ['projectName', '请输入项目名称'],
      ['projectType', '请选择成果来源'],
      ['publish', '请输入发表刊物/论文集'],
      ['publishDate', '请选择出版年份'],
      ['issueNumber', '请输入期号'],
      ['pageScope', '请输入页码范围'],
      ['level', '请选择刊物级别'],
      ['scope', '请选择发表类型'],
      ['deptId', '请输入承担单位'],
      ['annex', '请上传附件'],
    ],
    limits: [
      ['projectName', '项'.repeat(51), '项目名称不能超过50个字符'],
      ['publish', '刊'.repeat(101), '发表刊物/论文集长度不能超过 100 个字符'],
      ['collectionName', '集'.repeat(51), '论文集名称长度不能超过 50 个字符'],
      ['publishDate', '2024-05', '出版年份格式不正确，应为 yyyy'],
      ['meetingStartDate', '2024/05/10', '会议开始日期格式不正确，应为 yyyy-MM-dd'],
      ['wordsNumber', -1, '字数（万字）不能小于 0'],
      ['level', [5], '刊物级别应为string类型'], // a number is taken as its text (dictionary values are strings); a list is not
    ],
  },
  {
    type: 'softwarecopyright',
    table: 'basic_softwarecopyright',
    label: 'name',
    labelTooLong: '软件名称长度不能超过 100 个字符',
    full: (tag, deptId) => ({
      name: `${tag} 粮情测控分析系统V1.0`,
      deptId,
      ...PROJECT,
      devEndTime: '2024-01-20',
      state: '2',
      firstPublishTime: '2024-03-01',
      code: '2024SR0123456',
      bookCode: '软著登字第12345678号',
      getWay: '2',
      scope: '2',
      ownershipDetailForm: [{ name: '粮储集团有限公司', rank: 1 }],
      userNamesDetailForm: [{ userName: '刘研', rank: 1, deptName: '仓储管理部' }],
      technicalFeature: '基于多点测温与湿度数据的粮情趋势预测。',
      mainFunc: '粮温、湿度采集，异常报警，报表导出。',
      annex: ANNEX,
    }),
    required: [
      ['name', '请输入软件名称'],
      ['deptId', '请输入承担单位'],
      ['projectSource', '请选择项目来源'],
      ['projectName', '请输入项目名称'],
      ['projectType', '请选择成果来源'],
      ['devEndTime', '请输入开发完成日期'],
      ['state', '请选择发表状态'],
      ['code', '请输入登记号'],
      ['bookCode', '请输入证书号'],
      ['getWay', '请输入取得方式', 'blank'],
      ['scope', '请输入权利范围', 'blank'],
      ['annex', '请上传附件'],
    ],
    limits: [
      ['projectName', '项'.repeat(51), '项目名称不能超过50个字符'],
      ['technicalFeature', '技'.repeat(2001), '技术特点长度不能超过 2000 个字符'],
      ['mainFunc', '功'.repeat(2001), '主要功能长度不能超过 2000 个字符'],
      ['devEndTime', '2024-02-30', '开发完成日期格式不正确，应为 yyyy-MM-dd'],
    ],
  },
  {
    type: 'book',
    table: 'basic_book',
    label: 'name',
    labelTooLong: '著作名称长度不能超过 100 个字符',
    full: (tag, deptId) => ({
      name: `${tag} 粮食储藏技术与管理`,
      ...PROJECT,
      publishDept: '中国农业出版社',
      publishTime: '2023-09',
      publishRegion: '1',
      language: '1',
      type: '1',
      wordsNumber: 320.5,
      isbnCode: '978-7-109-30123-4',
      pressLevel: '1',
      deptId,
      userNamesDetailForm: [{ userName: '李科', rank: 1 }, { userName: '刘研', rank: 2 }],
      description: '系统介绍粮食储藏的生态原理、低温储粮和智能化粮库管理。',
      annex: ANNEX,
    }),
    required: [
      ['name', '请输入著作名称'],
      ['projectSource', '请选择项目来源'],
      ['projectName', '请输入项目名称'],
    ],
    limits: [
      ['projectName', '项'.repeat(51), '项目名称不能超过50个字符'],
      ['description', '简'.repeat(301), '著作简介长度不能超过 300 个字符'],
      ['isbnCode', 'ISBN 12345', '请输入正确的ISBN号（ISBN-10或ISBN-13）'],
      ['isbnCode', '978-7-109-3012', '请输入正确的ISBN号（ISBN-10或ISBN-13）'],
      ['publishTime', '2023-13', '出版时间格式不正确，应为 yyyy-MM'],
    ],
  },
  {
    type: 'award',
    table: 'basic_award',
    label: 'name',
    labelTooLong: '奖励名称长度不能超过 100 个字符',
    full: (tag, deptId) => ({
      name: `${tag} 绿色储粮关键技术集成与应用`,
      ...PROJECT,
      level: '2',
      grade: '3',
      certificateDept: '中国粮油学会',
      certificateDate: '2024-11-20',
      year: '2024',
      deptCertificateCode: '2024-KJ-0123',
      platform: '中国粮油学会科学技术奖',
      participateInDept: 3,
      deptRank: 1,
      achievement: [{ name: '氮气气调储粮技术', type: '6' }, { name: '内环流控温技术' }],
      applyNo: 'SB2024-017',
      applyName: '绿色储粮技术集成',
      deptId,
      userNamesDetailForm: [{ userName: '李科', rank: 1 }],
      annex: ANNEX,
      remark: '集团推荐',
    }),
    required: [
      ['name', '请输入奖励名称'],
      ['projectSource', '请选择项目来源'],
      ['projectName', '请输入项目名称'],
    ],
    limits: [
      ['projectName', '项'.repeat(51), '项目名称不能超过50个字符'],
      ['remark', '备'.repeat(301), '备注长度不能超过 300 个字符'],
      ['deptRank', 0, '单位排名不能小于 1'],
      ['participateInDept', 1.5, '参与单位数应为integer类型'],
      ['year', '24', '获奖年度格式不正确，应为 yyyy'],
    ],
  },
  {
    type: 'standard',
    table: 'basic_standard',
    label: 'name',
    labelTooLong: '标准名称长度不能超过 100 个字符',
    full: (tag, deptId) => ({
      name: `${tag} 粮油储藏 平房仓气密性要求`,
      ...PROJECT,
      code: 'LS/T 1234-2024',
      category: '2',
      type: '1',
      publishTime: '2024-06-01',
      execTime: '2024-12-01',
      publishDept: '国家粮食和物资储备局',
      deptNames: '粮储集团有限公司',
      joinDept: '科学研究院；华北分公司',
      state: '1',
      deptId,
      userNamesDetailForm: [{ userName: '赵多', rank: 1 }],
      annex: ANNEX,
    }),
    required: [
      ['name', '请输入标准名称'],
      ['projectSource', '请选择项目来源'],
      ['projectName', '请输入项目名称'],
    ],
    limits: [
      ['projectName', '项'.repeat(51), '项目名称不能超过50个字符'],
      ['execTime', '2024-12', '实施日期格式不正确，应为 yyyy-MM-dd'],
      ['category', '国家标准'.repeat(9), '标准类别长度不能超过 32 个字符'],
    ],
  },
];

const api = (c: TypeCase, ep: string) => `/api/basic/${c.type}/${ep}`;
const submitAs = (c: TypeCase, who: Session, body: unknown, headers: Record<string, string> = {}) => call(s, who, 'POST', api(c, 'submit'), body, headers);
const ids = (res: { body: Json }) => (res.body.data.records ?? res.body.data).map((r: Json) => r.id) as string[];

for (const c of CASES) {
  describe(`${c.type}`, () => {
    const stored = () => countRows(s, c.table);
    const submit = (body: unknown, headers: Record<string, string> = {}) => submitAs(c, kygl, body, headers);

    describe('required fields', () => {
      for (const [field, message, blank] of c.required) {
        it(`without ${field}: 400 ${message}, nothing stored`, async () => {
          const before = await stored();
          const body = c.full(TAG, kygl.deptId);
          if (blank) body[field] = '';
          else delete body[field];
          const res = await submit(body);
          expect(res.status).toBe(400);
          expect(res.body.success).toBe(false);
          expect(res.body.msg).toBe(message);
          expect(res.body.data).toEqual([{ field, message }]);
          expect(await stored()).toBe(before);
        });
      }

      it('an empty form lists every missing field in form order (defaults filled, the project name only for source 3)', async () => {
        const before = await stored();
        const res = await submit({});
        expect(res.status).toBe(400);
        const expected = c.required.filter(([f, , blank]) => f !== 'projectName' && !blank);
        expect(res.body.data).toEqual(expected.map(([field, message]) => ({ field, message })));
        expect(await stored()).toBe(before);
      });

      it('source 1 or 2 needs a project (请选择项目); source 3 drops a project id left behind', async () => {
        for (const projectSource of [1, 2]) {
          const res = await submit({ ...c.full(TAG, kygl.deptId), projectSource, projectName: '' });
          expect(res.status).toBe(400);
          expect(res.body.data).toEqual([{ field: 'projectId', message: '请选择项目' }]);
        }
        const before = await stored();
        const unknown = await submit({ ...c.full(TAG, kygl.deptId), projectSource: 1, projectId: '123456789', projectName: '平台项目' });
        expect(unknown.status).toBe(400);
        expect(unknown.body.data).toEqual([{ field: 'projectId', message: '项目不存在' }]);
        expect(await stored()).toBe(before);
        const projectId = await anyProject(s);
        const picked = await submit({ ...c.full(TAG, kygl.deptId), projectSource: 1, projectId, projectName: '平台项目' });
        expect(picked.status).toBe(200);
        expect(picked.body.data).toMatchObject({ projectSource: 1, projectId, projectName: '平台项目' });
        const none = await submit({ ...c.full(TAG, kygl.deptId), projectSource: 3, projectId: '999' });
        expect(none.status).toBe(200);
        expect(none.body.data.projectId).toBeNull();
      });

      it('answers the en text when the client asks for English', async () => {
        const body = c.full(TAG, kygl.deptId);
        delete body.projectSource;
        const res = await submit(body, { 'accept-language': 'en' });
        expect(res.body.msg).toBe('Please select the project source');
      });
    });

    describe('limits', () => {
      it(`refuses a name over 100 characters and takes one of 100`, async () => {
        const before = await stored();
        const res = await submit({ ...c.full(TAG, kygl.deptId), [c.label]: '粮'.repeat(101) });
        expect(res.status).toBe(400);
        expect(res.body.data).toEqual([{ field: c.label, message: c.labelTooLong }]);
        expect(await stored()).toBe(before);
        const ok = await submit({ ...c.full(TAG, kygl.deptId), [c.label]: `${TAG}${'粮'.repeat(100 - TAG.length)}` });
        expect(ok.status).toBe(200);
      });

      for (const [field, value, message] of c.limits) {
        it(`${field} = ${JSON.stringify(value).slice(0, 24)}: ${message}, nothing stored`, async () => {
          const before = await stored();
          const res = await submit({ ...c.full(TAG, kygl.deptId), [field]: value });
          expect(res.status).toBe(400);
          expect(res.body.data).toEqual([{ field, message }]);
          expect(await stored()).toBe(before);
        });
      }
    });

    describe('round trip, tenant isolation, data scope, grants', () => {
      let mine: Json; // created by the researcher kyry
      let fromSbdw: Json; // created by the declaring unit sbdw, same department as kyry
      const tag = `${TAG}-${c.type}-rt`;

      beforeAll(async () => {
        mine = (await submitAs(c, kyry, c.full(tag, kyry.deptId))).body.data;
        fromSbdw = (await submitAs(c, sbdw, c.full(tag, sbdw.deptId))).body.data;
        expect(mine?.id && fromSbdw?.id).toBeTruthy();
      });

      it('a complete record round-trips: submit answers what was sent, detail answers the same', async () => {
        const body = c.full(`${TAG}-${c.type}-full`, kygl.deptId);
        const res = await submit(body);
        expect(res.status).toBe(200);
        expect(res.body.msg).toBe('操作成功');
        const saved = res.body.data;
        expect(saved).toMatchObject(body);
        expect(saved).toMatchObject({ tenantId: '000000', createUser: kygl.userId, createDept: kygl.deptId, projectId: null });
        expect(saved.id).toMatch(/^\d{15,19}$/);
        const back = await call(s, kygl, 'GET', `${api(c, 'detail')}?id=${saved.id}`);
        expect(back.status).toBe(200);
        expect(back.body.data).toEqual(saved);
      });

      it('an update keeps what the body leaves out and is validated as a whole', async () => {
        const res = await submitAs(c, kyry, { id: mine.id, [c.label]: `${tag} 修订` });
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ ...mine, [c.label]: `${tag} 修订`, updateTime: expect.any(String) });
        mine = res.body.data;
        const cleared = await submitAs(c, kyry, { id: mine.id, [c.label]: '' });
        expect(cleared.status).toBe(400);
        expect(cleared.body.msg).toBe(c.required[0][1]);
        expect((await call(s, kyry, 'GET', `${api(c, 'detail')}?id=${mine.id}`)).body.data[c.label]).toBe(`${tag} 修订`);
      });

      it('tenant 100001 sees none of it: lists empty, detail, update and remove 404', async () => {
        for (const ep of ['list', 'page', 'myList', 'list-for-myCompany']) {
          const res = await call(s, other, 'GET', `${api(c, ep)}?${c.label}=${tag}&size=200`);
          expect(res.status, ep).toBe(200);
          expect(res.body.data.total, ep).toBe(0);
          expect(res.body.data.records, ep).toEqual([]);
        }
        expect((await call(s, other, 'GET', `${api(c, 'select')}?${c.label}=${tag}`)).body.data).toEqual([]);
        const detail = await call(s, other, 'GET', `${api(c, 'detail')}?id=${mine.id}`);
        expect(detail.status).toBe(404);
        expect(detail.body.data).toBeNull();
        expect((await submitAs(c, other, { ...c.full('hijack', other.deptId), id: mine.id })).status).toBe(404);
        expect((await call(s, other, 'POST', `${api(c, 'remove')}?ids=${mine.id}`)).status).toBe(404);
        expect(await countRows(s, c.table, `id = $1 AND is_deleted = 0 AND tenant_id = '000000' AND ${c.label} = $2`, [mine.id, mine[c.label]])).toBe(1);
        // and the same query in tenant 000000 finds both
        expect((await call(s, kygl, 'GET', `${api(c, 'list')}?${c.label}=${tag}&size=200`)).body.data.total).toBe(2);
      });

      it('a researcher lists and reads only their own records', async () => {
        expect(ids(await call(s, kyry, 'GET', `${api(c, 'list')}?${c.label}=${tag}&size=200`))).toEqual([mine.id]);
        expect((await call(s, kyry, 'GET', `${api(c, 'detail')}?id=${fromSbdw.id}`)).status).toBe(404);
        expect((await submitAs(c, kyry, { id: fromSbdw.id, [c.label]: 'changed' })).status).toBe(404);
      });

      it('a declaring unit sees its department’s records; research management sees the tenant’s', async () => {
        expect(new Set(ids(await call(s, sbdw, 'GET', `${api(c, 'list')}?${c.label}=${tag}&size=200`)))).toEqual(new Set([mine.id, fromSbdw.id]));
        expect(new Set(ids(await call(s, kygl, 'GET', `${api(c, 'list')}?${c.label}=${tag}&size=200`)))).toEqual(new Set([mine.id, fromSbdw.id]));
      });

      it('grants as the patent’s: a declaring unit may not delete, an expert may not read', async () => {
        const res = await call(s, sbdw, 'POST', `${api(c, 'remove')}?ids=${fromSbdw.id}`);
        expect(res.status).toBe(403);
        expect(await countRows(s, c.table, 'id = $1 AND is_deleted = 0', [fromSbdw.id])).toBe(1);
        const zj = await login(s, 'zj');
        expect((await call(s, zj, 'GET', `${api(c, 'list')}?${c.label}=${tag}`)).status).toBe(403);
      });

      it('the researcher removes their own record logically', async () => {
        const extra = (await submitAs(c, kyry, c.full(`${tag}-rm`, kyry.deptId))).body.data;
        expect((await call(s, kyry, 'POST', `${api(c, 'remove')}?ids=${extra.id}`)).status).toBe(200);
        expect((await call(s, kyry, 'GET', `${api(c, 'detail')}?id=${extra.id}`)).status).toBe(404);
        expect(await countRows(s, c.table, 'id = $1 AND is_deleted = 1', [extra.id])).toBe(1);
      });
    });
  });
}

const byType = (type: string) => CASES.find((c) => c.type === type)!;

describe('software copyright: first publication date (spec 001 §4) and defaults (§9)', () => {
  const c = byType('softwarecopyright');
  const submit = (body: unknown, headers: Record<string, string> = {}) => submitAs(c, kygl, body, headers);
  const stored = () => countRows(s, c.table);

  it("state '2' (published) without a first publication date: 请选择首次发表日期, nothing stored", async () => {
    const before = await stored();
    const body: Json = { ...c.full(TAG, kygl.deptId), state: '2' };
    delete body.firstPublishTime;
    const res = await submit(body);
    expect(res.status).toBe(400);
    expect(res.body.data).toEqual([{ field: 'firstPublishTime', message: '请选择首次发表日期' }]);
    expect((await submit({ ...body, firstPublishTime: '' }, { 'accept-language': 'en' })).body.msg).toBe('Please select the first publication date');
    expect(await stored()).toBe(before);
  });

  it("state '1' (unpublished) without it is accepted; a date left behind is cleared", async () => {
    const body: Json = { ...c.full(TAG, kygl.deptId), state: '1' };
    delete body.firstPublishTime;
    const res = await submit(body);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ state: '1', firstPublishTime: null });
    const left = await submit({ ...c.full(TAG, kygl.deptId), state: '1', firstPublishTime: '2024-03-01' });
    expect(left.status).toBe(200);
    expect(left.body.data.firstPublishTime).toBeNull();
  });

  it('publishing an unpublished record later needs the date', async () => {
    const body: Json = { ...c.full(TAG, kygl.deptId), state: '1' };
    delete body.firstPublishTime;
    const rec = (await submit(body)).body.data;
    const res = await submit({ id: rec.id, state: '2' });
    expect(res.body.data).toEqual([{ field: 'firstPublishTime', message: '请选择首次发表日期' }]);
    const ok = await submit({ id: rec.id, state: '2', firstPublishTime: '2024-04-01' });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ state: '2', firstPublishTime: '2024-04-01' });
  });

  it('the first publication may not precede the development completion', async () => {
    const before = await stored();
    const res = await submit({ ...c.full(TAG, kygl.deptId), devEndTime: '2024-05-01', firstPublishTime: '2024-04-30' });
    expect(res.status).toBe(400);
    expect(res.body.data).toEqual([{ field: 'firstPublishTime', message: '首次发表日期不能早于开发完成日期' }]);
    expect(await stored()).toBe(before);
    expect((await submit({ ...c.full(TAG, kygl.deptId), devEndTime: '2024-05-01', firstPublishTime: '2024-05-01' })).status).toBe(200);
  });

  it("way of acquisition and scope of rights default to '1'", async () => {
    const body = c.full(TAG, kygl.deptId);
    delete body.getWay;
    delete body.scope;
    const res = await submit(body);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ getWay: '1', scope: '1' });
  });

  it('validates the sub-forms: an owner and a developer need a name', async () => {
    const before = await stored();
    const res = await submit({ ...c.full(TAG, kygl.deptId), ownershipDetailForm: [{ name: '', rank: 1 }], userNamesDetailForm: [{ rank: 1 }] });
    expect(res.body.data).toEqual([
      { field: 'ownershipDetailForm.0.name', message: '请输入著作权人名称' },
      { field: 'userNamesDetailForm.0.userName', message: '请输入开发人员姓名' },
    ]);
    expect(await stored()).toBe(before);
  });
});

describe('the other types’ particular rules', () => {
  it('thesis: an author needs a name; the conference may not end before it starts', async () => {
    const c = byType('thesis');
    const before = await countRows(s, c.table);
    const author = await submitAs(c, kygl, { ...c.full(TAG, kygl.deptId), authorDetailForm: [{ name: '刘研', rank: 1 }, { rank: 2, unit: '仓储管理部' }] });
    expect(author.body.data).toEqual([{ field: 'authorDetailForm.1.name', message: '请输入作者姓名' }]);
    const dates = await submitAs(c, kygl, { ...c.full(TAG, kygl.deptId), meetingStartDate: '2024-05-12', meetingEndDate: '2024-05-10' });
    expect(dates.body.data).toEqual([{ field: 'meetingEndDate', message: '会议结束日期不能早于会议开始日期' }]);
    expect(await countRows(s, c.table)).toBe(before);
  });

  it('book: takes ISBN-13 and ISBN-10 (with X), hyphenated or not; the minimum record is name and project', async () => {
    const c = byType('book');
    for (const isbnCode of ['9787109301234', '978-7-109-30123-4', '7-5325-0221-X', '753250221x']) {
      const res = await submitAs(c, kygl, { ...c.full(TAG, kygl.deptId), isbnCode });
      expect(res.status, isbnCode).toBe(200);
      expect(res.body.data.isbnCode).toBe(isbnCode);
    }
    const min = await submitAs(c, kygl, { name: `${TAG} 最少字段的著作`, projectSource: 3, projectName: '自选课题' });
    expect(min.status).toBe(200);
    expect(min.body.data).toMatchObject({ publishDept: null, annex: null, deptId: null, userNamesDetailForm: null });
  });

  it('award: the unit rank may not exceed the participating units; an awarded achievement needs a name', async () => {
    const c = byType('award');
    const before = await countRows(s, c.table);
    const rank = await submitAs(c, kygl, { ...c.full(TAG, kygl.deptId), participateInDept: 2, deptRank: 3 });
    expect(rank.body.data).toEqual([{ field: 'deptRank', message: '单位排名不能大于参与单位数' }]);
    const item = await submitAs(c, kygl, { ...c.full(TAG, kygl.deptId), achievement: [{ type: '5' }] });
    expect(item.body.data).toEqual([{ field: 'achievement.0.name', message: '请输入成果名称' }]);
    expect(await countRows(s, c.table)).toBe(before);
    const ok = await submitAs(c, kygl, { name: `${TAG} 最少字段的奖励`, projectSource: 3, projectName: '自选课题', participateInDept: 2, deptRank: 2 });
    expect(ok.status).toBe(200);
  });

  it('standard: implementation may not precede publication; the minimum record is name and project', async () => {
    const c = byType('standard');
    const before = await countRows(s, c.table);
    const res = await submitAs(c, kygl, { ...c.full(TAG, kygl.deptId), publishTime: '2024-06-01', execTime: '2024-05-31' });
    expect(res.status).toBe(400);
    expect(res.body.data).toEqual([{ field: 'execTime', message: '实施日期不能早于发布日期' }]);
    expect(await countRows(s, c.table)).toBe(before);
    const min = await submitAs(c, kygl, { name: `${TAG} 最少字段的标准`, projectSource: 3, projectName: '自选课题' });
    expect(min.status).toBe(200);
  });
});
