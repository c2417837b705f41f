/**
 * Data scopes and API scopes (spec 002 §6–§7 `blade-system/data-scope` and `blade-system/api-scope`: list,
 * detail, submit, remove; DESIGN §5): the generic resources `system/datascope` (blade_scope_data) and
 * `system/apiscope` (blade_scope_api), schemas/system/datascope.json and apiscope.json. Both are platform
 * rows (the tables have no tenant_id): definitions attached to a menu (`menuId`), granted to a tenant's roles
 * through `role/grant`, written only by administrators of tenant 000000 (`scope.platform`).
 *
 * What the schemas cannot say, checked here inside the engine's transaction:
 * - `resourceCode` names a resource the registry serves now (400 资源 {resource} 不存在 on that field) — a data
 *   scope on an unknown resource would never apply, which an administrator would not notice;
 * - data scope types are the names of `DataScopeType` (context.ts; the schema's enum, and the database's CHECK
 *   of migration 0006 behind it); API scope methods as migration 0006's CHECK admits (the schema's pattern).
 *
 * Enforcement is core's (resources/access.ts for data scopes, core/api-scope.ts for API scopes), through
 * `GrantCache`. A change here changes what granted roles may do, so every write ends with `grantsChanged`:
 * `NOTIFY kc_cache 'grants'` inside the transaction (delivered on commit to every node, which drops its
 * cache) and the local cache dropped at once, so the grantee's next request reads the new grants.
 */
import { CHANNEL, notify } from '../../core/channels.js';
import type { Db } from '../../core/db/index.js';
import type { GrantCache } from '../../core/context.js';
import { ValidationError } from '../../core/envelope.js';
import type { ResourceEngine } from '../../resources/engine.js';
import { t } from '../../../shared/i18n/messages.js';

/** The resources of this file. */
export const SCOPE_RESOURCES = ['system/datascope', 'system/apiscope'] as const;

/**
 * Role grants or what they point at changed in transaction `trx`: tells every node (NOTIFY, delivered on
 * commit) and drops this node's cache now (a request that reloads it before the commit is corrected by the
 * notification, which this node receives too).
 */
export async function grantsChanged(trx: Db, grants: GrantCache): Promise<void> {
  await notify(trx, CHANNEL.cache, 'grants');
  grants.invalidate();
}

/** Registers the hooks of both scope resources on `engine`. */
export function registerScopeHooks(engine: ResourceEngine, grants: GrantCache): void {
  for (const name of SCOPE_RESOURCES) {
    engine.hooks(name, {
      beforeSubmit({ record }) {
        const code = String(record.resourceCode ?? '');
        if (!engine.registry.resources.has(code)) {
          throw new ValidationError([
            { field: 'resourceCode', message: t('scopeResourceUnknown', 'zh', { resource: code }), messageEn: t('scopeResourceUnknown', 'en', { resource: code }) },
          ]);
        }
      },
      async afterSubmit({ trx }) {
        await grantsChanged(trx, grants);
      },
      async afterRemove({ trx }) {
        await grantsChanged(trx, grants);
      },
    });
  }
}
