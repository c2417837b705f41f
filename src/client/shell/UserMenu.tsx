/**
 * The user dropdown of the top bar (spec 000 §2.5: dashboard, user info, back to role selection, log out).
 *
 * Its open state is held here, not left to the trigger (issue 18 defect 9: after Esc closed it, the menu did
 * not open again on hover): hover or click opens it, Esc, a choice or leaving closes it, and every later hover
 * or click opens it again. The button also opens it from the keyboard (Enter, Space, ↓).
 */
import { useLayoutEffect, useState, type ReactNode } from 'react';
import { Button, Dropdown, type MenuProps } from 'antd';

export function UserMenu({ items, children }: { items: MenuProps['items']; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  // Esc closes it wherever the focus is (a hover does not focus the button); attached before the menu paints,
  // so an Esc right after it shows is not lost (the dropdown's own listener came later: e2e shell-defects 9 flaked)
  useLayoutEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);
  return (
    <Dropdown
      open={open}
      onOpenChange={(next) => setOpen(next)}
      trigger={['hover']}
      menu={{ items, onClick: () => setOpen(false) }}
    >
      <Button
        type="text"
        aria-label="user"
        aria-haspopup="menu"
        aria-expanded={open}
        onMouseEnter={() => setOpen(true)}
        // a click opens (never toggles shut a menu the hover just opened)
        onClick={() => setOpen(true)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setOpen(false);
          else if (e.key === 'Enter' || e.key === ' ' || e.key === 'ArrowDown') {
            e.preventDefault();
            setOpen(true);
          }
        }}
      >
        {children}
      </Button>
    </Dropdown>
  );
}
