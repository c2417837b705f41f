// @vitest-environment jsdom
/**
 * The home page (/wel/index): the welcome line and the app tiles of the role's menu, then the dashboard of
 * schemas/_pages/dashboard.json — one card per card of the page schema, each with its Chart fed by its
 * endpoint (`/api/system/dashborad/*`, `/api/basic/achievement/statistics`), the answer's fields mapped to
 * categories and series as the schema says. ECharts itself is replaced by a stub that records the option it
 * is given (jsdom has no canvas); the charts' `data-series` carry what they show.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import React from 'react';
import { screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import dashboard from '../../../schemas/_pages/dashboard.json';
import { HomePage } from './pages.js';
import { fail, renderApp, setLang, type FakeServer } from '../runtime/test-utils.js';
import { baseServer, signInAs } from '../runtime/fixtures.js';
import { chartData, chartOption } from '../components/Chart.js';

vi.mock('../components/EChartsView.js', async () => {
  const { createElement } = await import('react');
  return { default: ({ option }: { option: unknown }) => createElement('div', { 'data-testid': 'echarts', 'data-option': JSON.stringify(option) }) };
});

const TYPES = [
  ['patent', '专利', 'Patent'],
  ['thesis', '论文', 'Thesis'],
  ['softwarecopyright', '软件著作权', 'Software copyright'],
  ['book', '著作', 'Book'],
  ['award', '奖励', 'Award'],
  ['standard', '标准', 'Standard'],
] as const;

const byStatus = (a: number, b: number, c: number, d: number) => ({ '0': a, '1': b, '2': c, '3': d });
const byType = (counts: number[]) =>
  TYPES.map(([type, name, nameEn], i) => ({ type, resource: `basic/${type}`, name, nameEn, total: counts[i], byStatus: byStatus(counts[i], 0, 0, 0) }));
const perType = (counts: number[]) => Object.fromEntries(TYPES.map(([type], i) => [type, counts[i]]));

const INDEX = {
  achievements: { total: 12, byStatus: byStatus(5, 3, 3, 1), byType: byType([4, 3, 2, 1, 1, 1]) },
  mine: { total: 5, byStatus: byStatus(3, 1, 1, 0) },
  company: { companyId: '100', companyName: '粮储集团有限公司', total: 9, byStatus: byStatus(4, 2, 2, 1) },
  examine: { pending: null, submitted: byStatus(0, 1, 0, 2) },
};
const MINE = { total: 5, byStatus: byStatus(3, 1, 1, 0), byType: byType([2, 2, 1, 0, 0, 0]) };
const COMPANY = {
  companyId: '100',
  companyName: '粮储集团有限公司',
  total: 9,
  byStatus: byStatus(4, 2, 2, 1),
  byType: [{ type: 'patent', resource: 'basic/patent', name: '专利', nameEn: 'Patent', total: 9, byStatus: byStatus(4, 2, 2, 1) }],
  byYear: [
    { year: '2023', total: 4, byType: { patent: 4 } },
    { year: '2024', total: 5, byType: { patent: 5 } },
  ],
};
const STATS = {
  total: 12,
  byStatus: byStatus(5, 3, 3, 1),
  byType: byType([4, 3, 2, 1, 1, 1]),
  byYear: [
    { year: '2023', total: 5, byType: perType([2, 1, 1, 1, 0, 0]) },
    { year: '2024', total: 7, byType: perType([2, 2, 1, 0, 1, 1]) },
  ],
  byCompany: [
    { companyId: '100', companyName: '粮储集团有限公司', total: 9, byType: perType([4, 2, 1, 1, 1, 0]) },
    { companyId: null, companyName: null, total: 3, byType: perType([0, 1, 1, 0, 0, 1]) },
  ],
  yearBy: 'natural',
};

const MENUS = [
  { id: 'm1', parentId: '0', code: 'achievement', name: '成果管理', nameEn: 'Achievements', path: '/achievement', source: null, category: 1, isOpen: 1, isEnabled: true, resource: null, meta: { roles: [] }, children: [] },
  { id: 'm2', parentId: '0', code: 'system', name: '系统管理', nameEn: 'System', path: '/system', source: null, category: 1, isOpen: 1, isEnabled: true, resource: null, meta: { roles: ['administrator'] }, children: [] },
];

let server: FakeServer;

beforeEach(() => {
  setLang('zh');
  signInAs('kygl', '1001');
  server = baseServer();
  server.on('GET', '/api/blade-system/menu/routes', MENUS);
  server.on('GET', '/api/system/dashborad/index', INDEX);
  server.on('GET', '/api/system/dashborad/myBasicAchievements', MINE);
  server.on('GET', '/api/system/dashborad/companyBasicAchievements', COMPANY);
  server.on('GET', '/api/basic/achievement/statistics', STATS);
  server.on('GET', '/api/basic/todo/list', { records: [], total: 0 });
});

type Node = { title?: string; titleEn?: string; 'x-component'?: string; 'x-component-props'?: Record<string, any>; properties?: Record<string, Node> };

/** The page schema's chart cards (title, titleEn, chart props), in order (the to-do cards: TodoCard.test.tsx). */
function cards(node: Node = dashboard.schema as Node): Array<{ title: string; titleEn: string; chart: Record<string, any> }> {
  return Object.values(node.properties ?? {}).flatMap((n) =>
    n['x-component'] === 'Card'
      ? Object.values(n.properties!)[0]['x-component'] === 'Chart'
        ? [{ title: n.title!, titleEn: n.titleEn!, chart: Object.values(n.properties!)[0]['x-component-props']! }]
        : []
      : cards(n),
  );
}

