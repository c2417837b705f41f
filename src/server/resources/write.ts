/**
 * The write path of the resource engine (DESIGN §4, §5): `submit` (insert or update from a request body) and
 * `remove` (logical delete), each one transaction, enforcing for every resource what its schema declares —
 * no code names a resource:
 *
 * 1. grants (`Access.authorize`: add / edit / remove; platform resources only by platform administrators);
 * 2. `actions.locked`: a record whose status is one of them can be neither edited nor removed
 *    (400 当前状态为「待审核」，不能修改 / 不能删除; administrators may still remove, so a wrong record can be
 *    cleared);
 * 3. `x-server-only` fields (and the `actions.statusField` in any case): whatever the body says, an update
 *    keeps the stored value and an insert gets the field's default — only workflow actions and hooks write
 *    them; an `x-write-only` field (never read back) is left as stored by an update unless a hook sets it;
 * 4. `rules` of kind `clear`: fields emptied unless their condition holds (before validation);
 * 5. the fields' own rules (validate.ts: required, types, lengths, formats …, the schema's messages);
 * 6. `rules` of kinds `before` (cross-field order) and `sum` (Σ fields = a total): 400 on the rule's field with
 *    its message (src/shared/schema/rules.ts);
 * 7. `x-ref` fields: the referenced department, user or record exists, live, in the caller's tenant (and, for a
 *    resource with `selectWhere`, holds those values: only an approved supplier can be named)
 *    (400 <label>不存在);
 *    `unique` sets: no other live record of the tenant holds the same values (400 with the set's message);
 * 8. module hooks (before/after submit and remove, inside the transaction);
 * 9. `removeGuard` (remove only): refused with the guard's message while live rows of another table (or the
 *    same one: child departments) reference a removed record;
 * then the row is written and the table's cached counts are dropped on every node (`engine.changed`), and,
 * once the transaction committed, the hooks' `afterCommit` run (outside it: files, sessions …).
 * With `audit: true` the write also leaves a row in the usual log (blade_log_usual, same transaction): who
 * (user_id, create_by = account, tenant_id), when (create_time), what (log_id `<resource>:<add|edit|remove>`,
 * log_data JSON `{resource, action, ids, changes}` where `changes` maps a field to `{from, to}`; an
 * `x-write-only` field's values are never written there).
 *
 * Nothing half-written survives a failure: every step runs in the transaction, a thrown error rolls it back.
 */
import { ApiError, ValidationError } from '../core/envelope.js';
import { nextId } from '../core/ids.js';
import { writeAudit } from './audit.js';
import type { AuthUser } from '../core/context.js';
import { labelOf, SYSTEM_FIELDS, type ColumnDef } from '../../shared/schema/derive.js';
import { resolveTemplate } from '../../shared/schema/expression.js';
import { isId } from '../../shared/contract/ids.js';
import type { Lang } from '../../shared/i18n/messages.js';
import { t } from '../../shared/i18n/messages.js';
import type { FormNode, RecordRule } from '../../shared/schema/types.js';
import { ruleFaults } from '../../shared/schema/rules.js';
import type { Db } from '../core/db/index.js';
import type { ResourceEngine, SubmitHookContext, RemoveHookContext, CommitHookContext } from './engine.js';
import type { Resource } from './registry.js';
import { Conditions, quote, writeOnlyFields } from './query.js';
import { statusLabel, statusOf } from './status.js';
import type { FieldFault } from './validate.js';
import { uniqueFaults } from './unique.js';

type Row = Record<string, unknown>;

const present = (v: unknown) => v !== undefined && v !== null && v !== '';

/** Refuses to edit (`what` = 'edit') or remove a record whose status is one of the schema's `actions.locked`. */
async function refuseLocked(r: Resource, record: Row, what: 'edit' | 'remove', db: Db): Promise<void> {
  const spec = r.schema.actions;
  if (!spec?.statusField || !spec.locked?.length) return;
  const cur = statusOf(r, record);
  if (!spec.locked.includes(cur)) return;
  const l = await statusLabel(db, spec, cur);
  throw new ApiError(
    400,
    what === 'edit'
      ? { zh: `当前状态为「${l.zh}」，不能修改`, en: `The record is ${l.en.toLowerCase()} and cannot be changed` }
      : { zh: `当前状态为「${l.zh}」，不能删除`, en: `The record is ${l.en.toLowerCase()} and cannot be removed` },
  );
}

