/**
 * The request context: who is calling, in which tenant, as which role, and what that lets them see
 * (DESIGN §5 pipeline: token → tenant and user context → API scope → data scope).
 *
 * - The user comes from the access token (`Blade-Auth: bearer <jwt>`).
 * - A user may hold several roles and works as one at a time (spec 000 §6): the client names it in the
 *   `Role-Id` header (or a `roleId` query parameter); it must be one of the token's roles (else 403). Without
 *   it the user acts with all their roles.
 * - Organisation facts (the company of a department, the departments of a company, a department's subtree)
 *   come from `OrgCache`; role grants (menus, buttons, data scopes, API scopes) from `GrantCache`. Both are
 *   cached per tenant/role for 30 s and dropped at once on a `kc_cache` notification, so every node sees
 *   changes.
 * - Data scopes (`blade_scope_data`, granted through `blade_role_scope` with scope_category 1) are named
 *   (`DataScopeType`, migration 0006); the resource layer turns them into SQL. API scopes (`blade_scope_api`,
 *   scope_category 2) limit which endpoints a role may call; `core/api-scope.ts` enforces them.
 */
import { CHANNEL, type Channels } from './channels.js';
import type { Db } from './db/index.js';
import { sql } from './db/index.js';
import type { TokenClaims } from './auth/tokens.js';
import { ApiError } from './envelope.js';
import { compileApiScope, type ApiScope } from './api-scope.js';

/** The role alias of administrators: they pass every menu, button, data-scope and API-scope check. */
export const ADMIN_ALIAS = 'administrator';

/** The caller of a request, from the access token's claims (ids are decimal strings). */
export interface AuthUser {
  tenantId: string;
  userId: string;
  deptId: string;
  account: string;
  userName: string;
  realName: string;
  nickName: string;
  clientId: string;
  jti: string;
  exp: number;
  roleIds: string[];
  roleAliases: string[];
  /** The roles this request acts with: the chosen one, or all. */
  activeRoleIds: string[];
  activeRoleAliases: string[];
  /** True when an active role is the administrator. */
  isAdmin: boolean;
}

/** Builds the user of a request from verified token claims and the requested role (undefined = all roles). */
export function userFromClaims(c: TokenClaims, requestedRoleId: string | undefined): AuthUser {
  const roleIds = c.role_id ? c.role_id.split(',') : [];
  const roleAliases = c.role_name ? c.role_name.split(',') : [];
  let activeRoleIds = roleIds;
  let activeRoleAliases = roleAliases;
  if (requestedRoleId) {
    const i = roleIds.indexOf(requestedRoleId);
    if (i < 0) throw new ApiError(403, 'forbidden');
    activeRoleIds = [roleIds[i]];
    activeRoleAliases = [roleAliases[i]];
  }
  return {
    tenantId: c.tenant_id,
    userId: c.user_id,
    deptId: c.dept_id,
    account: c.account,
    userName: c.user_name,
    realName: c.real_name,
    nickName: c.nick_name,
    clientId: c.client_id,
    jti: c.jti,
    exp: c.exp,
    roleIds,
    roleAliases,
    activeRoleIds,
    activeRoleAliases,
    isAdmin: activeRoleAliases.includes(ADMIN_ALIAS),
  };
}

interface DeptNode {
  id: string;
  parentId: string;
  category: number;
}

const TTL_MS = 30_000;

/** Departments of each tenant, for company and subtree questions. */
export class OrgCache {
  private readonly byTenant = new Map<string, { at: number; depts: Map<string, DeptNode>; children: Map<string, string[]> }>();
  constructor(private readonly db: Db) {}

  /** Forgets the departments of `tenantId` (of every tenant when omitted); the next question reloads them. */
  invalidate(tenantId?: string): void {
    if (tenantId) this.byTenant.delete(tenantId);
    else this.byTenant.clear();
  }

  private async load(tenantId: string) {
    const hit = this.byTenant.get(tenantId);
    if (hit && Date.now() - hit.at < TTL_MS) return hit;
    const rows = await sql<{ id: string; parent_id: string; dept_category: number }>`
      SELECT id, parent_id, dept_category FROM blade_dept WHERE tenant_id = ${tenantId} AND is_deleted = 0`.execute(this.db);
    const depts = new Map<string, DeptNode>();
    const children = new Map<string, string[]>();
    for (const r of rows.rows) {
      depts.set(r.id, { id: r.id, parentId: r.parent_id, category: r.dept_category });
      const list = children.get(r.parent_id) ?? [];
      list.push(r.id);
      children.set(r.parent_id, list);
    }
    const entry = { at: Date.now(), depts, children };
    this.byTenant.set(tenantId, entry);
    return entry;
  }

