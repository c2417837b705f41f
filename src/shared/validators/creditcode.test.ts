/** Unified social credit codes (GB 32100-2015): the check character of real-shaped codes, and the refusals. */
import { describe, expect, it } from 'vitest';
import { CREDIT_CODE_MESSAGES as M, creditCodeCheckChar, creditCodeFault } from './creditcode.js';
import { formatFault } from './index.js';

describe('unified social credit codes', () => {
  it('accepts codes whose check character fits (GB 32100-2015 Appendix A example and registered companies)', () => {
    for (const c of ['91350100M000100Y43', '91110000802100433B', '91440300708461136T', '53100000500021676K']) {
      expect(creditCodeFault(c), c).toBeNull();
    }
    expect(creditCodeFault('91350100m000100y43')).toBeNull(); // typed in lower case
  });

  it('computes the check character from the first 17 characters', () => {
    expect(creditCodeCheckChar('91350100M000100Y4')).toBe('3');
    expect(creditCodeCheckChar('91110000802100433')).toBe('B');
    expect(creditCodeCheckChar('91440300708461136')).toBe('T');
    // a sum ≡ 0 (mod 31) gives 31 − 0 = 31, read as '0'
    expect(creditCodeCheckChar('00000000000000000')).toBe('0');
  });

  it('says why a code is refused', () => {
    expect(creditCodeFault('')).toEqual(M.empty);
    expect(creditCodeFault(undefined)).toEqual(M.empty);
    expect(creditCodeFault('91350100M000100Y4')).toEqual(M.length);
    expect(creditCodeFault('91350100M000100Y433')).toEqual(M.length);
    expect(creditCodeFault('91350100M000100I43')).toEqual(M.format); // I is not in the character set
    expect(creditCodeFault('91350100O000100Y43')).toEqual(M.format); // nor O
    expect(creditCodeFault('9135A100M000100Y43')).toEqual(M.format); // the division code is digits
    expect(creditCodeFault('91350100M000100Y4-')).toEqual(M.format);
    expect(creditCodeFault('91350100M000100Y44')).toEqual(M.check);
    expect(creditCodeFault('91110000802100433C')).toEqual(M.check);
    expect(creditCodeFault('91350100M000100Y34')).toEqual(M.check); // two characters swapped
  });

  it('the creditCode format passes an empty value and names the fault otherwise', () => {
    expect(formatFault('creditCode', '')).toBeNull();
    expect(formatFault('creditCode', '91350100M000100Y44')).toEqual(M.check);
    expect(formatFault('creditCode', '91350100M000100Y43')).toBeNull();
  });
});
