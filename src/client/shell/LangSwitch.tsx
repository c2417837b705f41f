/**
 * Language switch (spec 000 §2.5): 中文 / English; the current option is disabled. Switching changes every
 * visible text at once (i18next, antd locale, dayjs, schema labels), and is remembered in the session.
 *
 * The button is drawn at once; its menu (LangMenu.tsx, antd's Dropdown) is a chunk loaded when the button is
 * first pointed at, focused or clicked (DESIGN §10: the login route's JavaScript under 250 KB gzip), and then
 * opens as antd's Dropdown does (on hover; a click opens it too).
 */
import { lazy, Suspense, useRef, useState } from 'react';
import { Button } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { updateSession, useSession } from '../runtime/session.js';

const LangMenu = lazy(() => import('./LangMenu.js').then((m) => ({ default: m.LangMenu })));

export function setLanguage(lang: 'zh' | 'en', i18nChange: (l: string) => unknown): void {
  updateSession({ lang });
  void i18nChange(lang);
  document.documentElement.lang = lang === 'en' ? 'en' : 'zh-CN';
}

export function LangSwitch() {
  const { t, i18n } = useTranslation();
  const { lang } = useSession();
  // the menu's chunk is asked for on the first sign of interest; until it is there the menu counts as open, so
  // it shows as soon as it has loaded when the pointer is still on the button (or the button was clicked)
  const [wanted, setWanted] = useState(false);
  const [open, setOpen] = useState(false);
  // true once the menu is mounted: from then on antd's Dropdown opens and closes it (hover, with its delays)
  const ready = useRef(false);
  const want = () => {
    if (wanted) return;
    setWanted(true);
    setOpen(true);
  };
  const button = (
    <Button type="text" icon={<GlobalOutlined />} aria-label="language" onMouseEnter={want} onFocus={want} onClick={want} onMouseLeave={() => !ready.current && setOpen(false)}>
      {lang === 'en' ? 'English' : '中文'}
    </Button>
  );
  if (!wanted) return button;
  return (
    <Suspense fallback={button}>
      <LangMenu
        lang={lang}
        labels={{ zh: t('lang.zh'), en: t('lang.en') }}
        open={open}
        onOpenChange={setOpen}
        onReady={() => {
          ready.current = true;
        }}
        onChoose={(l) => setLanguage(l, (x) => i18n.changeLanguage(x))}
      >
        {button}
      </LangMenu>
    </Suspense>
  );
}