/** Keeps every server-only field (and the status field) as stored, or at its default for a new record. */
function keepServerOnly(r: Resource, values: Row, existing: Row | null): void {
  const statusField = r.schema.actions?.statusField;
  const hidden = writeOnlyFields(r);
  for (const f of r.fields) {
    if (existing && hidden.has(f.name)) {
      delete values[f.name]; // never read back, so an update leaves the column alone unless a hook sets it
      continue;
    }
    if (f.node['x-server-only'] !== true && f.name !== statusField) continue;
    const def = f.node.default === undefined ? null : structuredClone(f.node.default);
    values[f.name] = existing ? (existing[f.name] ?? def) : def;
  }
}

/** Applies the `clear` rules: their fields become null unless the condition holds over the record. */
function applyClearRules(rules: RecordRule[], values: Row): void {
  for (const rule of rules) {
    if (!('clear' in rule)) continue;
    if (resolveTemplate(rule.unless, { $values: values }) === true) continue;
    for (const f of rule.clear) if (f in values) values[f] = null;
  }
}

/** Every value an `x-ref` field holds in `values`, with the field's path and node (arrays and sub-forms walked). */
function refValues(node: FormNode, value: unknown, path: string, out: Array<{ path: string; node: FormNode; ids: string[] }>): void {
  if (value === null || value === undefined) return;
  const ref = node['x-ref'];
  if (typeof ref === 'string') {
    const list = Array.isArray(value) ? value : String(value).split(',');
    const ids = list.map((v) => String(v).trim()).filter((v) => v !== '');
    if (ids.length) out.push({ path, node, ids });
    return;
  }
  if (node.type === 'array' && node.items && Array.isArray(value)) {
    value.forEach((item, i) => refValues(node.items!, item, `${path}.${i}`, out));
    return;
  }
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    if (child.type === 'void') refValues(child, value, path, out);
    else if (value && typeof value === 'object' && !Array.isArray(value)) refValues(child, (value as Row)[name], path ? `${path}.${name}` : name, out);
  }
}

/** The faults of `x-ref` fields whose referenced rows do not exist, live, in the caller's tenant. */
async function refFaults(engine: ResourceEngine, r: Resource, user: AuthUser, values: Row, trx: Db): Promise<FieldFault[]> {
  const found: Array<{ path: string; node: FormNode; ids: string[] }> = [];
  refValues(r.schema.form, values, '', found);
  const faults: FieldFault[] = [];
  for (const { path, node, ids } of found) {
    const ref = node['x-ref'] as string;
    const name = path.split('.').pop()!;
    const fault = () => faults.push({ field: path, message: t('refMissing', 'zh', { label: labelOf(node, name, 'zh') }), messageEn: t('refMissing', 'en', { label: labelOf(node, name, 'en') }) });
    let table: string;
    let keyCol = 'id';
    let tenant = true;
    let bigintKey = true;
    let where: Array<[string, string]> = [];
    if (ref === 'dept' || ref === 'user') table = ref === 'dept' ? 'blade_dept' : 'blade_user';
    else {
      const target = engine.registry.resources.get(ref);
      if (!target) {
        fault();
        continue;
      }
      table = target.schema.table;
      keyCol = target.keyColumn;
      tenant = target.tenantScoped;
      bigintKey = target.byField.get(target.key)!.sqlType === 'bigint';
      // a resource that offers only some records to pick (`selectWhere`: approved suppliers …) is referenced only by them
      where = Object.entries(target.schema.selectWhere ?? {}).map(([f, v]) => [target.byField.get(f)?.column ?? '', String(v)]);
    }
    if (bigintKey && !ids.every(isId)) {
      fault();
      continue;
    }
    const unique = [...new Set(ids)];
    const params: unknown[] = [unique];
    let sqlText = `SELECT count(*)::int AS n FROM ${quote(table)} WHERE ${quote(keyCol)} = ANY($1::${bigintKey ? 'bigint' : 'text'}[]) AND is_deleted = 0`;
    if (tenant) {
      params.push(user.tenantId);
      sqlText += ` AND tenant_id = $2`;
    }
    for (const [col, v] of where) {
      params.push(v);
      sqlText += col ? ` AND ${quote(col)}::text = $${params.length}` : ' AND FALSE';
    }
    const [{ n }] = await engine.query<{ n: number }>(sqlText, params, trx);
    if (n !== unique.length) fault();
  }
  return faults;
}

