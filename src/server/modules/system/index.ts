/**
 * The system area (spec 000 §7, spec 002 §3–§7): menus, departments and dictionary reads (routes.ts), the
 * dictionaries' rules and extra endpoints (dict.ts), regions' derived columns (region.ts), and the schema
 * store's endpoints for the designer (schema-routes.ts), the user administration (users.ts), the ban-IP list
 * (banip.ts), version history (versions.ts), message settings (msgsetting.ts), the menu panel (menupanel.ts), banners (banners.ts). Seeds live
 * in seed/ and run from the kernel at start (seed/menu-sync.ts adds new menus to existing databases).
 */
import type { Module } from '../../core/module.js';
import { registerSystemRoutes } from './routes.js';
import { registerRegionHooks } from './region.js';
import { registerDictModule } from './dict.js';
import { registerSchemaRoutes } from './schema-routes.js';
import { registerRoleModule } from './roles.js';
import { registerMenuModule } from './menus.js';
import { registerBanIpModule } from './banip.js';
import { registerVersionModule } from './versions.js';
import { channelsOfUsers, registerMsgSettingModule } from './msgsetting.js';
import { messageChannels } from '../../core/message-channels.js';
import { registerMenuPanelModule } from './menupanel.js';
import { registerClientParams } from './client-params.js';
import { registerBannerHooks } from './banners.js';
import { migrations } from './migrations.js';
import { syncSeedMenus } from './seed/menu-sync.js';
import { registerScopeHooks } from './scopes.js';
import { registerUserModule } from './users.js';
import { registerUserDirectory } from './user-directory.js';
import { registerOrgModule } from './org.js';
import { registerTenantModule } from './tenants.js';
import { registerLogModule } from './logs.js';
import { registerAccountModule } from './account.js';
import { registerAccountSmsModule } from './account-sms.js';

export const module: Module = {
  name: 'system',
  migrations, // kc_seeded_menu (menu sync), kc_login_failure (automatic IP bans): migrations.ts
  async seed(k) {
    await syncSeedMenus(k.database.db); // menus added to the seed's tree since this database was seeded (seed/menu-sync.ts)
  },
  routes(app, k) {
    registerSystemRoutes(app, k.database.db);
    registerRegionHooks(k.engine);
    registerDictModule(app, k.engine);
    registerSchemaRoutes(app, k.schemas);
    registerRoleModule(app, k.engine, k.grants); // roles, role grants and the grant trees (roles.ts)
    registerMenuModule(app, k.engine, k.grants); // menus and top menus (menus.ts)
    registerBanIpModule(app, k.engine, k.grants); // ban-IP list, unseal, banned logins, automatic bans (banip.ts)
    registerVersionModule(app, k.engine); // version history, startVersion, selectVersion (versions.ts)
    registerMsgSettingModule(app, k.engine); // getMySetting, saveMySetting (msgsetting.ts)
    // who receives which kinds of notice by which channels, for the senders of other modules (core/message-channels.ts)
    messageChannels.ofUsers = (db, tenantId, users, kind) => channelsOfUsers(k.engine, db, tenantId, users, kind);
    registerMenuPanelModule(app, k.engine); // getMyPanel, getDefaultPanel, saveMyPanel, configurationDefaultPanel (menupanel.ts)
    registerClientParams(app, k.database.db); // the parameters the web client reads, disable_devtool (client-params.ts)
    registerBannerHooks(k.engine); // banners (banners.ts)
    registerScopeHooks(k.engine, k.grants); // data scopes and API scopes (scopes.ts)
    registerUserModule(app, k);
    registerUserDirectory(app, k.database.db); // the user picker's directory (user-directory.ts)
    registerOrgModule(app, k.engine, k.org); // departments and posts (org.ts)
    registerTenantModule(app, k.engine, k.database, k.embedded !== undefined, () => k.reseed()); // tenants, clients, parameters (tenants.ts)
    registerLogModule(app, k.database.db); // client error upload and log retention (logs.ts)
    registerAccountModule(app, k); // my account: info, password, onboarding status (account.ts)
    registerAccountSmsModule(app, k); // SMS codes, register-guest, outbox (account-sms.ts)
  },
};
