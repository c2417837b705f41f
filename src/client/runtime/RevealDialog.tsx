/**
 * RevealDialog: shows values the server answers once and never again (generated passwords: a list operation's
 * `result: 'reveal'`, or a new record's `list.revealOnSave`) in a small table under the schema's warning note.
 * It closes only through its one button (我已记下 / I have noted it), so the values are not dismissed by a
 * stray click outside the dialog.
 */
import React from 'react';
import { Alert, Modal, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import type { RevealSpec } from '../../shared/schema/types.js';
import { useLang } from './hooks.js';

type Row = Record<string, unknown>;

export interface RevealDialogProps {
  title: string;
  spec: RevealSpec;
  /** The answered rows; null = closed. */
  rows: Row[] | null;
  onClose: () => void;
}

export function RevealDialog({ title, spec, rows, onClose }: RevealDialogProps) {
  const { t } = useTranslation();
  const lang = useLang();
  if (!rows) return null;
  const columns = spec.columns.map((c) => ({ key: c.field, dataIndex: c.field, title: lang === 'en' ? c.titleEn : c.title }));
  return (
    <Modal
      key="reveal"
      open
      title={title}
      width={640}
      maskClosable={false}
      closable={false}
      cancelButtonProps={{ style: { display: 'none' } }}
      okText={t('rt.reveal.noted')}
      onOk={onClose}
    >
      <Alert type="warning" showIcon style={{ marginBottom: 12 }} message={lang === 'en' ? spec.noteEn : spec.note} />
      <Table<Row> className="kc-reveal" rowKey={(r) => String(r.id ?? JSON.stringify(r))} size="small" pagination={false} bordered columns={columns} dataSource={rows} />
    </Modal>
  );
}
