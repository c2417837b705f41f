/**
 * Who may do what to which rows of a resource (DESIGN §1.3, §5): the engine's access rules, applied to every
 * resource from its schema alone — no code names a resource.
 *
 * Operations and the grant each needs (`requiredCode`), from the schema's `menu` and `permissions`:
 * read (list, page, detail, select, tree) = `permissions.read` ?? the menu code; myList and
 * list-for-myCompany = as read unless given; add / edit / remove = `<menu>_add` / `_edit` / `_delete`
 * (administrators only without a menu); `null` = any signed-in user; a list of codes = any one of them.
 * Administrators of the tenant pass.
 *
 * `scope.platformAdminOnly` (tenants, clients, parameters): every operation, reads included, only for
 * administrators of the platform tenant 000000 (403 平台数据只能由平台管理员维护 otherwise).
 * `scope.platformSeesAll` (logs): the rows of a platform administrator's reads are not limited to a tenant.
 *
 * Platform resources (`scope.platform`: one copy for all tenants — regions, system dictionaries) are
 * readable as their permissions say and writable (add, edit, remove) only by administrators of the platform
 * tenant 000000: 403 平台数据只能由平台管理员维护 for anyone else, a tenant's own administrator included.
 *
 * Rows (`scope`): every query carries `is_deleted = 0`, the caller's tenant (tenant-scoped resources), with
 * `scope.own` the caller's own rows (create_user) unless they are an administrator, and,
 * when the schema says `scope.dataScope`, the union of the data scopes the caller's active roles hold on the
 * resource (blade_scope_data through blade_role_scope), in the SQL itself:
 *
 * | scope type              | rows                                                                          |
 * | ----------------------- | ----------------------------------------------------------------------------- |
 * | all                     | every row of the tenant (also: a role with no scope on the resource)          |
 * | own                     | created by the caller (create_user), or the scope column naming the caller's  |
 * |                         | user id when it is a field of the row's own (project/expert's expert_id)      |
 * | ownDept                 | scope column (default create_dept) = the caller's department                  |
 * | ownDeptAndChildren      | scope column within the caller's department and the departments below it     |
 * | ownCompanyAndChildren   | scope column within the caller's company (nearest category-1 dept) and below  |
 * | custom                  | scope column one of the listed department ids (scope_value, comma list)       |
 */
import { ApiError } from '../core/envelope.js';
import type { AuthUser, GrantCache, OrgCache } from '../core/context.js';
import { PLATFORM_TENANT } from '../../shared/contract/tenancy.js';
import { isId } from '../../shared/contract/ids.js';
import { buttonCode } from '../../shared/contract/grants.js';
import type { Registry, Resource } from './registry.js';
import { Conditions, quote } from './query.js';

/** What a caller does to a resource; each maps to one grant (see the module comment). */
export type Operation = 'read' | 'myList' | 'list-for-myCompany' | 'add' | 'edit' | 'remove';

const ADMIN_ONLY = Symbol('admin-only');
const WRITES: ReadonlySet<Operation> = new Set(['add', 'edit', 'remove']);

/** True for a platform-wide resource (`scope.platform`). */
export const isPlatform = (r: Resource) => r.schema.scope?.platform === true;

export class Access {
  constructor(
    private readonly registry: Registry,
    private readonly org: OrgCache,
    private readonly grants: GrantCache,
  ) {}

  /**
   * The grant code `op` needs on `r`: a code, a list of codes any one of which is enough (a resource read through
   * two menus: project/expert by research management's 评审专家 and the expert's 专家评审), null (any signed-in
   * user) or administrators only.
   */
  requiredCode(r: Resource, op: Operation): string | string[] | null | typeof ADMIN_ONLY {
    const p = r.schema.permissions ?? {};
    if (op in p) return p[op] ?? null;
    const menu = r.schema.menu;
    const read = 'read' in p ? (p.read ?? null) : (menu ?? null);
    switch (op) {
      case 'read':
      case 'myList':
      case 'list-for-myCompany':
        return read;
      case 'add':
      case 'edit':
      case 'remove':
        return menu ? buttonCode(menu, op) : ADMIN_ONLY;
    }
  }

