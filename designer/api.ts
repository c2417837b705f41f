/**
 * The schema lifecycle calls the designer makes (the server's /api/system/schema endpoints, admin only for
 * the writes): the resource to design, saving a draft of it, publishing a version.
 *
 * - `loadResource(name)`: `GET detail?name=` — the published version, else the folder's schema;
 * - `saveDraft(resource, form)`: `POST submit` with body `{schema, name}`: `schema` is the whole resource schema
 *   whose `form` is the designed one (the server validates it against the meta-schema and the registry and
 *   stores a draft — a second save of one's own latest draft updates it); answers the version entry
 *   `{name, version, state, ...}`;
 * - `publishVersion(name, version)`: `POST publish?name=&version=`;
 * - `loadRecordForm(resource, id, field)`: a record's form (a list operation of result `design`): `GET
 *   <api>/detail?id=`, its `field` when it is a form (else undefined: the canvas starts empty), and the target
 *   to save to, labelled with the record's label field;
 * - `saveRecordForm(target, form)`: `POST <api>/submit` with `{<key>: id, <field>: form}` (the resource's own
 *   edit grant and checks; a refusal's message is shown by the api client).
 */
import { get, post } from '../src/client/runtime/api.js';
import type { ResourceSchema } from '../src/shared/schema/types.js';
import { isFormNode, type DesignedForm } from './transform.js';

export const SCHEMA_API = '/api/system/schema';

export interface SavedVersion {
  name: string;
  version: number | string;
  [key: string]: unknown;
}

export const loadResource = (name: string) => get<ResourceSchema>(`${SCHEMA_API}/detail`, { name });

/** The resource schema to submit: `resource` with `form` replaced (its other parts as they were). */
export function withForm(resource: ResourceSchema, form: DesignedForm): ResourceSchema {
  return { ...resource, form };
}

export const saveDraft = (resource: ResourceSchema, form: DesignedForm) =>
  post<SavedVersion>(`${SCHEMA_API}/submit`, { schema: withForm(resource, form), name: resource.name });

export const publishVersion = (name: string, version: number | string) => post<unknown>(`${SCHEMA_API}/publish`, undefined, { params: { name, version } });

/** Where a record's designed form is saved (see `loadRecordForm`). */
export interface RecordTarget {
  api: string;
  key: string;
  id: string;
  field: string;
  /** The record as people know it (its label field, else its key). */
  label: string;
}

export async function loadRecordForm(resource: ResourceSchema, id: string, field: string): Promise<{ form?: DesignedForm; target: RecordTarget }> {
  const record = await get<Record<string, unknown>>(`${resource.api}/detail`, { id });
  const value = record?.[field];
  const label = String((resource.labelField && record?.[resource.labelField]) || id);
  return { form: isFormNode(value) ? value : undefined, target: { api: resource.api, key: resource.key ?? 'id', id, field, label } };
}

export const saveRecordForm = (target: RecordTarget, form: DesignedForm) => post<unknown>(`${target.api}/submit`, { [target.key]: target.id, [target.field]: form });
