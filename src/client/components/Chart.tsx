/**
 * Chart: a registered component (DESIGN §1.2, §3 `Chart`) that shows an endpoint's answer as a bar, line or
 * pie chart (ECharts, loaded lazily from EChartsView.tsx: its own chunk, outside the login route and the
 * schema runtime), or as a row of figures (`type: 'stat'`). A page schema places it
 * (`x-component: Chart`) and says, in `x-component-props`, where the data comes from and how the answer's
 * fields map to categories and series — so a new dashboard card is JSON, not code.
 *
 * Props:
 * - `type`: 'bar' (default), 'line', 'pie' or 'stat'; `stack` stacks the series, `horizontal` lays bars
 *   along the y axis; `height` (default 280).
 * - Data: `endpoint` (GET, swr-cached, failures shown in the card instead of a toast) with `params`, or `data`;
 *   `refreshMs` polls the endpoint while the chart is shown (a running crawl's dashboard).
 * - `source`: a dotted path into the answer (`achievements.byType`; default the answer itself) naming the
 *   rows: an array of objects, or an object map (`byStatus: {"0": 3, "1": 2}`), whose entries become rows
 *   `{key, value}`.
 * - `category`: the row field naming each category (x axis, pie slice; default `key`), `categoryEn` the
 *   field used in English (`nameEn`), `categoryDict` a system dictionary labelling the category values
 *   (`examine_status`).
 * - Series: `series: [{field, name, nameEn}]` — value fields of a row (dotted: `byStatus.2`); or
 *   `seriesFrom` — an object field of each row whose every key is a series (`byType` of the per-year rows),
 *   named by `seriesNames: {source, key, name, nameEn}` (a list elsewhere in the answer, e.g. the answer's
 *   `byType` with `type`/`name`/`nameEn`) or by `seriesDict` (a dictionary), else by the key. Default: the
 *   rows' `value` (map rows) or `total`.
 * - `type: 'stat'`: `items: [{path, title, titleEn, suffix, suffixEn}]`, one figure per item; an item whose
 *   value is null or absent is left out (e.g. 待我审核 for a role that decides nothing).
 *
 * Every chart's root carries `data-testid="kc-chart"`, `data-chart` (its type) and `data-series` (JSON of
 * the categories and series it shows), so tests and e2e journeys can check the figures without a canvas.
 * No data (no categories, or every value 0) shows 暂无数据.
 */
import React, { lazy, Suspense, useMemo } from 'react';
import { Col, Empty, Row, Spin, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { EChartsCoreOption } from 'echarts/core';
import { useEnv, useGet, useLang } from './env.js';
import { dictLabel, useDict, type DictEntry } from './DictSelect.js';
import type { Lang } from '../../shared/contract/lang.js';

const EChartsView = lazy(() => import('./EChartsView.js'));

export type ChartType = 'bar' | 'line' | 'pie' | 'stat';

export interface SeriesSpec {
  field: string;
  name?: string;
  nameEn?: string;
}

export interface SeriesNamesSpec {
  /** Dotted path of a list in the answer. */
  source: string;
  /** The item field matching the series key. */
  key: string;
  name: string;
  nameEn?: string;
}

export interface StatItem {
  path: string;
  title: string;
  titleEn?: string;
  suffix?: string;
  suffixEn?: string;
}

export interface ChartProps {
  type?: ChartType;
  endpoint?: string;
  params?: Record<string, string | number | boolean>;
  data?: unknown;
  source?: string;
  category?: string;
  categoryEn?: string;
  categoryDict?: string;
  series?: SeriesSpec[];
  seriesFrom?: string;
  seriesNames?: SeriesNamesSpec;
  seriesDict?: string;
  stack?: boolean;
  horizontal?: boolean;
  height?: number;
  items?: StatItem[];
  refreshMs?: number;
}

/** What a chart shows: category labels and, per series, one value per category. */
export interface ChartData {
  categories: string[];
  series: Array<{ name: string; data: number[] }>;
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);

/** The value at a dotted path (`a.b.0.c`); the value itself for an empty path. */
export function pick(value: unknown, path: string | undefined): unknown {
  if (!path) return value;
  let cur: unknown = value;
  for (const part of path.split('.')) {
    if (cur === null || cur === undefined || typeof cur !== 'object') return undefined;
    cur = (cur as Obj)[part];
  }
  return cur;
}

const num = (v: unknown) => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : 0;
};

