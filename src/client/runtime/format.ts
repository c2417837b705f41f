/**
 * Relative time and file size texts (spec 000 §9: "Relative-time text: just now, seconds, minutes, hours,
 * days under 4, then dates. File size formatting uses 1024 steps."), in zh and en.
 *
 * - `relativeTime(value, lang, now)`: under 10 s 刚刚 / just now; under a minute N 秒前 / N seconds ago; under an
 *   hour N 分钟前 / N minutes ago; under a day N 小时前 / N hours ago; under 4 days N 天前 / N days ago; from 4
 *   days on (and for times in the future) the date `yyyy-MM-dd HH:mm`. Whole units, rounded down. `value` is a
 *   Date, epoch milliseconds or a server date text (`yyyy-MM-dd HH:mm:ss`, local time); unreadable → ''.
 * - `fileSize(bytes, lang)`: B, KB, MB, GB, TB in steps of 1024, at most two decimals without trailing zeros
 *   ("1.5 KB", "2 MB"); negative or not a number → ''.
 */
import dayjs from 'dayjs';
import type { Lang } from '../../shared/contract/lang.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** From this age on a time reads as its date. */
export const RELATIVE_DAYS = 4;

const UNITS = {
  zh: { now: '刚刚', second: (n: number) => `${n}秒前`, minute: (n: number) => `${n}分钟前`, hour: (n: number) => `${n}小时前`, day: (n: number) => `${n}天前` },
  en: {
    now: 'just now',
    second: (n: number) => `${n} second${n === 1 ? '' : 's'} ago`,
    minute: (n: number) => `${n} minute${n === 1 ? '' : 's'} ago`,
    hour: (n: number) => `${n} hour${n === 1 ? '' : 's'} ago`,
    day: (n: number) => `${n} day${n === 1 ? '' : 's'} ago`,
  },
} as const;

function toTime(value: unknown): number | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.getTime();
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim()) {
    const d = dayjs(value.trim().replace(' ', 'T'));
    return d.isValid() ? d.valueOf() : null;
  }
  return null;
}

/** The time `value` relative to `now` (epoch ms) in `lang`. */
export function relativeTime(value: unknown, lang: Lang, now: number = Date.now()): string {
  const t = toTime(value);
  if (t === null) return '';
  const age = now - t;
  const u = UNITS[lang === 'en' ? 'en' : 'zh'];
  if (age < 0 || age >= RELATIVE_DAYS * DAY) return dayjs(t).format('YYYY-MM-DD HH:mm');
  if (age < 10 * SECOND) return u.now;
  if (age < MINUTE) return u.second(Math.floor(age / SECOND));
  if (age < HOUR) return u.minute(Math.floor(age / MINUTE));
  if (age < DAY) return u.hour(Math.floor(age / HOUR));
  return u.day(Math.floor(age / DAY));
}

const SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** `bytes` as a size text in steps of 1024 ("1.5 KB"); the units are the same in zh and en. */
export function fileSize(bytes: unknown): string {
  const n = typeof bytes === 'string' && bytes.trim() !== '' ? Number(bytes) : bytes;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) return '';
  let v = n;
  let i = 0;
  while (v >= 1024 && i < SIZE_UNITS.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : Number(v.toFixed(2))} ${SIZE_UNITS[i]}`;
}
