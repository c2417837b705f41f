/**
 * The files area (spec 002 §7 `blade-resource/oss/endpoint`): uploads checked by type, size and magic bytes,
 * stored under DATA_DIR/files, and served to signed-in users (routes.ts); the attachment administration over
 * the upload records (`blade-resource/attach`, attach.ts).
 */
import type { Module } from '../../core/module.js';
import { registerFileRoutes } from './routes.js';

export const module: Module = {
  name: 'files',
  async routes(app, k) {
    await registerFileRoutes(app, { db: k.database.db, dataDir: k.config.dataDir, timeZone: k.config.timeZone, engine: k.engine });
  },
};