const text = (v: unknown) => (v === null || v === undefined || v === '' ? undefined : String(v));

export interface Labels {
  categoryDict?: DictEntry[];
  seriesDict?: DictEntry[];
  /** The text of a category without a name (a record without company ...). */
  unknown: string;
}

/** Maps an answer to categories and series as `spec` says (see the module comment). */
export function chartData(spec: ChartProps, answer: unknown, lang: Lang, labels: Labels): ChartData {
  const src = pick(answer, spec.source);
  const isMap = isObj(src);
  const rows: Obj[] = Array.isArray(src) ? src.filter(isObj) : isMap ? Object.entries(src).map(([key, value]) => ({ key, value })) : [];
  const catField = spec.category ?? 'key';
  const categories = rows.map((r) => {
    const raw = (lang === 'en' && spec.categoryEn ? text(pick(r, spec.categoryEn)) : undefined) ?? text(pick(r, catField));
    if (raw === undefined) return labels.unknown;
    return spec.categoryDict ? dictLabel(labels.categoryDict, raw, lang) : raw;
  });

  let series: ChartData['series'];
  if (spec.seriesFrom) {
    const keys: string[] = [];
    for (const r of rows) {
      const m = pick(r, spec.seriesFrom);
      if (isObj(m)) for (const k of Object.keys(m)) if (!keys.includes(k)) keys.push(k);
    }
    const names = new Map<string, string>();
    if (spec.seriesNames) {
      const list = pick(answer, spec.seriesNames.source);
      for (const item of Array.isArray(list) ? list.filter(isObj) : []) {
        const k = text(item[spec.seriesNames.key]);
        const n = (lang === 'en' && spec.seriesNames.nameEn ? text(item[spec.seriesNames.nameEn]) : undefined) ?? text(item[spec.seriesNames.name]);
        if (k !== undefined && n !== undefined) names.set(k, n);
      }
    }
    series = keys.map((k) => ({
      name: names.get(k) ?? (spec.seriesDict ? dictLabel(labels.seriesDict, k, lang) : k),
      data: rows.map((r) => num(pick(pick(r, spec.seriesFrom), k))),
    }));
  } else {
    const specs = spec.series?.length ? spec.series : [{ field: isMap ? 'value' : 'total' }];
    series = specs.map((s) => ({
      name: (lang === 'en' ? (s.nameEn ?? s.name) : s.name) ?? s.field,
      data: rows.map((r) => num(pick(r, s.field))),
    }));
  }
  return { categories, series };
}

/** True when there is nothing to draw: no category, or every value 0. */
export const isEmptyChart = (d: ChartData) => d.categories.length === 0 || d.series.every((s) => s.data.every((v) => v === 0));

/** The ECharts option of `d` as a chart of `type`. */
export function chartOption(type: Exclude<ChartType, 'stat'>, d: ChartData, opts: { stack?: boolean; horizontal?: boolean; color?: string } = {}): EChartsCoreOption {
  const palette = [opts.color ?? '#257e44', '#5470c6', '#fac858', '#ee6666', '#73c0de', '#fc8452', '#9a60b4', '#ea7ccc', '#8d6e63'];
  if (type === 'pie') {
    const s = d.series[0] ?? { name: '', data: [] };
    return {
      color: palette,
      tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
      legend: { type: 'scroll', bottom: 0 },
      // empty slices only clutter the labels: they are left out (the legend lists what is drawn)
      series: [
        {
          type: 'pie',
          name: s.name,
          radius: ['38%', '64%'],
          center: ['50%', '45%'],
          label: { formatter: '{b}: {c}' },
          data: d.categories.map((name, i) => ({ name, value: s.data[i] ?? 0 })).filter((x) => x.value !== 0),
        },
      ],
    };
  }
  const legend = d.series.length > 1;
  const categoryAxis = { type: 'category', data: d.categories, axisLabel: { interval: 0, hideOverlap: true } };
  const valueAxis = { type: 'value', minInterval: 1 };
  return {
    color: palette,
    tooltip: { trigger: 'axis', axisPointer: { type: type === 'bar' ? 'shadow' : 'line' } },
    legend: legend ? { type: 'scroll', top: 0 } : { show: false },
    grid: { left: 8, right: 16, top: legend ? 36 : 16, bottom: 8, containLabel: true },
    xAxis: opts.horizontal ? valueAxis : categoryAxis,
    yAxis: opts.horizontal ? { ...categoryAxis, inverse: true } : valueAxis,
    series: d.series.map((s) => ({ type, name: s.name, data: s.data, stack: opts.stack ? 'total' : undefined, smooth: type === 'line', barMaxWidth: 36 })),
  };
}