/** Insert (no key in the body) or update (a key): answers the saved record. See the module comment. */
export async function submitRecord(engine: ResourceEngine, r: Resource, user: AuthUser, body: unknown, lang: Lang): Promise<Row> {
  return (await submitRecords(engine, r, user, [body], lang))[0];
}

/**
 * Several submits (each as `submitRecord`) in one transaction: all saved, or — at the first refusal, whose
 * error is thrown as it is — none (a batch of picks, `batchSave`). The afterCommit hooks run once it committed.
 */
export async function submitRecords(engine: ResourceEngine, r: Resource, user: AuthUser, bodies: unknown[], lang: Lang): Promise<Row[]> {
  r = engine.current(r);
  const hooks = engine.hooksOf(r.schema.name);
  const done: CommitHookContext[] = [];
  const cur = r;
  return engine.db
    .transaction()
    .execute(async (trx) => {
      const out: Row[] = [];
      for (const body of bodies) {
        const one = await submitIn(engine, cur, user, body, lang, trx);
        out.push(one.saved);
        done.push(one.done);
      }
      return out;
    })
    .finally(() => engine.changed(cur.schema.table))
    .then(async (saved) => {
      for (const d of done) for (const h of hooks) await h.afterCommit?.(d);
      return saved;
    });
}

/** One submit inside `trx`: the checks, hooks and write of the module comment; the saved record and its commit context. */
async function submitIn(engine: ResourceEngine, r: Resource, user: AuthUser, body: unknown, lang: Lang, trx: Db): Promise<{ saved: Row; done: CommitHookContext }> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new ApiError(400, 'bodyNotObject');
  const input: Row = { ...(body as Row) };
  for (const f of SYSTEM_FIELDS) delete input[f];
  const hooks = engine.hooksOf(r.schema.name);
  const rules = r.schema.rules ?? [];
  const keyValue = input[r.key];
  let existing: Row | null = null;
  if (present(keyValue)) {
    if (typeof keyValue !== 'string' && typeof keyValue !== 'number') throw new ApiError(400, 'badParam', { param: r.key });
    const k = String(keyValue);
    if (r.key === 'id' && !isId(k)) throw new ApiError(400, 'badParam', { param: 'id' });
    // an id names an edit: a caller who may not edit gets 403 before learning whether the id exists
    if (r.key === 'id') await engine.authorize(user, r, 'edit');
    existing = await engine.findOne(r, user, k, trx, true);
    if (!existing && r.key === 'id') throw new ApiError(404, 'notFound');
  }
  const isNew = !existing;
  await engine.authorize(user, r, isNew ? 'add' : 'edit');
  if (existing) await refuseLocked(r, existing, 'edit', trx);
  let values: Row;
  if (existing) {
    values = {};
    for (const f of r.fields) values[f.name] = existing[f.name];
    Object.assign(values, input);
    if (r.key === 'id') values.id = existing.id;
  } else {
    values = { ...input };
    if (r.key === 'id') delete values.id;
    for (const f of r.fields) if (values[f.name] === undefined && f.node.default !== undefined) values[f.name] = structuredClone(f.node.default);
  }
  keepServerOnly(r, values, existing);
  applyClearRules(rules, values);
  engine.validate(r, values);
  const faults = [...ruleFaults(rules, values), ...(await refFaults(engine, r, user, values, trx)), ...(await uniqueFaults(engine, r, user, values, existing, trx))];
  if (faults.length) throw new ValidationError(faults);
  const ctx: SubmitHookContext = { user, resource: r, trx, lang, isNew, record: values, existing: existing ?? undefined };
  for (const h of hooks) await h.beforeSubmit?.(ctx);
  const row = isNew ? await insertRow(engine, r, user, ctx.record, trx) : await updateRow(engine, r, user, ctx.record, existing!, trx);
  const saved = engine.toRecord(r, row);
  if (r.schema.audit) await auditWrite(r, user, isNew ? 'add' : 'edit', [String(row[r.keyColumn])], auditChanges(r, existing, saved), trx);
  for (const h of hooks) await h.afterSubmit?.({ ...ctx, saved });
  return { saved, done: { user, resource: r, lang, action: isNew ? 'add' : 'edit', ids: [String(row[r.keyColumn])], saved } };
}

