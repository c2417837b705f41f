// @vitest-environment jsdom
/**
 * The page asked for before the login goes to the account it was asked by (return-to.ts): a deep link opened
 * before anyone signed in is taken by whoever signs in; after a logout or an expired session, only the same
 * account returns to its page — the next colleague at this browser lands on the home page (issue 9's journey:
 * the administrator logs out from 角色管理, the new user must not be sent there).
 */
import { describe, expect, it } from 'vitest';
import { rememberReturn, takeReturn } from './return-to.js';
import { signInAs } from '../runtime/fixtures.js';
import { clearSession } from '../runtime/session.js';

describe('the remembered page', () => {
  it('a deep link opened before anyone signed in is taken by whoever signs in', () => {
    clearSession();
    rememberReturn('/basic/patent?name=x');
    signInAs('kygl', '2001');
    expect(takeReturn('/wel/index')).toBe('/basic/patent?name=x');
  });

  it('after a logout, another account lands on the home page; the same account returns to its page', () => {
    signInAs('administrator', '2002');
    clearSession(); // 退出登录: the guard then remembers the page it was on
    rememberReturn('/system/role');
    signInAs('cangchu', '2003');
    expect(takeReturn('/wel/index')).toBe('/wel/index');

    signInAs('administrator', '2002');
    clearSession(); // an expired session (401)
    rememberReturn('/system/role');
    signInAs('administrator', '2002');
    expect(takeReturn('/wel/index')).toBe('/system/role');
    expect(takeReturn('/wel/index')).toBe('/wel/index'); // once
  });
});
