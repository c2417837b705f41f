/**
 * The smart-document and bidding area (issue 17; spec 002 §1, §2 "Smart-document screens", §7 smartdoc/*): bidding
 * projects, the catalogue analysed from their tender documents, the chapters written by their writers, who may
 * read or edit which chapter, and the chapters merged into one bidding document.
 *
 * - schemas (schemas/smartdoc/): `smartdoc/biddingbaseinfo` (the project: leader, cooperating users, tender
 *   document; its generic list, detail, submit, remove and — engine key `userLists` — myProject and
 *   myCooperationProject), `smartdoc/biddingcatalogue` (headings and requirements, each chapter's writer and
 *   document), `smartdoc/userfilescope` (read / edit rights per chapter and user);
 * - project.ts: analysis-file, initSave, merge and the managers' rule on edits; tender.ts: the analysis;
 *   docx.ts: chapter documents and the merge; catalogue.ts: getProjectCatalogue, getFileCatalogue, batchSave;
 *   scope.ts: myScope, project-user-file-scope, saveChange, deleteOne; chapter-access.ts: the rule of who may
 *   read or edit a chapter, added to the kernel's file access rules (core/file-access.ts) so that the online
 *   editor applies it to a chapter's document; stored.ts: the files (blade_attach rows in the files store).
 */
import path from 'node:path';
import type { Module } from '../../core/module.js';
import { LocalFileStore } from '../../core/file-store.js';
import { registerChapterRule } from './chapter-access.js';
import { registerProjectCalls } from './project.js';
import { registerCatalogue } from './catalogue.js';
import { registerScope } from './scope.js';
import { BidFiles } from './stored.js';

export const module: Module = {
  name: 'smartdoc',
  routes(app, k) {
    const db = k.database.db;
    const files = new BidFiles(db, new LocalFileStore(path.join(k.config.dataDir, 'files')), k.config.timeZone);
    registerChapterRule(k, db); // the online editor asks it before opening or saving a chapter (core/file-access.ts)
    registerProjectCalls(app, db, k.engine, files);
    registerCatalogue(app, db, k.engine);
    registerScope(app, db, k.engine);
  },
};
