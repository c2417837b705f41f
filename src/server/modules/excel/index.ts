/**
 * The Excel area (spec 002 §2, §4, §5, §7, §8; DESIGN §8 "Excel"; issue 13): templates and their columns
 * (templates.ts), export (export.ts) and import (import.ts, import-route.ts, its faults: error-workbook.ts) through exceljs's streaming reader
 * and writer, both as jobs when large (core/jobs.ts), the cells' translation (resources/translate.ts), the report list of
 * generated files (report.ts), the seeded templates (seed.ts), and a resource's own names for these calls
 * (schema key `excelCalls`: aliases.ts). Its tables come from its schemas
 * (schemas/system/exceltemplate.json, exceltemplatedetail.json, report.json) through table sync.
 *
 * Configuration: `EXCEL_INLINE_ROWS` (default 5,000: larger exports run as jobs), `EXCEL_INLINE_BYTES`
 * (default 1 MiB: larger imports run as jobs), uploads up to `UPLOAD_MAX_MB` (default 50).
 */
import type { Module } from '../../core/module.js';
import { registerTemplateRoutes } from './templates.js';
import { registerExportRoutes } from './export.js';
import { registerImportRoute } from './import-route.js';
import { registerReportRoutes } from './report.js';
import { seedTemplates } from './seed.js';
import { registerExcelAliases } from './aliases.js';

const envInt = (name: string, def: number) => {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : def;
};

export const module: Module = {
  name: 'excel',
  async routes(app, k) {
    const common = { engine: k.engine, grants: k.grants, jobs: k.jobs, timeZone: k.config.timeZone };
    registerTemplateRoutes(app, k.engine);
    await registerExportRoutes(app, { ...common, inlineRows: envInt('EXCEL_INLINE_ROWS', 5000) });
    await registerImportRoute(app, { ...common, maxBytes: envInt('UPLOAD_MAX_MB', 50) * 1024 * 1024, inlineBytes: envInt('EXCEL_INLINE_BYTES', 1024 * 1024) });
    registerReportRoutes(app, k.engine, k.jobs);
    await registerExcelAliases(app, k.engine, envInt('UPLOAD_MAX_MB', 50) * 1024 * 1024); // a schema's excelCalls (aliases.ts)
  },
  async seed(k) {
    await seedTemplates(k.database.db, k.engine);
  },
};
