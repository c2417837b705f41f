/**
 * The help centre (/helpCenter, spec 000 §2.2: opened in a new window; `?code=003` from help links; issue 18):
 * the help articles of the `help_tip` dictionary (components/HelpTip.tsx `helpEntries`: the first line of an
 * entry is its title, the rest its text), searchable by title and text, the one named by `code` opened and
 * scrolled to, and the website tip `help_center` below them. Administrators write the articles in 字典管理
 * (help_tip, websiteTip). The page is public (no login): both dictionaries are public system dictionaries
 * (`isPublic`, read anonymously through dictionary?code=).
 */
import { useEffect, useMemo, useState } from 'react';
import { Card, Collapse, Empty, Input, Layout, Typography } from 'antd';
import { QuestionCircleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { useDict } from '../components/DictSelect.js';
import { HelpTip, helpEntries, HELP_TIP_DICT } from '../components/HelpTip.js';

export function HelpCenterPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const [params] = useSearchParams();
  const code = params.get('code') ?? undefined;
  const [q, setQ] = useState('');
  const { data, isLoading } = useDict(HELP_TIP_DICT);
  const all = useMemo(() => helpEntries(data, lang), [data, lang]);
  const needle = q.trim().toLowerCase();
  const shown = needle ? all.filter((e) => `${e.title}\n${e.text}`.toLowerCase().includes(needle)) : all;
  const [open, setOpen] = useState<string[]>(code ? [code] : []);

  useEffect(() => {
    document.title = t('help.title');
  }, [t]);
  useEffect(() => {
    if (code && all.some((e) => e.key === code)) document.getElementById(`kc-help-${code}`)?.scrollIntoView?.({ block: 'start' });
  }, [code, all]);

  return (
    <Layout className="kc-help-center">
      <Layout.Content style={{ maxWidth: 960, margin: '0 auto', padding: 24, width: '100%' }}>
        <Typography.Title level={3}>
          <QuestionCircleOutlined /> {t('help.title')}
        </Typography.Title>
        <Input.Search allowClear placeholder={t('help.search')} aria-label={t('help.search')} value={q} onChange={(e) => setQ(e.target.value)} style={{ marginBottom: 16 }} />
        <Card loading={isLoading}>
          {shown.length ? (
            <Collapse
              activeKey={needle ? shown.map((e) => e.key) : open}
              onChange={(keys) => setOpen(Array.isArray(keys) ? keys : [keys])}
              items={shown.map((e) => ({
                key: e.key,
                label: <span id={`kc-help-${e.key}`}>{e.title}</span>,
                children: <div style={{ whiteSpace: 'pre-line' }}>{e.text}</div>,
              }))}
            />
          ) : (
            <Empty description={t(needle ? 'help.none' : 'help.empty')} />
          )}
        </Card>
        <div style={{ marginTop: 16 }}>
          <HelpTip kind="website" code="help_center" />
        </div>
      </Layout.Content>
    </Layout>
  );
}
