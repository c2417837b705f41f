/**
 * Seeded Excel templates (issue 13: 'the achievement lists and the project lists have seeded templates'; 'users
 * export and import through the same machinery'): for every live tenant, one template per achievement type,
 * for project declarations, for project reports and for users (overwrite by the account; the user rules of the system module —
 * unique account, quota, a generated password to change at the first login — run as hooks), named by the menu code
 * (the `<menu>_export` / `<menu>_import` buttons carry it as their path, spec 002 §2), with every field a
 * column may name (templates.ts `columnFields`: the form's fields in order, headers from the schema's zh / en
 * titles) and the overwrite key field below. Idempotent: a tenant that already has a template of the code
 * keeps it (an administrator's changes survive restarts).
 */
import { sql, type Db } from '../../core/db/index.js';
import { nextId } from '../../core/ids.js';
import type { ResourceEngine } from '../../resources/engine.js';
import { columnFields } from './templates.js';

/** Code (the menu's), resource, and the fields that identify a record for overwrite. */
export const SEEDED_TEMPLATES: Array<{ code: string; resource: string; keys: string[] }> = [
  { code: 'patent', resource: 'basic/patent', keys: ['authorizationCode'] },
  { code: 'thesis', resource: 'basic/thesis', keys: ['title'] },
  { code: 'softwarecopyright', resource: 'basic/softwarecopyright', keys: ['code'] },
  { code: 'book', resource: 'basic/book', keys: ['name'] },
  { code: 'award', resource: 'basic/award', keys: ['name'] },
  { code: 'standard', resource: 'basic/standard', keys: ['name'] },
  { code: 'project_baseinfo', resource: 'project/baseinfo', keys: [] },
  { code: 'project_report', resource: 'project/report', keys: [] }, // also behind its own calls (schema excelCalls, aliases.ts)
  { code: 'user', resource: 'system/user', keys: ['account'] },
];

/** Column width (characters) by column kind. */
const width = (kind: string) => (kind === 'json' ? 40 : kind === 'date' || kind === 'boolean' || kind === 'integer' || kind === 'number' ? 14 : 22);

/** Adds the missing seeded templates of every live tenant; answers how many templates were added. */
export async function seedTemplates(db: Db, engine: ResourceEngine): Promise<number> {
  let added = 0;
  const tenants = await sql<{ t: string }>`SELECT tenant_id AS t FROM blade_tenant WHERE is_deleted = 0 ORDER BY tenant_id`.execute(db);
  for (const spec of SEEDED_TEMPLATES) {
    const r = engine.registry.resources.get(spec.resource);
    if (!r) continue;
    const fields = columnFields(r);
    for (const { t: tenantId } of tenants.rows) {
      await db.transaction().execute(async (trx) => {
        await sql`SELECT pg_advisory_xact_lock(hashtext(${`excel-seed:${tenantId}:${spec.code}`}))`.execute(trx);
        const has = await sql`SELECT 1 FROM blade_excel_template WHERE tenant_id = ${tenantId} AND code = ${spec.code} AND is_deleted = 0`.execute(trx);
        if (has.rows.length) return;
        const id = nextId();
        await sql`INSERT INTO blade_excel_template (id, tenant_id, code, file_name, export_data_file_name, table_name, key_columns, partial_import)
                  VALUES (${id}::bigint, ${tenantId}, ${spec.code}, ${r.schema.title}, ${`${r.schema.title}数据`}, ${r.schema.table}, ${spec.keys.join(',') || null}, false)`.execute(trx);
        let sort = 0;
        for (const f of fields) {
          await sql`INSERT INTO blade_excel_template_detail (id, tenant_id, template_id, field, title, title_en, sort, width)
                    VALUES (${nextId()}::bigint, ${tenantId}, ${id}::bigint, ${f.name}, ${f.node.title ?? f.name}, ${f.node.titleEn ?? f.node.title ?? f.name}, ${sort++},
                            ${width(r.byField.get(f.name)!.kind)})`.execute(trx);
        }
        added++;
      });
    }
  }
  if (added) engine.changed('blade_excel_template');
  return added;
}
