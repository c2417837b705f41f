import { describe, expect, it } from 'vitest';
import { ruleFaults } from './rules.js';
import type { RecordRule } from './types.js';

const budget: RecordRule = {
  sum: ['a', 'b', 'rows.amount'],
  equals: 'total',
  message: '合计（{sum}万元）与总经费（{total}万元）不一致',
  messageEn: 'Subjects add up to {sum}, not {total}',
};

describe('ruleFaults: sum', () => {
  it('holds when the summands (fields and a column of rows) add up to the total, to the cent', () => {
    expect(ruleFaults([budget], { a: 0.1, b: '0.2', rows: [{ amount: 99.7 }], total: 100 })).toEqual([]);
    expect(ruleFaults([budget], { a: 10, b: null, rows: [{ amount: 5 }, { amount: '' }, {}], total: 15 })).toEqual([]);
  });

  it('reports on the total with both figures in the message, zh and en', () => {
    expect(ruleFaults([budget], { a: 60, b: 50, total: 100 })).toEqual([
      { field: 'total', message: '合计（110.00万元）与总经费（100.00万元）不一致', messageEn: 'Subjects add up to 110.00, not 100.00' },
    ]);
    expect(ruleFaults([budget], { a: 100.004, total: 100.01 })).toHaveLength(1);
  });

  it('honours field and scale', () => {
    const r: RecordRule = { sum: ['x', 'y'], equals: 't', field: 'x', scale: 0, message: '{sum}≠{total}', messageEn: '{sum}!={total}' };
    expect(ruleFaults([r], { x: 1.2, y: 1.2, t: 2 })).toEqual([]);
    expect(ruleFaults([r], { x: 1, y: 2, t: 4 })).toEqual([{ field: 'x', message: '3≠4', messageEn: '3!=4' }]);
  });

  it('is silent without a total, and leaves text that is not a number to the type check', () => {
    expect(ruleFaults([budget], { a: 5 })).toEqual([]);
    expect(ruleFaults([budget], { a: 5, total: '' })).toEqual([]);
    expect(ruleFaults([budget], { a: 'abc', total: 5 })).toEqual([]);
    expect(ruleFaults([budget], { a: 1, total: 'abc' })).toEqual([]);
  });
});

describe('ruleFaults: before', () => {
  const order: RecordRule = { before: ['start', 'end'], message: '结束日期不能早于开始日期', messageEn: 'End before start' };
  it('orders dates as texts and numbers as numbers, only when both are present', () => {
    expect(ruleFaults([order], { start: '2026-05-01', end: '2026-04-30' })).toEqual([{ field: 'end', message: '结束日期不能早于开始日期', messageEn: 'End before start' }]);
    expect(ruleFaults([order], { start: '2026-05-01', end: '2026-05-01' })).toEqual([]);
    expect(ruleFaults([order], { start: 9, end: 10 })).toEqual([]);
    expect(ruleFaults([order], { start: '2026-05-01' })).toEqual([]);
  });
});
