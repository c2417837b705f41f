/**
 * Two public diagnostic pages (spec 000 §2.2: /userAgent, /test and /test/index, no login, no tab; issue 18):
 *
 * - `/userAgent`: what this browser tells the server — its User-Agent, language, platform, screen and window
 *   sizes, cookies — for support calls ("which browser are you on?").
 * - `/test/index` (and `/test`): the same, plus whether the API answers from here (a public call,
 *   `GET /api/blade-system/tenant/info`, timed), the zoom, theme and language the shell would apply.
 */
import { useEffect, useState } from 'react';
import { Card, Descriptions, Result, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { getSession } from '../runtime/session.js';
import { storedZoom, themeOf } from './themes.js';

function browserRows(t: (k: string) => string) {
  const nav = typeof navigator !== 'undefined' ? navigator : ({} as Navigator);
  return [
    { key: 'ua', label: t('diag.userAgent'), children: <Typography.Text copyable>{nav.userAgent}</Typography.Text> },
    { key: 'lang', label: t('diag.language'), children: (nav.languages ?? [nav.language]).join(', ') },
    { key: 'platform', label: t('diag.platform'), children: nav.platform || '-' },
    { key: 'screen', label: t('diag.screen'), children: `${window.screen?.width ?? '-'} × ${window.screen?.height ?? '-'} (${window.devicePixelRatio ?? 1}x)` },
    { key: 'window', label: t('diag.window'), children: `${window.innerWidth} × ${window.innerHeight}` },
    { key: 'cookies', label: t('diag.cookies'), children: nav.cookieEnabled ? t('diag.yes') : t('diag.no') },
  ];
}

export function UserAgentPage() {
  const { t } = useTranslation();
  return (
    <div className="kc-login">
      <Card className="kc-diag" title={t('diag.userAgentTitle')} style={{ width: 720, maxWidth: '94vw' }}>
        <Descriptions column={1} bordered size="small" items={browserRows(t)} />
      </Card>
    </div>
  );
}

type Ping = { state: 'pending' } | { state: 'ok'; ms: number } | { state: 'failed'; message: string };

export function TestPage() {
  const { t } = useTranslation();
  const [ping, setPing] = useState<Ping>({ state: 'pending' });
  useEffect(() => {
    const started = performance.now();
    fetch(`/api/blade-system/tenant/info?domain=${encodeURIComponent(window.location.hostname)}`, { headers: { 'Tenant-Id': getSession().tenantId } })
      .then((r) => (r.ok ? setPing({ state: 'ok', ms: Math.round(performance.now() - started) }) : setPing({ state: 'failed', message: `HTTP ${r.status}` })))
      .catch((e: unknown) => setPing({ state: 'failed', message: String((e as Error)?.message ?? e) }));
  }, []);
  const s = getSession();
  const api =
    ping.state === 'pending' ? <Tag>{t('diag.checking')}</Tag> : ping.state === 'ok' ? <Tag color="green">{t('diag.apiOk')} · {ping.ms} ms</Tag> : <Tag color="red">{t('diag.apiFailed')} · {ping.message}</Tag>;
  return (
    <div className="kc-login">
      <Card className="kc-diag" style={{ width: 760, maxWidth: '94vw' }}>
        <Result status={ping.state === 'failed' ? 'warning' : 'success'} title={t('diag.testTitle')} subTitle={api} />
        <Descriptions
          column={1}
          bordered
          size="small"
          items={[
            ...browserRows(t),
            { key: 'ui', label: t('diag.ui'), children: `${s.lang} · ${themeOf(s.themeName).name} · ${storedZoom()}%` },
            { key: 'time', label: t('diag.time'), children: new Date().toLocaleString(s.lang === 'en' ? 'en-GB' : 'zh-CN', { dateStyle: 'full', timeStyle: 'long' }) },
          ]}
        />
      </Card>
    </div>
  );
}
