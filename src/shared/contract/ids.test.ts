/**
 * The one id rule (DESIGN §11, §13): decimal digits within PostgreSQL's bigint range, checked against BigInt
 * arithmetic at the edges and on random texts, and the pattern behaving the same inside JSON Schema (ajv).
 */
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { BIGINT_MAX, ID_PATTERN, isId, rangePattern } from './ids.js';

const MAX = 9223372036854775807n;
const byBigInt = (s: string) => /^\d{1,19}$/.test(s) && BigInt(s) <= MAX;

describe('isId', () => {
  it('accepts digits up to the bigint maximum 9223372036854775807', () => {
    for (const s of ['0', '1', '42', '1234567890123456789', '9223372036854775807', '9223372036854775806', '0000000000000000001', '8999999999999999999', '9223372036854775799']) {
      expect(isId(s), s).toBe(true);
    }
  });

  it('refuses texts beyond bigint, empty, signed, fractional, padded or non-string values', () => {
    for (const s of ['9223372036854775808', '9223372036854775810', '9223372036854775900', '9300000000000000000', '9999999999999999999', '10000000000000000000', '12345678901234567890']) {
      expect(isId(s), s).toBe(false);
    }
    for (const v of ['', '-1', '+1', '1.0', ' 1', '1 ', '12a', '1e3', '１２', '1\n', 1, 1n, null, undefined, ['1'], {}]) {
      expect(isId(v), JSON.stringify(String(v))).toBe(false);
    }
  });

  it('agrees with BigInt comparison on every 19-digit text next to the maximum and on random texts', () => {
    // each position of the maximum, one below, equal and one above
    for (let i = 0; i < BIGINT_MAX.length; i++) {
      for (const delta of [-1, 0, 1]) {
        const d = Number(BIGINT_MAX[i]) + delta;
        if (d < 0 || d > 9) continue;
        for (const tail of ['0', '9']) {
          const s = BIGINT_MAX.slice(0, i) + String(d) + tail.repeat(BIGINT_MAX.length - i - 1);
          expect(isId(s), s).toBe(byBigInt(s));
        }
      }
    }
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let n = 0; n < 5000; n++) {
      const len = 1 + Math.floor(rnd() * 20);
      const s = Array.from({ length: len }, (_, i) => (i === 0 && len === 19 && rnd() < 0.7 ? '9' : String(Math.floor(rnd() * 10)))).join('');
      expect(isId(s), s).toBe(byBigInt(s));
    }
  });

  it('ID_PATTERN does the same in a JSON Schema', () => {
    const v = new Ajv().compile({ type: 'string', pattern: ID_PATTERN });
    expect(v('9223372036854775807')).toBe(true);
    expect(v('9223372036854775808')).toBe(false);
    expect(v('9999999999999999999')).toBe(false);
    expect(v('12')).toBe(true);
  });

  it('rangePattern spells any maximum', () => {
    const re = new RegExp(rangePattern('2147483647'));
    for (const s of ['2147483647', '2147483646', '999999999', '0']) expect(re.test(s), s).toBe(true);
    for (const s of ['2147483648', '2200000000', '9999999999', '-1']) expect(re.test(s), s).toBe(false);
  });
});
