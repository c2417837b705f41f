/**
 * ContentModelFields: the extra fields of a portal channel's content models in the content editor (issue 14:
 * "a model is a schema of extra fields a channel's content carries"; spec 001 §3 channel modelIds). A void
 * node of the form: it reads the chosen channel (`channelField`), asks for its record (`channelUrl?id=`, its
 * `modelIds`) and those models (`modelsUrl?ids=`, each with its `form`, the field design made in the form
 * designer, read by shared/portal/model-fields.ts `modelFields` as `[{attr, label, component, required}]`),
 * and shows one labelled control per field (labelled in the user's language) — Input, Input.TextArea, NumberPicker or DatePicker (yyyy-MM-dd) —
 * whose value is the `val` of the `attrs` pair (`attrsField`) of the same `attr`, so the values are stored and
 * checked (server: portal hooks `modelFault`) as the content's attributes. No channel or no model: nothing.
 * readPretty shows the values as text.
 *
 * Props (defaults): `channelField` ('channelId'), `attrsField` ('attrs'), `channelUrl`
 * ('/api/portal/channel/detail'), `modelsUrl` ('/api/portal/model/listByIds').
 */
import React from 'react';
import { DatePicker, Input, InputNumber } from 'antd';
import dayjs from 'dayjs';
import { observer, useForm } from '@formily/react';
import { FormItem } from '@formily/antd-v5';
import { useTranslation } from 'react-i18next';
import { useGet } from './env.js';
import { modelFields, type ModelField } from '../../shared/portal/model-fields.js';

interface Model {
  id: string;
  form?: unknown;
}

interface Attr {
  attr?: string;
  val?: string;
}

export interface ContentModelFieldsProps {
  channelField?: string;
  attrsField?: string;
  channelUrl?: string;
  modelsUrl?: string;
}

function Control({ field, value, onChange }: { field: ModelField; value: string; onChange: (v: string) => void }) {
  const id = `kc-model-${field.attr}`;
  if (field.component === 'Input.TextArea') return <Input.TextArea id={id} value={value} maxLength={2000} onChange={(e) => onChange(e.target.value)} />;
  if (field.component === 'NumberPicker')
    return <InputNumber id={id} style={{ width: '100%' }} value={value === '' ? null : Number(value)} onChange={(v) => onChange(v === null || v === undefined ? '' : String(v))} />;
  if (field.component === 'DatePicker')
    return <DatePicker id={id} style={{ width: '100%' }} value={value ? dayjs(value) : null} format="YYYY-MM-DD" onChange={(d) => onChange(d ? d.format('YYYY-MM-DD') : '')} />;
  return <Input id={id} value={value} maxLength={2000} onChange={(e) => onChange(e.target.value)} />;
}

export const ContentModelFields = observer(function ContentModelFields({
  channelField = 'channelId',
  attrsField = 'attrs',
  channelUrl = '/api/portal/channel/detail',
  modelsUrl = '/api/portal/model/listByIds',
}: ContentModelFieldsProps) {
  const form = useForm();
  const { i18n } = useTranslation();
  const en = i18n.language === 'en';
  const values = (form.values ?? {}) as Record<string, unknown>;
  const channelId = values[channelField];
  const { data: channel } = useGet<{ modelIds?: unknown }>(channelId ? channelUrl : null, { id: String(channelId) }, { silent: true });
  const ids = Array.isArray(channel?.modelIds) ? (channel.modelIds as unknown[]).map(String) : [];
  const { data: models } = useGet<Model[]>(ids.length ? modelsUrl : null, { ids: ids.join(',') }, { silent: true });
  const seen = new Set<string>();
  const fields = (Array.isArray(models) ? models : []).flatMap((m) => modelFields(m.form)).filter((f) => f?.attr && !seen.has(f.attr) && seen.add(f.attr));
  if (!channelId || !fields.length) return null;
  const attrs = (Array.isArray(values[attrsField]) ? values[attrsField] : []) as Attr[];
  const valueOf = (attr: string) => String(attrs.find((a) => a?.attr === attr)?.val ?? '');
  const set = (attr: string, val: string) => {
    const at = attrs.findIndex((a) => a?.attr === attr);
    const next = at >= 0 ? attrs.map((a, i) => (i === at ? { ...a, val } : a)) : [...attrs, { attr, val }];
    form.setValuesIn(attrsField, next);
  };
  return (
    <div className="kc-model-fields" data-testid="kc-model-fields">
      {fields.map((f) => (
        <FormItem.BaseItem key={f.attr} label={en ? f.labelEn : f.label} asterisk={!!f.required} labelWidth={130}>
          {form.readPretty ? <span data-attr={f.attr}>{valueOf(f.attr) || '—'}</span> : <Control field={f} value={valueOf(f.attr)} onChange={(v) => set(f.attr, v)} />}
        </FormItem.BaseItem>
      ))}
    </div>
  );
});
