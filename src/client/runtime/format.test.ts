/** Relative time and file size texts of spec 000 §9, in zh and en. */
import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { fileSize, relativeTime } from './format.js';

const now = dayjs('2026-03-10 12:00:00').valueOf();
const ago = (ms: number) => now - ms;

describe('relativeTime', () => {
  it('just now, seconds, minutes, hours, days under 4, then the date — in zh and en', () => {
    const cases: Array<[number, string, string]> = [
      [0, '刚刚', 'just now'],
      [9_999, '刚刚', 'just now'],
      [10_000, '10秒前', '10 seconds ago'],
      [59_999, '59秒前', '59 seconds ago'],
      [60_000, '1分钟前', '1 minute ago'],
      [59 * 60_000, '59分钟前', '59 minutes ago'],
      [3_600_000, '1小时前', '1 hour ago'],
      [23 * 3_600_000 + 59 * 60_000, '23小时前', '23 hours ago'],
      [86_400_000, '1天前', '1 day ago'],
      [4 * 86_400_000 - 1, '3天前', '3 days ago'],
      [4 * 86_400_000, '2026-03-06 12:00', '2026-03-06 12:00'],
    ];
    for (const [ms, zh, en] of cases) {
      expect(relativeTime(ago(ms), 'zh', now)).toBe(zh);
      expect(relativeTime(ago(ms), 'en', now)).toBe(en);
    }
  });

  it('reads the server date text and Date values; the future and nonsense', () => {
    expect(relativeTime('2026-03-10 11:30:00', 'zh', now)).toBe('30分钟前');
    expect(relativeTime(new Date(ago(2 * 3_600_000)), 'en', now)).toBe('2 hours ago');
    expect(relativeTime('2026-03-11 08:00:00', 'zh', now)).toBe('2026-03-11 08:00');
    for (const bad of [null, undefined, '', 'not a date', Number.NaN, {}]) expect(relativeTime(bad, 'zh', now)).toBe('');
  });
});

describe('fileSize', () => {
  it('steps of 1024 with at most two decimals', () => {
    expect(fileSize(0)).toBe('0 B');
    expect(fileSize(1023)).toBe('1023 B');
    expect(fileSize(1024)).toBe('1 KB');
    expect(fileSize(1536)).toBe('1.5 KB');
    expect(fileSize(1024 * 1024 - 1)).toBe('1024 KB');
    expect(fileSize(1024 * 1024)).toBe('1 MB');
    expect(fileSize(5.25 * 1024 ** 3)).toBe('5.25 GB');
    expect(fileSize(3 * 1024 ** 5)).toBe('3072 TB');
    expect(fileSize('2048')).toBe('2 KB');
    for (const bad of [-1, null, undefined, '', 'abc', Number.NaN]) expect(fileSize(bad)).toBe('');
  });
});