/** A bind parameter for `v` in column `c` (JSON columns get their text and a cast). */
function binder(params: unknown[]) {
  return (v: unknown, c: ColumnDef) => {
    params.push(c.kind === 'json' && v !== null && v !== undefined ? JSON.stringify(v) : (v ?? null));
    return `$${params.length}${c.kind === 'json' ? '::jsonb' : ''}`;
  };
}

async function insertRow(engine: ResourceEngine, r: Resource, user: AuthUser, data: Row, trx: Db): Promise<Row> {
  const params: unknown[] = [];
  const p = binder(params);
  const cols: string[] = [];
  const vals: string[] = [];
  const set = (column: string, v: string) => {
    cols.push(quote(column));
    vals.push(v);
  };
  if (r.key === 'id') {
    params.push(nextId());
    set('id', `$${params.length}::bigint`);
  }
  if (r.tenantScoped) {
    params.push(user.tenantId);
    set('tenant_id', `$${params.length}`);
  }
  for (const f of r.fields) {
    const c = r.byField.get(f.name)!;
    if (data[c.field] !== undefined) set(c.column, p(data[c.field], c));
  }
  params.push(user.userId, user.deptId || null);
  set('create_user', `$${params.length - 1}::bigint`);
  set('create_dept', `$${params.length}::bigint`);
  set('update_user', `$${params.length - 1}::bigint`);
  if (r.key !== 'id') {
    // a user-given key freed by a logical delete can be used again: the deleted row gives way
    await engine.query(`DELETE FROM ${quote(r.schema.table)} WHERE ${quote(r.keyColumn)} = $1 AND is_deleted = 1`, [String(data[r.key])], trx);
  }
  try {
    const [row] = await engine.query(`INSERT INTO ${quote(r.schema.table)} (${cols.join(', ')}) VALUES (${vals.join(', ')}) RETURNING *`, params, trx);
    return row;
  } catch (e) {
    if ((e as { code?: string }).code !== '23505') throw e;
    const node = r.fields.find((f) => f.name === r.key)?.node ?? {};
    throw new ValidationError([{ field: r.key, message: t('duplicateKey', 'zh', { label: labelOf(node, r.key, 'zh') }), messageEn: t('duplicateKey', 'en', { label: labelOf(node, r.key, 'en') }) }]);
  }
}

async function updateRow(engine: ResourceEngine, r: Resource, user: AuthUser, data: Row, existing: Row, trx: Db): Promise<Row> {
  const params: unknown[] = [];
  const p = binder(params);
  const hidden = writeOnlyFields(r);
  const sets = r.fields.filter((f) => f.name !== r.key && !(hidden.has(f.name) && data[f.name] === undefined)).map((f) => {
    const c = r.byField.get(f.name)!;
    return `${quote(c.column)} = ${p(data[c.field], c)}`;
  });
  params.push(user.userId);
  sets.push(`update_user = $${params.length}::bigint`, 'update_time = now()');
  params.push(String(existing[r.key]));
  const keyCast = r.byField.get(r.key)!.sqlType === 'bigint' ? '::bigint' : '';
  const [row] = await engine.query(`UPDATE ${quote(r.schema.table)} SET ${sets.join(', ')} WHERE ${quote(r.keyColumn)} = $${params.length}${keyCast} RETURNING *`, params, trx);
  return row;
}

