/** Mainland mobile numbers (spec 000 §5 'Phone'): 11 digits, 1 and a carrier prefix, the original's messages. */
import { describe, expect, it } from 'vitest';
import { PHONE_MESSAGES as M, phoneFault } from './phone.js';
import { formatFault } from './index.js';

describe('phone numbers', () => {
  it('accepts numbers of every carrier segment', () => {
    for (const p of ['13800138000', '14512345678', '15012345678', '16212345678', '17012345678', '18912345678', '19212345678', '19912345678']) {
      expect(phoneFault(p), p).toBeNull();
    }
  });

  it('says why a number is refused, in the original\'s order', () => {
    expect(phoneFault('')).toEqual(M.empty);
    expect(phoneFault(undefined)).toEqual(M.empty);
    expect(phoneFault('1380013800')).toEqual(M.length);
    expect(phoneFault('138001380001')).toEqual(M.length);
    expect(phoneFault('23800138000')).toEqual(M.format); // not starting with 1
    expect(phoneFault('12012345678')).toEqual(M.format); // no 12x segment
    expect(phoneFault('14012345678')).toEqual(M.format); // IoT segment
    expect(phoneFault('1380013800a')).toEqual(M.format);
    expect(phoneFault('010-8888888')).toEqual(M.format); // a landline
  });

  it('the phone format passes an empty value', () => {
    expect(formatFault('phone', '')).toBeNull();
    expect(formatFault('phone', '1380013800')).toEqual(M.length);
  });
});
