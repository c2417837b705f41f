/**
 * ResourcePage: the screen of a resource, rendered from its schema (DESIGN §7: a menu path that names a
 * resource renders ResourcePage). It loads the schema (`GET /api/system/schema/detail?name=`) and renders the
 * ListPage (search, table, toolbar, add / edit dialog, detail view; a lazy tree table for tree resources).
 *
 * Props:
 * - `name`: the resource (`basic/patent`), i.e. the menu's `resource`;
 * - `listEndpoint`: which list the menu shows — 'list' (default), 'list-for-myCompany' or 'myList'; an
 *   endpoint the resource does not mount falls back to 'list';
 * - `can`: the current role's button check (`can('patent_add')`); absent = every button shown.
 */
import React from 'react';
import { Button, Result, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useResourceSchema } from './schema.js';
import { ListPage, type ListEndpoint } from './ListPage.js';

export interface ResourcePageProps {
  name: string;
  listEndpoint?: ListEndpoint;
  can?: (code: string) => boolean;
}

export function ResourcePage({ name, listEndpoint, can }: ResourcePageProps) {
  const { t } = useTranslation();
  const { data, error, mutate } = useResourceSchema(name);
  if (error && !data) {
    return (
      <Result
        status="error"
        title={t('rt.schemaFailed')}
        subTitle={(error as Error).message}
        extra={
          <Button type="primary" onClick={() => void mutate()}>
            {t('rt.retry')}
          </Button>
        }
      />
    );
  }
  if (!data) return <Spin aria-label={t('rt.loading')} style={{ display: 'block', margin: '80px auto' }} />;
  return <ListPage key={data.name} resource={data} listEndpoint={listEndpoint} can={can} />;
}

export default ResourcePage;
