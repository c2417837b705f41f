/**
 * Checks of a schema's workflow `actions` that the meta-schema cannot state (used by the registry when a
 * schema is loaded, submitted or published, so a schema from the designer cannot break its actions).
 */
import { dataFields } from './derive.js';
import type { ResourceSchema } from './types.js';

const GENERIC_ENDPOINTS = ['list', 'page', 'detail', 'submit', 'remove', 'select', 'myList', 'myPage', 'list-for-myCompany', 'tree', 'lazy-tree'];

/**
 * The faults of a schema's `actions` that the meta-schema cannot state: unique keys, a status field that is
 * a data field marked x-server-only, statuses only with a status field, endpoints that are not one of the
 * generic endpoints of a resource (a route can be mounted once).
 */
export function checkActions(schema: ResourceSchema): string[] {
  const spec = schema.actions;
  if (!spec) return [];
  const faults: string[] = [];
  const keys = new Set<string>();
  for (const a of spec.items) {
    if (keys.has(a.key)) faults.push(`/actions: key "${a.key}" is used twice`);
    keys.add(a.key);
    if ((a.from || a.to !== undefined) && !spec.statusField) faults.push(`/actions/${a.key}: from/to need actions.statusField`);
    const last = a.endpoint.split('/').pop()!;
    if (GENERIC_ENDPOINTS.includes(last) && a.endpoint === `${schema.api}/${last}`) faults.push(`/actions/${a.key}: ${a.endpoint} is a generic endpoint of the resource`);
  }
  if (spec.locked?.length && !spec.statusField) faults.push('/actions: locked needs actions.statusField');
  if (spec.statusField) {
    const f = dataFields(schema.form).find((d) => d.name === spec.statusField);
    if (!f) faults.push(`/actions/statusField: no field "${spec.statusField}"`);
    else if (f.node['x-server-only'] !== true) faults.push(`/actions/statusField: field "${spec.statusField}" must be x-server-only`);
  }
  return faults;
}

