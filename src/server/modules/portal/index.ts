/**
 * The content portal (spec 001 §1–§4, §7 "Portal"; spec 002 §7 portal/site; issue 14).
 *
 * - resources (schemas/portal/): `portal/content` (articles with rich text, cover, banner, files, attributes;
 *   examined, released and published through the BPMN process portalPublish, schemas/flows/portal-publish.bpmn,
 *   by the schema's `flow` and `actions`; searchable through `searchByEs`), `portal/channel` (a tree; the
 *   configuration checkboxes 列表页 1 / 内容编辑页 2 / 是否筛选 3, default 1 and 2), `portal/model` (content
 *   models: the extra fields of a channel's content), `portal/contentcomment` (comments with moderation),
 *   `portal/site` (public sites: title, domain, channels, theme);
 * - hooks.ts: rich text sanitised on the server for every RichText field, the content's rules and the
 *   publishing flow's handler; routes.ts: the calls beyond the generic ones and the access statistics;
 *   public.ts: the public pages (no login, released content only, counted; a site's domain leads to it) with
 *   public-files.ts (the released content's files without login); gpt.ts: searchByGPT;
 *   download.ts: downLoadAchievement (the chosen contents with their attachments as a .zip); portal-link.ts: where
 *   the top bar's information-portal link leads (the tenant's sites);
 * - records.ts: journal, CNKI and portal records (schemas with `portalRecord`: portal/journal, portal/cnki,
 *   portal/record) — deleteAll, deleteRuplicate, export-to-portal(-one); import.ts with cnki.ts: import-qikan
 *   (journal catalogue workbooks, CNKI RefWorks / EndNote / NoteExpress exports) as a job, and its status.
 */
import type { Module } from '../../core/module.js';
import { registerDownloadRoute } from './download.js';
import { registerGptRoutes } from './gpt.js';
import { registerPortalHooks } from './hooks.js';
import { registerImportRoutes } from './import.js';
import { migrations } from './migrations.js';
import { registerPublicPages } from './public.js';
import { registerPortalLink } from './portal-link.js';
import { registerPublicFiles } from './public-files.js';
import { registerPublicComments } from './public-comments.js';
import { registerRecordRoutes } from './records.js';
import { registerPortalRoutes } from './routes.js';

export const module: Module = {
  name: 'portal',
  migrations,
  async routes(app, k) {
    const db = k.database.db;
    const pages = registerPublicPages(app, db);
    registerPublicFiles(app, { db, dataDir: k.config.dataDir });
    registerPublicComments(app, db, (table) => k.engine.changed(table));
    registerPortalHooks({ db, engine: k.engine, org: k.org, actions: k.actions, siteChanged: () => pages.domainsChanged() });
    registerPortalRoutes(app, { db, engine: k.engine, grants: k.grants });
    registerPortalLink(app, db); // the top bar's information-portal link (portal-link.ts)
    registerGptRoutes(app, { db, engine: k.engine });
    registerDownloadRoute(app, { db, engine: k.engine, dataDir: k.config.dataDir });
    registerRecordRoutes(app, { db, engine: k.engine });
    await registerImportRoutes(app, { engine: k.engine, jobs: k.jobs });
  },
};
