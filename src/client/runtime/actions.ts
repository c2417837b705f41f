/**
 * Workflow actions on the client (DESIGN §4 `actions`, §8), generic for any resource whose schema declares
 * them (the server side is src/server/modules/flow/actions.ts; the client only hides, the server decides):
 *
 * - `statusOf(resource, row)`: the record's status (`actions.statusField`); an empty one counts as the
 *   field's default, as on the server.
 * - `actionsFor(resource, row, ctx, placement)`: the actions whose button shows for `row` — its status is one
 *   of the action's `from`, the current role's alias is one of its `roles` ('*' = anyone; administrators
 *   always pass), the action is placed there (`placement`, default row and detail), and for `actor: 'owner'`
 *   the record was created by the current user (when the row says who created it; administrators pass).
 *   Company actors (`company`, `companyTree`) are left to the server: the client does not know the tree.
 * - `editLocked(resource, row)` / `removeLocked(resource, row, ctx)`: the record's status is one of
 *   `actions.locked` (待审核, 审核通过): the generic edit is refused for everyone, the remove for all but
 *   administrators — so those buttons hide.
 * - `actionBody(resource, action, row, values)`: the POST body the server expects:
 *   `{businessId, businessType, action, ...dialog values}` (`businessType` = the resource name,
 *   `action` = the action's key, which picks it when several actions share an endpoint).
 * - `FLOW_HISTORY`: the list endpoint of each flow's history (the examine flow's steps), for the timeline
 *   and for revalidating it after an action.
 */
import type { ResourceSchema, WorkflowAction } from '../../shared/schema/types.js';
import { fieldNodes } from './schema.js';
import { ADMIN_ALIAS } from '../../shared/contract/tenancy.js';
import { statusOf as sharedStatusOf } from '../../shared/schema/status.js';

export { ADMIN_ALIAS };

// the flow history endpoints belong to the timeline that lists them (the runtime imports components, never
// the other way round: components/layering.test.ts)
export { FLOW_HISTORY } from '../components/ExamineTimeline.js';

export interface ActorContext {
  /** The current role's alias (`kygl`, `researcher`, `administrator` ...). */
  roleAlias?: string;
  /** The signed-in user's id. */
  userId?: string;
}

type Row = Record<string, unknown>;

/** The status of `row` as a string ('' when the resource has no status field): shared/schema/status.ts. */
export const statusOf = (resource: ResourceSchema, row: Row): string => sharedStatusOf(resource, row);

const isAdmin = (ctx: ActorContext) => ctx.roleAlias === ADMIN_ALIAS;

/** True when the current role may take `action` (roles '*', the role's alias, or an administrator). */
export function roleAllows(action: WorkflowAction, ctx: ActorContext): boolean {
  if (action.roles.includes('*')) return true;
  if (!ctx.roleAlias) return false;
  return action.roles.includes(ctx.roleAlias) || isAdmin(ctx);
}

/** The actions whose button shows for `row` in `placement` (see the module comment). */
export function actionsFor(resource: ResourceSchema, row: Row, ctx: ActorContext, placement: 'row' | 'detail'): WorkflowAction[] {
  const spec = resource.actions;
  if (!spec) return [];
  const status = statusOf(resource, row);
  return spec.items.filter((a) => {
    if (a.placement && !a.placement.includes(placement)) return false;
    if (a.from && !a.from.includes(status)) return false;
    if (!roleAllows(a, ctx)) return false;
    if (a.actor === 'owner' && !isAdmin(ctx)) {
      const owner = row.createUser;
      if (owner !== undefined && owner !== null && owner !== '' && ctx.userId && String(owner) !== ctx.userId) return false;
    }
    return true;
  });
}

const inLocked = (resource: ResourceSchema, row: Row) => !!resource.actions?.locked?.includes(statusOf(resource, row));

/** The generic edit is refused in a locked status (for everyone: the server has no exception). */
export function editLocked(resource: ResourceSchema, row: Row): boolean {
  return inLocked(resource, row);
}

/** The generic remove is refused in a locked status, administrators excepted. */
export function removeLocked(resource: ResourceSchema, row: Row, ctx: ActorContext): boolean {
  return inLocked(resource, row) && !isAdmin(ctx);
}

/** The body of `POST action.endpoint`. */
export function actionBody(resource: ResourceSchema, action: WorkflowAction, row: Row, values: Row = {}): Row {
  return { ...values, businessId: String(row[resource.key ?? 'id']), businessType: resource.name, action: action.key };
}

/** The label of `action` in `lang`. */
export const actionLabel = (action: Pick<WorkflowAction, 'label' | 'labelEn'>, lang: 'zh' | 'en') => (lang === 'en' ? action.labelEn : action.label);

/**
 * The resource with its status in the list (spec 001 §2: research management finds what waits for review):
 * when `actions.statusField` is a field of the form, the list shows it as a column (labelled through its
 * dictionary, like any DictSelect field) and offers it as an exact-match search (`<field>_equal`), unless the
 * schema's `list` already names it. Other resources are answered unchanged.
 */
export function withStatusList(resource: ResourceSchema): ResourceSchema {
  const field = resource.actions?.statusField;
  const nodes = fieldNodes(resource);
  if (!field || !nodes.has(field)) return resource;
  const list = resource.list ?? {};
  const columns = list.columns ?? [...nodes.keys()].filter((k) => k !== field).slice(0, 6).map((f) => ({ field: f }));
  const search = list.search ?? [];
  const hasColumn = columns.some((c) => c.field === field);
  const hasSearch = search.some((s) => s.field === field);
  if (hasColumn && hasSearch && list.columns) return resource;
  return {
    ...resource,
    list: {
      ...list,
      columns: hasColumn ? columns : [...columns, { field, width: 110 }],
      search: hasSearch ? search : [...search, { field, operator: 'equal' }],
    },
  };
}