/** Logical delete of `ids` (a comma list): all visible to the caller, or 404 and nothing changes; `set` (field → value) is written with it. */
export async function removeRecords(engine: ResourceEngine, r: Resource, user: AuthUser, idsParam: unknown, lang: Lang, set: Row = {}): Promise<number> {
  if (typeof idsParam !== 'string' || idsParam.trim() === '') throw new ApiError(400, 'idsRequired');
  r = engine.current(r);
  const ids = [...new Set(idsParam.split(',').map((s) => s.trim()).filter(Boolean))];
  const keyIsId = r.byField.get(r.key)!.sqlType === 'bigint';
  if (ids.length > 1000 || ids.some((id) => (keyIsId ? !isId(id) : id.length > 100))) throw new ApiError(400, 'badParam', { param: 'ids' });
  const hooks = engine.hooksOf(r.schema.name);
  return engine.db
    .transaction()
    .execute(async (trx) => {
      const cond = new Conditions();
      await engine.scope(r, user, cond);
      cond.add(`${quote(r.keyColumn)} = ANY(${cond.param(ids)}${keyIsId ? '::bigint[]' : '::text[]'})`);
      const statusField = r.schema.actions?.statusField;
      if (statusField && r.schema.actions?.locked?.length && !user.isAdmin) {
        const rows = await engine.query(`SELECT ${quote(r.byField.get(statusField)!.column)} AS s FROM ${quote(r.schema.table)} WHERE ${cond.sql()} FOR UPDATE`, cond.params, trx);
        for (const row of rows) await refuseLocked(r, { [statusField]: row.s }, 'remove', trx);
      }
      const ctx: RemoveHookContext = { user, resource: r, trx, lang, ids };
      for (const h of hooks) await h.beforeRemove?.(ctx);
      for (const g of r.schema.removeGuard ?? []) {
        const gp: unknown[] = [ids];
        let gsql = `SELECT 1 FROM ${quote(g.table)} WHERE ${quote(g.column)}::text = ANY($1::text[]) AND is_deleted = 0`;
        if (g.tenant !== false) {
          gp.push(user.tenantId);
          gsql += ` AND tenant_id = $2`;
        }
        if ((await engine.query(`${gsql} LIMIT 1`, gp, trx)).length) throw new ApiError(400, { zh: g.message, en: g.messageEn });
      }
      const params = [...cond.params, user.userId];
      const by = params.length;
      // fields written with the delete (a reason: project/expert delete's deleteReason), by field name
      const extra = Object.entries(set).map(([f, v]) => {
        const c = r.byField.get(f);
        if (!c) throw new Error(`removeRecords: no field ${f} in ${r.schema.name}`);
        params.push(v);
        return `, ${quote(c.column)} = $${params.length}`;
      }).join('');
      const done = await engine.query(
        `UPDATE ${quote(r.schema.table)} SET is_deleted = 1, update_user = $${by}::bigint, update_time = now()${extra} WHERE ${cond.sql()} RETURNING ${quote(r.keyColumn)}`,
        params,
        trx,
      );
      if (done.length !== ids.length) throw new ApiError(404, 'notFound'); // rolls back: all or nothing
      if (r.schema.audit) await auditWrite(r, user, 'remove', ids, {}, trx);
      for (const h of hooks) await h.afterRemove?.(ctx);
      return done.length;
    })
    .finally(() => engine.changed(r.schema.table))
    .then(async (n) => {
      for (const h of hooks) await h.afterCommit?.({ user, resource: r, lang, action: 'remove', ids });
      return n;
    });
}

/**
 * The fields whose value changed between the record `before` (null for an insert) and the saved record
 * `after`, as `{field: {from, to}}`; `x-write-only` fields are in neither record and so never logged.
 */
function auditChanges(r: Resource, before: Row | null, after: Row): Record<string, { from: unknown; to: unknown }> {
  const hidden = writeOnlyFields(r);
  const out: Record<string, { from: unknown; to: unknown }> = {};
  for (const f of r.fields) {
    if (hidden.has(f.name)) continue;
    const from = before ? (before[f.name] ?? null) : null;
    const to = after[f.name] ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to)) out[f.name] = { from, to };
  }
  return out;
}

/** Writes one audit row of `r` (schema key `audit`) to the usual log, in the write's transaction (audit.ts). */
async function auditWrite(r: Resource, user: AuthUser, action: 'add' | 'edit' | 'remove', ids: string[], changes: Row, trx: Db): Promise<void> {
  await writeAudit(trx, user, {
    resource: r.schema.name, title: r.schema.title, titleEn: r.schema.titleEn, action, ids, changes,
    requestUri: `${r.schema.api}/${action === 'remove' ? 'remove' : 'submit'}`,
  });
}
