/**
 * The shared password rules (spec 000 §5): 8–16 characters; two character classes on the personal info page,
 * all four in onboarding; the confirmation's order of checks.
 */
import { describe, expect, it } from 'vitest';
import { newPasswordFault, passwordClasses, passwordFault, PASSWORD_MESSAGES } from './password.js';

describe('password rules', () => {
  it('counts digit, lower, upper and symbol classes', () => {
    expect(passwordClasses('abcdefgh')).toBe(1);
    expect(passwordClasses('abcd1234')).toBe(2);
    expect(passwordClasses('Abcd1234')).toBe(3);
    expect(passwordClasses('Abcd123#')).toBe(4);
  });

  it('two classes for the page, all four for onboarding, 8 to 16 characters', () => {
    expect(passwordFault('', 'two')).toBe(PASSWORD_MESSAGES.newRequired);
    expect(passwordFault(undefined, 'all')).toBe(PASSWORD_MESSAGES.newRequired);
    expect(passwordFault('abcdefgh', 'two')).toBe(PASSWORD_MESSAGES.weakTwo);
    expect(passwordFault('abcdef1', 'two')).toBe(PASSWORD_MESSAGES.weakTwo);
    expect(passwordFault('abcdefgh12345678', 'two')).toBeNull();
    expect(passwordFault('abcdefgh123456789', 'two')).toBe(PASSWORD_MESSAGES.weakTwo);
    expect(passwordFault('abcdefg1', 'all')).toBe(PASSWORD_MESSAGES.weakAll);
    expect(passwordFault('Abcdefg1', 'all')).toBe(PASSWORD_MESSAGES.weakAll);
    expect(passwordFault('Abcdef#1', 'all')).toBeNull();
    expect(passwordFault('Abc def#1', 'all')).toBe(PASSWORD_MESSAGES.space);
    expect(PASSWORD_MESSAGES.weakAll.en).toBe('password must be 8-16 characters and contain upper and lower case letters, digits and special symbols');
  });

  it('checks the new password, then the confirmation, then that they match', () => {
    expect(newPasswordFault('abc', 'abc', 'two')).toEqual({ field: 'newPassword', reason: PASSWORD_MESSAGES.weakTwo });
    expect(newPasswordFault('abcdefg1', '', 'two')).toEqual({ field: 'newPassword1', reason: PASSWORD_MESSAGES.confirmRequired });
    expect(newPasswordFault('abcdefg1', 'abc', 'two')).toEqual({ field: 'newPassword1', reason: PASSWORD_MESSAGES.weakTwo });
    expect(newPasswordFault('abcdefg1', 'abcdefg2', 'two')).toEqual({ field: 'newPassword1', reason: PASSWORD_MESSAGES.mismatch });
    expect(newPasswordFault('abcdefg1', 'abcdefg1', 'two')).toBeNull();
  });
});
