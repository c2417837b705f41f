/**
 * The files area (spec 002 §7 `blade-resource/oss/endpoint`): uploads checked by type, size and magic bytes,
 * stored under DATA_DIR/files, and served to signed-in users (routes.ts); the attachment administration over
 * the upload records (`blade-resource/attach`, attach.ts); the online editor's versions and edit locks of .docx
 * files (`onlyoffice/endpoint`, editor.ts over versions.ts; per-file rules: core/file-access.ts).
 */
import type { Module } from '../../core/module.js';
import { fileAccessOf } from '../../core/file-access.js';
import { registerFileRoutes } from './routes.js';
import { migrations } from './versions.js';

export const module: Module = {
  name: 'files',
  migrations,
  async routes(app, k) {
    await registerFileRoutes(app, { db: k.database.db, dataDir: k.config.dataDir, timeZone: k.config.timeZone, engine: k.engine, access: fileAccessOf(k) });
  },
};
