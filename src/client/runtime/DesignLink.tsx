/**
 * DesignLink: a list row's operation of result `design` (shared/schema/types.ts `ListOperation`): a link to
 * the form designer on the row's `designField` — `/designer/<resource name>?id=<row key>&field=<designField>`
 * (designer/DesignerPage.tsx loads that record's form and saves it back through the resource's submit). Inside
 * a router it navigates in the page; outside one (component tests, Storybook) it is a plain link.
 */
import React from 'react';
import { Link, useInRouterContext } from 'react-router-dom';
import type { ListOperation, ResourceSchema } from '../../shared/schema/types.js';

/** The designer's address for `op` on the row whose key is `key`. */
export function designerUrl(resource: Pick<ResourceSchema, 'name'>, op: Pick<ListOperation, 'designField'>, key: string): string {
  return `/designer/${resource.name}?${new URLSearchParams({ id: key, field: op.designField ?? '' }).toString()}`;
}

export function DesignLink({ to, children }: { to: string; children: React.ReactNode }) {
  const inRouter = useInRouterContext();
  const style = { padding: '0 7px', lineHeight: '24px' };
  return inRouter ? (
    <Link to={to} style={style}>
      {children}
    </Link>
  ) : (
    <a href={to} style={style}>
      {children}
    </a>
  );
}