const cardOf = (title: string) => screen.getByText(title, { selector: '.ant-card-head-title' }).closest('.ant-card') as HTMLElement;
const seriesOf = (title: string) => JSON.parse(within(cardOf(title)).getByTestId('kc-chart').getAttribute('data-series')!);
const optionOf = async (title: string) => JSON.parse((await within(cardOf(title)).findByTestId('echarts')).getAttribute('data-option')!);

function renderHome() {
  return renderApp(
    <MemoryRouter initialEntries={['/wel/index']}>
      <HomePage />
    </MemoryRouter>,
  );
}

describe('HomePage dashboard', () => {
  it('keeps the welcome line and the app tiles, and renders one card per card of the page schema', async () => {
    renderHome();
    expect(await screen.findByText('欢迎，张三')).toBeTruthy();
    expect(await screen.findByText('成果管理')).toBeTruthy();
    expect(screen.queryByText('系统管理')).toBeNull();
    const all = cards();
    expect(all.length).toBeGreaterThanOrEqual(8);
    for (const c of all) expect(cardOf(c.title), c.title).toBeTruthy();
    await waitFor(() => expect(screen.getAllByTestId('kc-chart')).toHaveLength(all.length));
    // each endpoint is asked once, whatever the number of cards it feeds
    for (const url of ['/api/system/dashborad/index', '/api/system/dashborad/myBasicAchievements', '/api/system/dashborad/companyBasicAchievements', '/api/basic/achievement/statistics'])
      expect(server.calls(url), url).toHaveLength(1);
  });

  it('maps each answer to its chart as the schema says', async () => {
    renderHome();
    await waitFor(() => expect(screen.getAllByTestId('kc-chart')).toHaveLength(cards().length));
    // figures: 待我审核 is left out for a role that decides nothing (pending null)
    expect(seriesOf('成果概览')).toEqual([
      { title: '成果总数', value: 12 },
      { title: '我登记的成果', value: 5 },
      { title: '本单位成果', value: 9 },
      { title: '我的待审核', value: 1 },
      { title: '我的已驳回', value: 2 },
    ]);
    expect(seriesOf('我的成果（按类型）')).toEqual({ categories: ['专利', '论文', '软件著作权', '著作', '奖励', '标准'], series: [{ name: '成果数', data: [2, 2, 1, 0, 0, 0] }] });
    await waitFor(() => expect(seriesOf('成果审核状态').categories).toEqual(['草稿', '待审核', '审核通过', '已驳回']));
    expect(seriesOf('成果审核状态').series[0].data).toEqual([5, 3, 3, 1]);
    await waitFor(() => expect(seriesOf('本单位成果审核情况').series.map((s: { name: string }) => s.name)).toEqual(['草稿', '待审核', '审核通过', '已驳回']));
    expect(seriesOf('本单位成果年度趋势')).toEqual({ categories: ['2023', '2024'], series: [{ name: '成果数', data: [4, 5] }] });
    expect(seriesOf('年度成果统计').series.map((s: { name: string; data: number[] }) => [s.name, s.data])).toEqual([
      ['专利', [2, 2]],
      ['论文', [1, 2]],
      ['软件著作权', [1, 1]],
      ['著作', [1, 0]],
      ['奖励', [0, 1]],
      ['标准', [0, 1]],
    ]);
    expect(seriesOf('各单位成果统计').categories).toEqual(['粮储集团有限公司', '未知']);

    // what ECharts is given
    const pie = await optionOf('我的成果（按类型）');
    expect(pie.series[0].type).toBe('pie');
    expect(pie.series[0].data).toEqual([
      { name: '专利', value: 2 },
      { name: '论文', value: 2 },
      { name: '软件著作权', value: 1 },
    ]); // empty slices left out
    const years = await optionOf('年度成果统计');
    expect(years.xAxis).toMatchObject({ type: 'category', data: ['2023', '2024'] });
    expect(years.series.every((s: { type: string; stack: string }) => s.type === 'bar' && s.stack === 'total')).toBe(true);
    const line = await optionOf('本单位成果年度趋势');
    expect(line.series[0]).toMatchObject({ type: 'line', data: [4, 5] });
    const companies = await optionOf('各单位成果统计');
    expect(companies.yAxis).toMatchObject({ type: 'category', data: ['粮储集团有限公司', '未知'] });
    expect(companies.xAxis).toMatchObject({ type: 'value' });
  });

  it('speaks English: card titles, figures and categories from the English fields', async () => {
    setLang('en');
    renderHome();
    for (const c of cards()) expect(await screen.findByText(c.titleEn, { selector: '.ant-card-head-title' }), c.titleEn).toBeTruthy();
    await waitFor(() => expect(screen.getAllByTestId('kc-chart')).toHaveLength(cards().length));
    expect(seriesOf('Achievements at a glance')[0]).toEqual({ title: 'Achievements', value: 12 });
    expect(seriesOf('My achievements by type').categories[0]).toBe('Patent');
    await waitFor(() => expect(seriesOf('Review status').categories).toEqual(['Draft', 'Pending review', 'Approved', 'Rejected']));
    expect(seriesOf('Achievements per year, by type').series[0].name).toBe('Patent');
    setLang('zh');
  });

  it('shows a refused figure in its own card, with no error toast, and 暂无数据 for an empty one', async () => {
    server.on('GET', '/api/basic/achievement/statistics', fail(403, '没有权限'));
    server.on('GET', '/api/system/dashborad/myBasicAchievements', { total: 0, byStatus: byStatus(0, 0, 0, 0), byType: byType([0, 0, 0, 0, 0, 0]) });
    renderHome();
    await waitFor(() => expect(within(cardOf('成果类型统计')).getByText('没有权限')).toBeTruthy());
    expect(within(cardOf('年度成果统计')).getByText('没有权限')).toBeTruthy();
    await waitFor(() => expect(within(cardOf('我的成果（按类型）')).getByText('暂无数据')).toBeTruthy());
    expect(within(cardOf('我的成果（按类型）')).queryByTestId('echarts')).toBeNull();
    expect(await within(cardOf('本单位成果年度趋势')).findByTestId('echarts')).toBeTruthy();
    await new Promise((r) => setTimeout(r, 400));
    expect(document.querySelector('.ant-message-notice')).toBeNull();
  });
});

describe('Chart mapping', () => {
  it('maps an object map, explicit series and dictionary labels without rendering', () => {
    const labels = { unknown: '未知', categoryDict: [{ id: '1', dictKey: '1', dictValue: '待审核' }] };
    expect(chartData({ source: 'byStatus', categoryDict: 'examine_status' }, { byStatus: { '1': 3, '9': 1 } }, 'zh', labels)).toEqual({
      categories: ['待审核', '9'],
      series: [{ name: 'value', data: [3, 1] }],
    });
    expect(chartData({ category: 'year', series: [{ field: 'byType.patent', name: '专利', nameEn: 'Patent' }] }, [{ year: '2024', byType: { patent: '4' } }], 'en', labels)).toEqual({
      categories: ['2024'],
      series: [{ name: 'Patent', data: [4] }],
    });
    expect(chartData({ source: 'missing' }, {}, 'zh', labels)).toEqual({ categories: [], series: [{ name: 'total', data: [] }] });
    const opt = chartOption('bar', { categories: ['a'], series: [{ name: 's', data: [1] }] }) as Record<string, any>;
    expect(opt.legend).toEqual({ show: false });
    expect(opt.series[0]).toMatchObject({ type: 'bar', data: [1], stack: undefined });
  });
});
