/**
 * Column widths of the generic list (issue 18 defect 5: on 1280–1440 px screens the pinned 操作 column covered
 * 审核状态 and the dates, and an empty list could not scroll to the hidden headers).
 *
 * antd lays a table with ellipsis columns out with `table-layout: fixed`; a column without a width then gets
 * whatever is left, which on a narrow screen is nothing, and the pinned column lies over it. So every column
 * gets a width — the schema's, or 150 px — never narrower than its header (the title's estimated width plus
 * room for the sort icon), and the table's horizontal scroll is the sum of the widths plus the selection
 * column: wider than the screen, the list scrolls sideways, headers included, rows or no rows.
 */
import type { TableColumnsType } from 'antd';
import { textWidth } from './label-width.js';

/** Width of a column the schema gives none, px. */
export const DEFAULT_COLUMN_WIDTH = 150;
/** The row-selection column, px. */
export const SELECTION_WIDTH = 50;
/** Cell padding and border around a header title, px; a sortable header adds the sorter's. */
const HEADER_PADDING = 34;
const SORTER_WIDTH = 22;

type Columns<T> = TableColumnsType<T>;

/** `cols` with a numeric width each: the schema's (or the default), at least what the header title needs. */
export function withColumnWidths<T>(cols: Columns<T>): Columns<T> {
  return cols.map((c) => {
    const title = typeof c.title === 'string' ? c.title : '';
    const header = textWidth(title) + HEADER_PADDING + ('sorter' in c && c.sorter ? SORTER_WIDTH : 0);
    const given = typeof c.width === 'number' ? c.width : Number(c.width) || DEFAULT_COLUMN_WIDTH;
    return { ...c, width: Math.max(given, header) };
  });
}

/** The table's scroll width: the columns' widths and the selection column. */
export function tableWidth<T>(cols: Columns<T>): number {
  return cols.reduce((w, c) => w + (Number(c.width) || DEFAULT_COLUMN_WIDTH), SELECTION_WIDTH);
}