  /**
   * The caller, when they may `op` the current version of `r`. Throws 401 without a user, 403 when the
   * active roles lack the grant, or when a write to a platform resource does not come from an administrator
   * of the platform tenant.
   */
  async authorize(user: AuthUser | null, r: Resource, op: Operation): Promise<AuthUser> {
    if (!user) throw new ApiError(401, 'unauthorized');
    r = this.registry.resources.get(r.schema.name) ?? r;
    if (r.schema.scope?.platformAdminOnly && (user.tenantId !== PLATFORM_TENANT || !user.isAdmin)) throw new ApiError(403, 'platformAdminOnly');
    if (WRITES.has(op) && isPlatform(r)) {
      if (user.tenantId !== PLATFORM_TENANT || !user.isAdmin) throw new ApiError(403, 'platformAdminOnly');
      return user;
    }
    if (user.isAdmin) return user;
    const code = this.requiredCode(r, op);
    if (code === null) return user;
    if (code === ADMIN_ONLY) throw new ApiError(403, 'forbidden');
    for (const c of Array.isArray(code) ? code : [code]) if (await this.grants.hasCode(user.activeRoleIds, c)) return user;
    throw new ApiError(403, 'forbidden');
  }

  /** Adds the live-row, tenant and (unless `withDataScope` is false) data-scope conditions of `r` for `user`. */
  async scope(r: Resource, user: AuthUser, cond: Conditions, withDataScope = true): Promise<void> {
    const seesAll = r.schema.scope?.platformSeesAll === true && user.tenantId === PLATFORM_TENANT && user.isAdmin;
    if (r.tenantScoped && !seesAll) cond.add(`tenant_id = ${cond.param(user.tenantId)}`);
    cond.add('is_deleted = 0');
    // `scope.own` (a user's own records, system/userinput): everyone but an administrator sees and changes only theirs
    if (r.schema.scope?.own && !user.isAdmin) cond.add(`create_user = ${cond.param(user.userId)}::bigint`);
    if (!withDataScope || !r.schema.scope?.dataScope) return;
    const scopes = await this.grants.dataScopes(user.activeRoleIds, r.schema.name);
    if (scopes.length === 0) return;
    const ors: string[] = [];
    for (const s of scopes) {
      const col = r.byColumn.get(s.scopeColumn) ? quote(s.scopeColumn) : 'create_dept';
      const within = (ids: string[]) => `${col} = ANY(${cond.param(ids)}::bigint[])`;
      switch (s.scopeType) {
        case 'all':
          return; // one unrestricted scope lifts the restriction
        case 'own': {
          // the scope column names who the row belongs to when it is a field of its own (project/expert: expert_id); else its registrant
          const mine = s.scopeColumn && s.scopeColumn !== 'create_dept' && s.scopeColumn !== 'create_user' && r.byColumn.get(s.scopeColumn) ? s.scopeColumn : null;
          ors.push(mine ? `${quote(mine)}::text = ${cond.param(user.userId)}` : `create_user = ${cond.param(user.userId)}::bigint`);
          break;
        }
        case 'ownDept':
          ors.push(within(user.deptId ? [user.deptId] : []));
          break;
        case 'ownDeptAndChildren':
          ors.push(within(user.deptId ? await this.org.subtree(user.tenantId, user.deptId) : []));
          break;
        case 'ownCompanyAndChildren': {
          const company = user.deptId ? await this.org.companyOf(user.tenantId, user.deptId) : null;
          ors.push(within(company ? await this.org.subtree(user.tenantId, company) : []));
          break;
        }
        case 'custom':
          ors.push(within((s.scopeValue ?? '').split(',').map((x) => x.trim()).filter(isId)));
          break;
        default:
          ors.push('FALSE'); // an unknown type grants nothing
      }
    }
    cond.add(`(${ors.join(' OR ')})`);
  }
}