  /** The company (nearest department of category 1, itself included) that `deptId` belongs to, or null. */
  async companyOf(tenantId: string, deptId: string): Promise<string | null> {
    const { depts } = await this.load(tenantId);
    let cur = depts.get(deptId);
    const seen = new Set<string>();
    while (cur && !seen.has(cur.id)) {
      if (cur.category === 1) return cur.id;
      seen.add(cur.id);
      cur = depts.get(cur.parentId);
    }
    return null;
  }

  /** `deptId` and every department below it. */
  async subtree(tenantId: string, deptId: string): Promise<string[]> {
    const { children } = await this.load(tenantId);
    const out: string[] = [];
    const stack = [deptId];
    while (stack.length) {
      const id = stack.pop()!;
      if (out.includes(id)) continue;
      out.push(id);
      stack.push(...(children.get(id) ?? []));
    }
    return out;
  }

  /**
   * The departments of company `companyId`: the company and its departments, not those of companies nested
   * below it (a subsidiary is its own company: spec 001 §6 'a company sees its own records').
   */
  async companyDepts(tenantId: string, companyId: string): Promise<string[]> {
    const { depts, children } = await this.load(tenantId);
    const out: string[] = [];
    const stack = [companyId];
    while (stack.length) {
      const id = stack.pop()!;
      if (out.includes(id)) continue;
      out.push(id);
      for (const c of children.get(id) ?? []) if (depts.get(c)?.category !== 1) stack.push(c);
    }
    return out;
  }
}

/**
 * The kinds of data scope (DESIGN §5 'data scopes (all, own, own dept, own dept and children, custom)';
 * spec 002 §1 数据权限; BladeX `DataScopeEnum`). Stored by name in `blade_scope_data.scope_type` (varchar(32),
 * CHECK constraint of migration 0006, which mapped the former numbers 1–5 onto the first five names in order
 * of this list, skipping `ownCompanyAndChildren`). The scope column (`blade_scope_data.scope_column`, a
 * department column such as `create_dept`, or `create_user` for `own`) is the column compared.
 */
export type DataScopeType =
  /** Every row of the tenant: no restriction (one such scope lifts the others of every role). Was 1. */
  | 'all'
  /** The caller's own rows: `create_user` = the caller. Was 2. */
  | 'own'
  /** Rows whose scope column is the caller's department. Was 3. */
  | 'ownDept'
  /** Rows whose scope column is the caller's department or a department below it. Was 4. */
  | 'ownDeptAndChildren'
  /**
   * Rows whose scope column is the caller's company (the nearest department of category 1 above, or at, the
   * caller's department: `OrgCache.companyOf`) or any department below it, subsidiaries included
   * (`OrgCache.subtree`). New in migration 0006: a subsidiary's research management sees its company.
   */
  | 'ownCompanyAndChildren'
  /**
   * A fixed list of departments, free of SQL: `scope_value` is a comma list of department ids and the rows
   * whose scope column is one of them are visible (ids that are not decimal bigints are ignored; an empty
   * list shows nothing). Was 5.
   */
  | 'custom';

/** Every `DataScopeType`, in the order of the former numbers (1 → 'all' … 5 → 'custom', then the new one). */
export const DATA_SCOPE_TYPES: readonly DataScopeType[] = ['all', 'own', 'ownDept', 'ownDeptAndChildren', 'custom', 'ownCompanyAndChildren'];

/** True when `v` is the name of a data scope type. */
export function isDataScopeType(v: unknown): v is DataScopeType {
  return typeof v === 'string' && (DATA_SCOPE_TYPES as readonly string[]).includes(v);
}

/** A data scope granted to a role for one resource (blade_scope_data). */
export interface DataScope {
  /** The resource (schema name, e.g. `basic/patent`) it applies to. */
  resourceCode: string;
  /** The column compared (snake_case): a department column, or `create_user` for `own`. */
  scopeColumn: string;
  scopeType: DataScopeType;
  /** For `custom`: a comma list of department ids; unused by the other types. */
  scopeValue: string | null;
}

interface RoleGrants {
  at: number;
  codes: Set<string>;
  dataScopes: DataScope[];
  /** The role's API scopes, compiled; empty = the role is not limited to any endpoints. */
  apiScopes: ApiScope[];
}

/**
 * What each role is granted: menu and button codes (blade_role_menu), data scopes (blade_role_scope,
 * scope_category 1 → blade_scope_data) and API scopes (scope_category 2 → blade_scope_api). Loaded per role on
 * first use, kept 30 s, dropped by `invalidate()` (the `grants` notification of `kc_cache`).
 */
