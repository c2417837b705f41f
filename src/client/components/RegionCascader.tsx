/**
 * RegionCascader: administrative regions (spec 002 §2: a lazy tree by parentCode), loaded one level at a time
 * from `GET /api/blade-system/region/lazy-tree?parentCode=` (root `00`).
 *
 * Value (prop `valueType`):
 * - `'array'` (default): the codes from the province down, e.g. `['11', '1101', '110101']`;
 * - `'last'`: only the last code, e.g. `'110101'`; its ancestors are read from
 *   `GET /api/blade-system/region/detail?code=` (`ancestors`, '00,11,1101') to show the path.
 * `maxLevel` stops the cascade at a level (1 province, 2 city, 3 county, 4 town, 5 village); `changeOnSelect`
 * (antd) lets a user stop at any level. readPretty shows the names joined by ' / '.
 */
import React, { useCallback, useEffect, useMemo, useState } from 'react';
import { Cascader } from 'antd';
import { connect, mapReadPretty } from '@formily/react';
import { PreviewText } from '@formily/antd-v5';
import { useTranslation } from 'react-i18next';
import { useEnv, useGet, type RendererEnv } from './env.js';

export const REGION_API = '/api/blade-system/region';

interface RegionNode {
  code: string;
  name: string;
  regionLevel?: number;
  hasChildren: boolean;
}

export interface RegionOption {
  value: string;
  label: string;
  isLeaf: boolean;
  level: number;
  children?: RegionOption[];
}

export interface RegionCascaderProps {
  value?: string[] | string | null;
  onChange?: (value: string[] | string | undefined) => void;
  valueType?: 'array' | 'last';
  maxLevel?: number;
  rootCode?: string;
  changeOnSelect?: boolean;
  disabled?: boolean;
  placeholder?: string;
  style?: React.CSSProperties;
}

/** One level of the tree under `parentCode`, through the environment's API client. */
async function loadLevel(request: RendererEnv['request'], parentCode: string, level: number, maxLevel?: number): Promise<RegionOption[]> {
  const rows = await request<RegionNode[]>('GET', `${REGION_API}/lazy-tree`, { params: { parentCode }, silent: true });
  return (Array.isArray(rows) ? rows : []).map((r) => {
    const lv = r.regionLevel ?? level;
    return { value: r.code, label: r.name, level: lv, isLeaf: !r.hasChildren || (maxLevel !== undefined && lv >= maxLevel) };
  });
}

/** The codes from the top level down to the value. */
function useChain(value: RegionCascaderProps['value'], valueType: 'array' | 'last', rootCode: string): string[] {
  const last = valueType === 'last' && typeof value === 'string' && value ? value : null;
  const { data } = useGet<{ ancestors?: string }>(last ? `${REGION_API}/detail` : null, { code: last ?? undefined }, { silent: true, revalidateIfStale: false });
  return useMemo(() => {
    if (Array.isArray(value)) return value.map(String);
    if (!last) return [];
    const up = (data?.ancestors ?? '').split(',').filter((c) => c && c !== rootCode);
    return [...up, last];
  }, [value, last, data, rootCode]);
}

/** Options of the cascade, with every level along `chain` loaded. */
function useRegionOptions(chain: string[], rootCode: string, maxLevel?: number) {
  const [options, setOptions] = useState<RegionOption[]>([]);
  const { request } = useEnv();
  useEffect(() => {
    let gone = false;
    (async () => {
      const root = await loadLevel(request, rootCode, 1, maxLevel);
      let level = root;
      for (const code of chain.slice(0, -1)) {
        const node = level.find((o) => o.value === code);
        if (!node || node.isLeaf) break;
        node.children = await loadLevel(request, code, node.level + 1, maxLevel);
        level = node.children;
      }
      if (!gone) setOptions(root);
    })().catch(() => undefined);
    return () => {
      gone = true;
    };
    // the chain's text is the dependency: a new array with the same codes must not reload
  }, [chain.join(','), rootCode, maxLevel]);
  const loadData = useCallback(
    (selected: RegionOption[]) => {
      const target = selected[selected.length - 1];
      if (!target || target.children) return;
      void loadLevel(request, target.value, target.level + 1, maxLevel).then((children) => {
        target.children = children;
        setOptions((o) => [...o]);
      });
    },
    [request, maxLevel],
  );
  return { options, loadData };
}

function labelsOf(options: RegionOption[], chain: string[]): string[] {
  const out: string[] = [];
  let level: RegionOption[] | undefined = options;
  for (const code of chain) {
    const node: RegionOption | undefined = level?.find((o) => o.value === code);
    out.push(node ? node.label : code);
    level = node?.children;
  }
  return out;
}

function RegionInput({ value, onChange, valueType = 'array', maxLevel, rootCode = '00', ...rest }: RegionCascaderProps) {
  const { t } = useTranslation();
  const chain = useChain(value, valueType, rootCode);
  const { options, loadData } = useRegionOptions(chain, rootCode, maxLevel);
  return (
    <Cascader
      placeholder={t('cmp.region.placeholder')}
      {...rest}
      options={options}
      loadData={loadData as never}
      value={chain}
      onChange={(codes) => {
        const list = ((codes ?? []) as Array<string | number>).map(String);
        onChange?.(valueType === 'last' ? list[list.length - 1] : list.length ? list : undefined);
      }}
    />
  );
}

function RegionText({ value, valueType = 'array', maxLevel, rootCode = '00' }: RegionCascaderProps) {
  const chain = useChain(value, valueType, rootCode);
  const { options } = useRegionOptions(chain, rootCode, maxLevel);
  const placeholder = PreviewText.usePlaceholder();
  return <span>{chain.length ? labelsOf(options, chain).join(' / ') : placeholder}</span>;
}

export const RegionCascader = connect(RegionInput, mapReadPretty(RegionText));
