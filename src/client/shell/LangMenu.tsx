/**
 * The language switch's menu (LangSwitch.tsx): antd's Dropdown with 中文 / English, the current one disabled.
 * A chunk of its own, loaded when the switch is first pointed at, focused or clicked: antd's Dropdown brings
 * its Menu (rc-menu, rc-overflow, the layout's Sider context) — about 15 KB gzip the login route does not
 * need to show a button (DESIGN §10 login-route budget).
 */
import { Dropdown } from 'antd';
import { useEffect, type ReactNode } from 'react';

/**
 * The menu around `children` (the switch's button); `open` / `onOpenChange` as antd's Dropdown; `onReady` once
 * mounted (from then on the Dropdown follows the pointer itself).
 */
export function LangMenu({
  lang,
  labels,
  open,
  onOpenChange,
  onChoose,
  onReady,
  children,
}: {
  lang: 'zh' | 'en';
  labels: { zh: string; en: string };
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onChoose: (lang: 'zh' | 'en') => void;
  onReady?: () => void;
  children: ReactNode;
}) {
  useEffect(() => {
    onReady?.();
  }, [onReady]);
  return (
    <Dropdown
      open={open}
      onOpenChange={onOpenChange}
      menu={{
        selectedKeys: [lang],
        items: [
          { key: 'zh', label: labels.zh, disabled: lang === 'zh' },
          { key: 'en', label: labels.en, disabled: lang === 'en' },
        ],
        onClick: ({ key }) => {
          onOpenChange(false);
          onChoose(key as 'zh' | 'en');
        },
      }}
    >
      {children}
    </Dropdown>
  );
}
