/**
 * SchemaPage: a page described by a page schema — a screen that is not one resource's list (the home
 * dashboard). Page schemas live in `schemas/_pages/` (a folder the server's registry, the type generator and
 * the Storybook generator skip: they are not resources) and reach the client by a JSON import at build time.
 *
 * A page schema is `{name, title, titleEn, description?, schema}`, where `schema` is a Formily schema of void
 * layout nodes (Card, FormGrid ...) and registered components (`Chart`, ...) that fetch and show their own
 * data; it is localized like every schema (title ← titleEn, `fooEn` props in English) and rendered through
 * the registry's SchemaField in a read-only form.
 */
import React, { useMemo } from 'react';
import { createForm } from '@formily/core';
import { FormProvider } from '@formily/react';
import type { FormNode } from '../../shared/schema/types.js';
import { SchemaField } from '../components/registry.js';
import { useLang } from './hooks.js';
import { localizeSchema } from './schema.js';

export interface PageSchema {
  name: string;
  title: string;
  titleEn: string;
  description?: string;
  descriptionEn?: string;
  schema: FormNode & { properties: Record<string, FormNode> };
}

export function SchemaPage({ page }: { page: PageSchema }) {
  const lang = useLang();
  const schema = useMemo(() => localizeSchema(page.schema, lang) as Record<string, any>, [page, lang]);
  // a new form per language: Formily keeps a field's title from its first render
  const form = useMemo(() => createForm({ readPretty: true }), [lang]);
  return (
    <div className={`kc-schema-page kc-page-${page.name}`} data-page={page.name}>
      <FormProvider key={lang} form={form}>
        <SchemaField schema={schema} />
      </FormProvider>
    </div>
  );
}
