/**
 * The version number at the foot of the sidebar and its drawer (spec 000 §2.5 'The sidebar shows the current
 * version number (from a version call) and opens a version-info drawer', §2.8 version history, §3.4 Version).
 *
 * The number is `versionName` of `GET /api/basic/version/selectVersion` (the web client's current version,
 * or its newest: server modules/system/versions.ts); nothing shows while there is none. A click opens the
 * drawer 'version info': 'updated to the latest version', the current version's heading
 * ('版本 V1.2.0 [2025-06-01]'), its changelog, the Ctrl+F5 tip, then the history newest first
 * (`/api/basic/version/list`, size 500; left out when the role may not list it).
 */
import { useState } from 'react';
import { Alert, Button, Divider, Drawer, Empty, Timeline, Typography } from 'antd';
import { TagOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import useSWR from 'swr';
import { get } from '../runtime/api.js';
import { useSession } from '../runtime/session.js';

export interface VersionRecord {
  id: string;
  product: string;
  versionName: string;
  time: string | null;
  description: string | null;
  isCurrent?: boolean;
  heading?: string;
  mainVersion?: number;
  sonVersion?: number;
  stageVersion?: number;
}

export const SELECT_VERSION_URL = '/api/basic/version/selectVersion';
export const VERSION_LIST_URL = '/api/basic/version/list';

/** The changelog as paragraphs (one per line). */
function Changelog({ text }: { text: string | null | undefined }) {
  const lines = (text ?? '').split(/\r?\n/).filter((l) => l.trim());
  return lines.length ? (
    <div className="kc-version-changelog">
      {lines.map((l, i) => (
        <Typography.Paragraph key={i} style={{ marginBottom: 4 }}>
          {l}
        </Typography.Paragraph>
      ))}
    </div>
  ) : null;
}

export function VersionInfo() {
  const { t } = useTranslation();
  const s = useSession();
  const [open, setOpen] = useState(false);
  const { data: current } = useSWR(s.token ? ['version/select', s.lang] : null, () => get<VersionRecord | null>(SELECT_VERSION_URL, undefined, { silent: true }).catch(() => null));
  const { data: history } = useSWR(open ? ['version/list', s.lang] : null, () =>
    get<{ records: VersionRecord[] }>(VERSION_LIST_URL, { current: 1, size: 500, product: current?.product }, { silent: true })
      .then((p) => p.records)
      .catch(() => null),
  );
  if (!current) return null;
  return (
    <>
      <Button type="link" size="small" className="kc-version" icon={<TagOutlined />} onClick={() => setOpen(true)} title={t('version.title')}>
        {current.versionName}
      </Button>
      <Drawer open={open} onClose={() => setOpen(false)} title={t('version.title')} width={480}>
        <Alert type="success" showIcon message={t('version.latest')} style={{ marginBottom: 16 }} />
        <Typography.Title level={5} className="kc-version-heading">
          {current.heading ?? current.versionName}
        </Typography.Title>
        <Changelog text={current.description} />
        <Typography.Paragraph type="secondary">{t('version.tip')}</Typography.Paragraph>
        {history && (
          <>
            <Divider orientation="left">{t('version.history')}</Divider>
            {history.length ? (
              <Timeline
                items={history.map((v) => ({
                  color: v.id === current.id ? 'green' : 'gray',
                  children: (
                    <div className="kc-version-item">
                      <Typography.Text strong>
                        {v.versionName} {v.time ? `[${v.time}]` : ''}
                      </Typography.Text>
                      <Changelog text={v.description} />
                    </div>
                  ),
                }))}
              />
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
            )}
          </>
        )}
      </Drawer>
    </>
  );
}
