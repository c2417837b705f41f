/**
 * The record a registry component asked to see (`env.openRecord(resource, id)`, runtime/env.tsx): the
 * resource's schema from the schema endpoint (runtime/schema.ts), then its DetailView over the page.
 * A chunk of its own, loaded when a record is first opened: the schema helpers (and the expression parser they
 * bring) and the form runtime are not part of the login route (DESIGN §10 login-route budget).
 */
import { DetailView } from './DetailView.js';
import { useResourceSchema } from './schema.js';

/** The detail of record `id` of `resource` once its schema has loaded; `onClose` when the view is closed. */
export function RecordDetail({ resource, id, onClose }: { resource: string; id: string; onClose: () => void }) {
  const { data: schema } = useResourceSchema(resource);
  if (!schema) return null;
  return <DetailView resource={schema} open recordKey={id} onClose={onClose} />;
}
