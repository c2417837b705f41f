/**
 * The top bar's error log (spec 000 §3 "Error log entry: type (error shown as bug), url, message, stack, info,
 * time", §9 "Log badge max 99"): a bug button with the number of client errors kept on this computer (shown
 * only when there are some), opening a dialog that lists them (newest first, the stack on expanding a row)
 * with 上传服务器 (send them now to the server's error log) and 清空本地日志 (forget them after a confirm).
 * While it is mounted (the signed-in layout) the entries are also uploaded on their own (error-log.ts).
 */
import { useEffect, useState } from 'react';
import { App, Badge, Button, Modal, Space, Table, Tag, Typography } from 'antd';
import { BugOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { clearErrorLog, startErrorLogUpload, uploadErrorLog, useErrorLog, type ErrorLogEntry } from './error-log.js';

/** Spec 000 §9: the log badge shows at most 99. */
export const LOG_BADGE_MAX = 99;

export function ErrorLogButton() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const entries = useErrorLog();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => startErrorLogUpload(), []);

  if (!entries.length && !open) return null;
  const rows = entries.map((e, i) => ({ ...e, key: i })).reverse();

  const upload = async () => {
    setBusy(true);
    const sent = await uploadErrorLog();
    setBusy(false);
    if (sent > 0) void message.success(t('errorLog.uploaded'));
    else void message.error(t('errorLog.uploadFailed'));
  };
  const clear = () =>
    modal.confirm({
      title: t('errorLog.clearConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: () => clearErrorLog(),
    });

  return (
    <>
      <Badge count={entries.length} overflowCount={LOG_BADGE_MAX} size="small" offset={[-4, 4]}>
        <Button type="text" aria-label={t('errorLog.button')} title={t('errorLog.button')} icon={<BugOutlined />} onClick={() => setOpen(true)} />
      </Badge>
      <Modal
        open={open}
        title={t('errorLog.title')}
        width={960}
        onCancel={() => setOpen(false)}
        footer={
          <Space>
            <Button danger disabled={!entries.length} onClick={clear}>
              {t('errorLog.clear')}
            </Button>
            <Button type="primary" loading={busy} disabled={!entries.length} onClick={() => void upload()}>
              {t('errorLog.upload')}
            </Button>
          </Space>
        }
      >
        <Typography.Paragraph type="secondary">{t('errorLog.hint')}</Typography.Paragraph>
        <Table<ErrorLogEntry & { key: number }>
          size="small"
          rowKey="key"
          dataSource={rows}
          pagination={{ pageSize: 10, showSizeChanger: false }}
          expandable={{
            rowExpandable: (r) => Boolean(r.stack || r.info),
            expandedRowRender: (r) => (
              <>
                <Typography.Text strong>{t('errorLog.stack')}</Typography.Text>
                <pre style={{ whiteSpace: 'pre-wrap', maxHeight: 320, overflow: 'auto', fontSize: 12 }}>{[r.stack, r.info].filter(Boolean).join('\n')}</pre>
              </>
            ),
          }}
          columns={[
            { title: t('errorLog.type'), dataIndex: 'type', width: 150, render: (v: string) => <Tag color="red">{v === 'error' ? 'bug' : v}</Tag> },
            { title: t('errorLog.url'), dataIndex: 'url', width: 200, ellipsis: true },
            { title: t('errorLog.message'), dataIndex: 'message', ellipsis: true },
            { title: t('errorLog.time'), dataIndex: 'time', width: 170 },
          ]}
        />
      </Modal>
    </>
  );
}
