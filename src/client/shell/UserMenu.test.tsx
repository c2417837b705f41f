/**
 * The top bar's user menu (UserMenu.tsx): a hover opens it, Esc closes it wherever the focus is (a hover does not
 * focus the button), and the next hover opens it again (issue 18 defect 9).
 */
import { describe, expect, it } from 'vitest';
import React from 'react';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { UserMenu } from './UserMenu.js';

const items = [{ key: 'info', label: '个人信息' }];

describe('UserMenu', () => {
  it('opens on hover, closes on Esc pressed anywhere, and opens again on the next hover', async () => {
    render(<UserMenu items={items}>刘研</UserMenu>);
    const user = screen.getByRole('button', { name: 'user' });
    fireEvent.mouseEnter(user);
    await waitFor(() => expect(screen.getByRole('menuitem', { name: '个人信息' })).toBeTruthy());
    expect(user.getAttribute('aria-expanded')).toBe('true');
    act(() => {
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    });
    expect(user.getAttribute('aria-expanded')).toBe('false');
    fireEvent.mouseEnter(user);
    expect(user.getAttribute('aria-expanded')).toBe('true');
  });
});
