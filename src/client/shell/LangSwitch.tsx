/**
 * Language switch (spec 000 §2.5): 中文 / English; the current option is disabled. Switching changes every
 * visible text at once (i18next, antd locale, dayjs, schema labels), and is remembered in the session.
 */
import { Dropdown, Button } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { updateSession, useSession } from '../runtime/session.js';

export function setLanguage(lang: 'zh' | 'en', i18nChange: (l: string) => unknown): void {
  updateSession({ lang });
  void i18nChange(lang);
  document.documentElement.lang = lang === 'en' ? 'en' : 'zh-CN';
}

export function LangSwitch() {
  const { t, i18n } = useTranslation();
  const { lang } = useSession();
  return (
    <Dropdown
      menu={{
        selectedKeys: [lang],
        items: [
          { key: 'zh', label: t('lang.zh'), disabled: lang === 'zh' },
          { key: 'en', label: t('lang.en'), disabled: lang === 'en' },
        ],
        onClick: ({ key }) => setLanguage(key as 'zh' | 'en', (l) => i18n.changeLanguage(l)),
      }}
    >
      <Button type="text" icon={<GlobalOutlined />} aria-label="language">
        {lang === 'en' ? 'English' : '中文'}
      </Button>
    </Dropdown>
  );
}
