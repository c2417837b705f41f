/**
 * The story factory: what every generated story (storybook/generated/*.stories.tsx) renders, through the
 * runtime's own pieces, so a story shows exactly what the app shows for the schema.
 *
 * - `FormStory`: the add form — the schema's form localized and prepared as FormDialog does it
 *   (`formSchemaOf`, `useRecordForm`, `FormBody`), defaults applied, inline (not in a modal) at the
 *   dialog's width under a 新增 heading, so the canvas, the docs page and the snapshot show the form itself.
 * - `ListStory`: the list screen (`ListPage`: search bar, toolbar, table, row actions; a lazy tree for tree
 *   resources) over the fixture records the API mock answers.
 * - `DetailStory`: the first fixture record read-only, as DetailView shows it (the schema's `detail`, else its
 *   form, in readPretty), loaded through `GET ${api}/detail`.
 *
 * The providers (antd theme and locale, SWR, language) and the API mock come from the preview.
 */
import React, { useMemo } from 'react';
import { Card, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ResourceSchema } from '../src/shared/schema/types.js';
import { FormBody, formSchemaOf, useRecordForm, type PreparedForm } from '../src/client/runtime/FormBody.js';
import { ListPage } from '../src/client/runtime/ListPage.js';
import { useLang } from '../src/client/runtime/hooks.js';
import { fixtures } from './mock.js';

/** A schema file's JSON as a resource schema (the meta-schema test checks the files themselves). */
export function asResource(json: unknown): ResourceSchema {
  return json as ResourceSchema;
}

interface StoryProps {
  resource: ResourceSchema;
}

function Frame({ resource, heading, prepared, children }: StoryProps & { heading: string; prepared: PreparedForm; children: React.ReactNode }) {
  const lang = useLang();
  const title = lang === 'en' ? resource.titleEn : resource.title;
  return (
    <Card className="kc-story" title={`${title} · ${heading}`} style={{ maxWidth: prepared.width }}>
      {children}
    </Card>
  );
}

export function FormStory({ resource }: StoryProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const prepared = useMemo(() => formSchemaOf(resource, lang), [resource, lang]);
  const { form, error } = useRecordForm(resource, { open: true });
  return (
    <Frame resource={resource} heading={t('rt.add')} prepared={prepared}>
      {form ? <FormBody form={form} prepared={prepared} lang={lang} /> : error ? <span className="kc-story-error">{error}</span> : <Spin />}
    </Frame>
  );
}

export function ListStory({ resource }: StoryProps) {
  return <ListPage resource={resource} />;
}

export function DetailStory({ resource }: StoryProps) {
  const { t } = useTranslation();
  const lang = useLang();
  const prepared = useMemo(() => formSchemaOf(resource, lang, (resource.detail as ResourceSchema['form'] | undefined) ?? resource.form, true), [resource, lang]);
  const { form, error } = useRecordForm(resource, { open: true, recordKey: fixtures.firstKey(resource), readPretty: true });
  return (
    <Frame resource={resource} heading={t('rt.detail')} prepared={prepared}>
      {form ? <FormBody form={form} prepared={prepared} lang={lang} /> : error ? <span className="kc-story-error">{error}</span> : <Spin />}
    </Frame>
  );
}
