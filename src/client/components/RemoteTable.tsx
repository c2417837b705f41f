/**
 * RemoteTable: a registered component (DESIGN §1.2, §3) showing a paged endpoint as a read-only table — rows
 * whose fields are not known before they come, such as a crawl task's collected rows (spec 002 §7 `spider/task`
 * viewData) or its log (viewLogData). A schema places it (`x-component: RemoteTable`, often in a list
 * operation's view dialog, runtime/OperationDialog.tsx, whose `$row.<field>` props are resolved there).
 *
 * Props:
 * - `endpoint` (GET) and `params`; the component adds `current` and `size` (the contract's paging; the answer is
 *   `{records, total}`);
 * - `columns`: `[{field, title, titleEn, width}]`; absent: one column per field the shown records carry (in
 *   the order first seen), titled by the field's name, without `id`;
 * - `pageSize` (default 10), `refreshMs` (poll while shown; default none), `height` of the scrolled body.
 *
 * Values: text as is (long text cut with an ellipsis, whole in the tooltip), numbers and booleans as text,
 * objects as JSON, null / absent as empty. The root carries `data-testid="kc-remote-table"`.
 */
import React, { useMemo, useState } from 'react';
import { Table } from 'antd';
import { useGet, useLang, type Params } from './env.js';

export interface RemoteColumn {
  field: string;
  title?: string;
  titleEn?: string;
  width?: number;
}

export interface RemoteTableProps {
  endpoint?: string;
  params?: Params;
  columns?: RemoteColumn[];
  pageSize?: number;
  refreshMs?: number;
  height?: number;
}

type Row = Record<string, unknown>;

/** A cell's text (see the module comment). */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** The columns shown: the given ones, else the records' fields in the order first seen (without `id`). */
export function columnsOf(records: Row[], given?: RemoteColumn[]): RemoteColumn[] {
  if (given?.length) return given;
  const seen: string[] = [];
  for (const r of records) for (const k of Object.keys(r)) if (k !== 'id' && !seen.includes(k)) seen.push(k);
  return seen.map((field) => ({ field }));
}

export function RemoteTable({ endpoint, params, columns, pageSize = 10, refreshMs, height }: RemoteTableProps) {
  const lang = useLang();
  const [page, setPage] = useState({ current: 1, size: pageSize });
  const { data, isLoading } = useGet<{ records?: Row[]; total?: number }>(endpoint ?? null, { ...params, current: page.current, size: page.size }, { refreshInterval: refreshMs });
  const records = useMemo(() => (Array.isArray(data?.records) ? data!.records : []), [data]);
  const cols = useMemo(
    () =>
      columnsOf(records, columns).map((c) => ({
        key: c.field,
        dataIndex: c.field,
        title: (lang === 'en' ? c.titleEn : c.title) ?? c.title ?? c.field,
        width: c.width,
        ellipsis: { showTitle: true },
        render: (v: unknown) => cellText(v),
      })),
    [records, columns, lang],
  );
  return (
    <div data-testid="kc-remote-table">
      <Table<Row>
        size="small"
        rowKey={(r) => String(r.id ?? JSON.stringify(r))}
        loading={isLoading}
        columns={cols}
        dataSource={records}
        scroll={{ x: 'max-content', y: height }}
        pagination={{
          current: page.current,
          pageSize: page.size,
          total: Number(data?.total ?? 0),
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 50, 100],
          onChange: (current, size) => setPage({ current: size === page.size ? current : 1, size }),
        }}
      />
    </div>
  );
}

export default RemoteTable;
