/**
 * The two ways in of the login page (LoginPage.tsx, spec 000 §2.6: 账号密码登录 / 手机号登录) as a tab strip.
 *
 * Written here instead of antd's Tabs for the login route's size (DESIGN §10: the login route's JavaScript
 * under 250 KB gzip): antd's Tabs brings rc-tabs and, for its overflow menu, rc-dropdown and rc-menu — about
 * 20 KB gzip for two labels that always fit. It keeps what a user and assistive technology meet in antd's:
 * `role="tablist"` / `tab` / `tabpanel` with `aria-selected` and `aria-controls`, the arrow keys moving between
 * the tabs, and a pane is rendered when first shown and then kept (hidden) so what was typed in it survives a
 * switch. Styles: `.kc-login-tabs` in shell.css (the theme's primary colour, `--kc-primary`).
 */
import { useId, useState, type KeyboardEvent, type ReactNode } from 'react';

/** One tab: its key, its label and its pane. */
export interface LoginTab {
  key: string;
  label: ReactNode;
  children: ReactNode;
}

/** The tab strip over `items`; `defaultActiveKey` (default: the first item) is shown first. */
export function LoginTabs({ items, defaultActiveKey }: { items: LoginTab[]; defaultActiveKey?: string }) {
  const id = useId();
  const [active, setActive] = useState(defaultActiveKey ?? items[0]?.key);
  const [shown, setShown] = useState<ReadonlySet<string>>(() => new Set([active]));
  const select = (key: string) => {
    setActive(key);
    setShown((s) => (s.has(key) ? s : new Set([...s, key])));
  };
  // ← / → move to the neighbouring tab, as in antd's Tabs (WAI-ARIA tabs pattern)
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    const at = items.findIndex((i) => i.key === active);
    const next = items[(at + (e.key === 'ArrowRight' ? 1 : items.length - 1)) % items.length];
    select(next.key);
    document.getElementById(`${id}-tab-${next.key}`)?.focus();
    e.preventDefault();
  };
  return (
    <div className="kc-login-tabs">
      <div role="tablist" className="kc-login-tabs-nav" onKeyDown={onKeyDown}>
        {items.map((item) => (
          <button
            key={item.key}
            type="button"
            role="tab"
            id={`${id}-tab-${item.key}`}
            aria-selected={item.key === active}
            aria-controls={`${id}-panel-${item.key}`}
            tabIndex={item.key === active ? 0 : -1}
            className={item.key === active ? 'kc-login-tab kc-login-tab-active' : 'kc-login-tab'}
            onClick={() => select(item.key)}
          >
            {item.label}
          </button>
        ))}
      </div>
      {items
        .filter((item) => shown.has(item.key))
        .map((item) => (
          <div key={item.key} role="tabpanel" id={`${id}-panel-${item.key}`} aria-labelledby={`${id}-tab-${item.key}`} hidden={item.key !== active}>
            {item.children}
          </div>
        ))}
    </div>
  );
}