function StatRow({ items, answer, lang }: { items: StatItem[]; answer: unknown; lang: Lang }) {
  const shown = items.map((it) => ({ it, value: pick(answer, it.path) })).filter((x) => x.value !== null && x.value !== undefined);
  const figures = shown.map(({ it, value }) => ({ title: lang === 'en' ? (it.titleEn ?? it.title) : it.title, value: num(value) }));
  return (
    <Row gutter={[16, 16]} className="kc-chart kc-stat" data-testid="kc-chart" data-chart="stat" data-series={JSON.stringify(figures)}>
      {shown.map(({ it }, i) => (
        <Col key={it.path} xs={12} sm={8} md={6} lg={Math.max(4, Math.floor(24 / Math.max(shown.length, 1)))}>
          <Statistic title={figures[i].title} value={figures[i].value} suffix={lang === 'en' ? (it.suffixEn ?? it.suffix) : it.suffix} />
        </Col>
      ))}
    </Row>
  );
}

export function Chart(props: ChartProps) {
  const { type = 'bar', endpoint, params, data: given, stack, horizontal, height = 280, items } = props;
  const { t } = useTranslation();
  const lang = useLang();
  const themeColor = useEnv().themeColor;
  const fetched = useGet<unknown>(given === undefined && endpoint ? endpoint : null, params, { silent: true, refreshInterval: props.refreshMs });
  const { data: categoryDict } = useDict(type === 'stat' ? undefined : props.categoryDict);
  const { data: seriesDict } = useDict(type === 'stat' ? undefined : props.seriesDict);
  const answer = given ?? fetched.data;
  const spec = JSON.stringify(props);
  const cd = useMemo(
    () => (type === 'stat' || answer === undefined ? null : chartData(JSON.parse(spec) as ChartProps, answer, lang, { categoryDict, seriesDict, unknown: t('rt.chart.unknown') })),
    [spec, type, answer, lang, categoryDict, seriesDict, t],
  );
  const option = useMemo(() => (cd && type !== 'stat' ? chartOption(type, cd, { stack, horizontal, color: themeColor }) : null), [cd, type, stack, horizontal, themeColor]);

  if (given === undefined && fetched.error) {
    return (
      <div className="kc-chart kc-chart-error" data-testid="kc-chart" data-chart={type} data-error="true">
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={<Typography.Text type="secondary">{(fetched.error as Error).message || t('rt.chart.failed')}</Typography.Text>} />
      </div>
    );
  }
  if (answer === undefined) return <Spin aria-label={t('rt.loading')} style={{ display: 'block', margin: '24px auto' }} />;
  if (type === 'stat') return <StatRow items={items ?? []} answer={answer} lang={lang} />;
  const empty = !cd || isEmptyChart(cd);
  return (
    <div className="kc-chart" data-testid="kc-chart" data-chart={type} data-series={JSON.stringify(cd)} style={{ height }}>
      {empty ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('rt.chart.empty')} style={{ paddingTop: height / 2 - 50 }} />
      ) : (
        <Suspense fallback={<Spin style={{ display: 'block', margin: '24px auto' }} />}>
          <EChartsView option={option!} style={{ height, width: '100%' }} />
        </Suspense>
      )}
    </div>
  );
}

export default Chart;
