/**
 * ID numbers (GB 11643-1999 《公民身份号码》, spec 000 §5): the standard's own examples, the check character
 * of §7.2 (ISO 7064 MOD 11-2), the 15-character numbers of GB 11643-1989, and each message in its order.
 */
import { describe, expect, it } from 'vitest';
import { IDCARD_MESSAGES as M, idCardCheckChar, idCardFault, idCardInfo } from './idcard.js';
import { formatFault } from './index.js';

const today = new Date(2025, 5, 1);

describe('GB 11643-1999 check character (§7.2, ISO 7064 MOD 11-2)', () => {
  it('gives the check characters of the standard\'s examples', () => {
    expect(idCardCheckChar('11010519491231002')).toBe('X'); // GB 11643-1999 example: 11010519491231002X
    expect(idCardCheckChar('44052418800101001')).toBe('4'); // GB 11643-1999 example: 440524188001010014
  });

  it('accepts the examples, a lowercase x too', () => {
    expect(idCardFault('11010519491231002X', { today })).toBeNull();
    expect(idCardFault('11010519491231002x', { today })).toBeNull();
    expect(idCardFault('440524188001010014', { today })).toBeNull();
  });

  it('refuses every other check character with 证件号码校验位错误', () => {
    for (const c of '0123456789X') {
      if (c === 'X') continue;
      expect(idCardFault(`11010519491231002${c}`, { today })).toEqual(M.check);
    }
  });
});

describe('messages in the original\'s order (spec 000 §5)', () => {
  it('empty, length, format, province, birth date', () => {
    expect(idCardFault('', { today })).toEqual(M.empty);
    expect(idCardFault(null)).toEqual(M.empty);
    expect(idCardFault('1101051949123100', { today })).toEqual(M.length); // 16
    expect(idCardFault('11010519491231002XX', { today })).toEqual(M.length); // 19
    expect(idCardFault('1101051949123100XX', { today })).toEqual(M.format);
    expect(idCardFault('11010519491231002Y', { today })).toEqual(M.format);
    expect(idCardFault('99010519491231002X', { today })).toEqual(M.province);
    expect(idCardFault('10010519491231002X', { today })).toEqual(M.province);
    expect(idCardFault('110105194902300026', { today })).toEqual(M.birthday); // 30 February
    expect(idCardFault('110105203001010011', { today })).toEqual(M.birthday); // in the future
    expect(idCardFault('110105179912310011', { today })).toEqual(M.birthday); // before 1800
  });

  it('15 characters (GB 11643-1989) are accepted unless refused by allow15', () => {
    expect(idCardFault('110105491231002', { today })).toBeNull();
    expect(idCardFault('110105491231002', { today, allow15: false })).toEqual(M.length);
    expect(idCardFault('11010549123100X', { today })).toEqual(M.format);
    expect(idCardFault('110105490231002', { today })).toEqual(M.birthday);
  });
});

describe('derived birth date and sex (spec 000 §5)', () => {
  it('reads them from 18 and 15 characters (odd sequence = male 1, even = female 2)', () => {
    expect(idCardInfo('11010519491231002X', { today })).toEqual({ birthday: '1949-12-31', sex: 2 });
    expect(idCardInfo('440524188001010014', { today })).toEqual({ birthday: '1880-01-01', sex: 1 });
    expect(idCardInfo('110105491231001', { today })).toEqual({ birthday: '1949-12-31', sex: 1 });
    expect(idCardInfo('11010519491231002', { today })).toBeNull();
  });
});

describe('the idcard format', () => {
  it('passes an empty value (required is another rule) and answers the reason otherwise', () => {
    expect(formatFault('idcard', '')).toBeNull();
    expect(formatFault('idcard', '11010519491231002X')).toBeNull();
    expect(formatFault('idcard', '110105194912310021')).toEqual(M.check);
    expect(formatFault('unknown', 'x')).toBeNull();
  });
});