export class GrantCache {
  private readonly byRole = new Map<string, RoleGrants>();
  constructor(private readonly db: Db) {}

  /** Forgets every role's grants (the next question reloads them). */
  invalidate(): void {
    this.byRole.clear();
  }

  private async load(roleId: string): Promise<RoleGrants> {
    const hit = this.byRole.get(roleId);
    if (hit && Date.now() - hit.at < TTL_MS) return hit;
    if (!/^\d{1,19}$/.test(roleId)) {
      // not a role id (a token never carries one, but the cache must not pass it to a bigint comparison)
      return { at: Date.now(), codes: new Set(), dataScopes: [], apiScopes: [] };
    }
    const [menus, scopes, apis] = await Promise.all([
      sql<{ code: string }>`
        SELECT m.code FROM blade_role_menu rm JOIN blade_menu m ON m.id = rm.menu_id
         WHERE rm.role_id = ${roleId} AND m.is_deleted = 0`.execute(this.db),
      sql<{ resource_code: string; scope_column: string; scope_type: string; scope_value: string | null }>`
        SELECT s.resource_code, s.scope_column, s.scope_type, s.scope_value
          FROM blade_role_scope rs JOIN blade_scope_data s ON s.id = rs.scope_id
         WHERE rs.role_id = ${roleId} AND rs.scope_category = 1 AND s.is_deleted = 0`.execute(this.db),
      sql<{ id: string; scope_path: string; scope_method: string }>`
        SELECT s.id::text AS id, s.scope_path, s.scope_method
          FROM blade_role_scope rs JOIN blade_scope_api s ON s.id = rs.scope_id
         WHERE rs.role_id = ${roleId} AND rs.scope_category = 2 AND s.is_deleted = 0`.execute(this.db),
    ]);
    const g: RoleGrants = {
      at: Date.now(),
      codes: new Set(menus.rows.map((r) => r.code)),
      dataScopes: scopes.rows.map((r) => ({
        resourceCode: r.resource_code,
        scopeColumn: r.scope_column,
        // the CHECK constraint of migration 0006 admits only the names; anything else would be a corrupt row,
        // which must restrict rather than widen: a custom scope without departments shows nothing
        scopeType: isDataScopeType(r.scope_type) ? r.scope_type : 'custom',
        scopeValue: isDataScopeType(r.scope_type) ? r.scope_value : null,
      })),
      apiScopes: apis.rows.map((r) => compileApiScope(r.id, r.scope_path, r.scope_method)),
    };
    this.byRole.set(roleId, g);
    return g;
  }

  /** True when one of `roleIds` is granted the menu or button `code`. */
  async hasCode(roleIds: string[], code: string): Promise<boolean> {
    for (const r of roleIds) if ((await this.load(r)).codes.has(code)) return true;
    return false;
  }

  /**
   * The data scopes `roleIds` hold on `resourceCode`. An empty list means some role has no scope for the
   * resource, or an `all` scope, which (as in BladeX) means no row restriction; roles combine by union, so one
   * unrestricted role lifts the restriction.
   */
  async dataScopes(roleIds: string[], resourceCode: string): Promise<DataScope[]> {
    const out: DataScope[] = [];
    for (const r of roleIds) {
      const s = (await this.load(r)).dataScopes.filter((d) => d.resourceCode === resourceCode);
      if (s.length === 0 || s.some((d) => d.scopeType === 'all')) return [];
      out.push(...s);
    }
    return out;
  }

  /**
   * The API scopes that limit `roleIds`, or null when they are not limited (DESIGN §5 'API scope check';
   * BladeX api scopes). A role granted no API scope is unrestricted, and roles combine by union: so the
   * answer is null as soon as one role has none (and for an empty role list); otherwise it is every scope
   * of every role, and a request must match one of them.
   */
  async apiScopes(roleIds: string[]): Promise<ApiScope[] | null> {
    if (roleIds.length === 0) return null;
    const out: ApiScope[] = [];
    for (const r of roleIds) {
      const s = (await this.load(r)).apiScopes;
      if (s.length === 0) return null;
      out.push(...s);
    }
    return out;
  }
}

/** Subscribes both caches to `kc_cache` notifications (payload `org:<tenantId>` or `grants`). */
export async function listenForCacheChanges(channels: Channels, org: OrgCache, grants: GrantCache): Promise<void> {
  await channels.subscribe(CHANNEL.cache, (payload) => {
    if (payload.startsWith('org:')) org.invalidate(payload.slice(4));
    else if (payload === 'grants') grants.invalidate();
  });
}
