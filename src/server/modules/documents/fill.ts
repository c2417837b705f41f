/**
 * A record's Word document (DESIGN §8 "Documents": docxtemplater fills Word templates): the data a template
 * sees, the template built from the form when no uploaded one exists, and the filling.
 *
 * Data (`documentData`): every data field of the form under its own name, as text a reader expects —
 * dictionary and option fields by their label (zh or en), departments by name, booleans 是 / 否, numbers as
 * they are, dates as their text, a referenced user or record (`x-ref`) by its name or label; an array of rows (a sub-form: team members, budget lines) is a list of rows
 * holding the same for their sub-fields, for docxtemplater loops (`{#teamMembers}{name}{/teamMembers}`);
 * attachments by their file names. Plus `_title` (the document's title), `_today` (yyyy-MM-dd) and `_label`
 * (the record's label field).
 *
 * The built template (`formTemplate`): the title, then one paragraph `<field title>：{field}` per scalar field
 * in form order, and per row list a heading and one paragraph per row listing its sub-fields — so every
 * resource with `documents` has a usable document before an administrator uploads a designed one.
 *
 * `fill` answers the .docx; a template docxtemplater cannot parse (an unclosed or misspelt tag) is a 400
 * 模板格式不正确：<what docxtemplater says> — the administrator's upload is at fault, not the server.
 */
import type PizZip from 'pizzip';
import { loadDocxtemplater, loadPizZip } from '../../core/lazy-libs.js';
import { ApiError } from '../../core/envelope.js';
import { sql } from '../../core/db/index.js';
import type { Resource } from '../../resources/registry.js';
import type { Db } from '../../core/db/index.js';
import { labelOf, type ColumnDef } from '../../../shared/schema/derive.js';
import type { FormNode } from '../../../shared/schema/types.js';
import type { Lang } from '../../../shared/i18n/messages.js';
import { Translator, translationOf, type TemplateColumn } from '../../resources/translate.js';

type Row = Record<string, unknown>;
const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export const DOC_MESSAGES = {
  badTemplate: (why: string) => ({ zh: `模板格式不正确：${why}`, en: `The template is not valid: ${why}` }),
};

/** The columns of `node`'s data fields (a form, or a row's `items`), for the translator. */
function columnsOf(r: Resource, node: FormNode, top = true): TemplateColumn[] {
  const out: TemplateColumn[] = [];
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    if (child.type === 'void') {
      out.push(...columnsOf(r, child, top));
      continue;
    }
    // a row's sub-field has no column of its own: it is read as the text or number it holds
    const col: ColumnDef = (top ? r.byField.get(name) : undefined) ?? { field: name, column: name, sqlType: 'text', kind: child.type === 'number' || child.type === 'integer' ? 'number' : 'text' };
    out.push({ field: name, title: labelOf(child, name, 'zh'), titleEn: labelOf(child, name, 'en'), width: 0, node: child, col, translation: translationOf(child) });
  }
  return out;
}

const isRows = (n: FormNode) => n.type === 'array' && !!n.items?.properties && n['x-component'] !== 'FileUpload';
const isFiles = (n: FormNode) => n['x-component'] === 'FileUpload' || n['x-component'] === 'Upload';

/**
 * The labels of the top-level `x-ref` fields of `record` that name a user or a resource (departments are the
 * translator's): a user by real name, a record by its resource's `labelField` — read in the caller's tenant, so
 * an id of another tenant stays as it is. Answers field → text (several ids joined with 、).
 */
async function refLabels(db: Db, resources: ReadonlyMap<string, Resource>, tenantId: string, cols: TemplateColumn[], record: Row): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const c of cols) {
    const ref = c.node['x-ref'];
    const v = record[c.field];
    if (typeof ref !== 'string' || ref === 'dept' || v === null || v === undefined || v === '') continue;
    const ids = (Array.isArray(v) ? v : String(v).split(',')).map((x) => String(x).trim()).filter((x) => /^\d{1,19}$/.test(x));
    if (!ids.length) continue;
    let rows: Array<{ id: string; label: string }> = [];
    if (ref === 'user') {
      rows = (await sql<{ id: string; label: string }>`SELECT id::text AS id, coalesce(real_name, name, account) AS label FROM blade_user WHERE tenant_id = ${tenantId} AND id = ANY(${ids}::bigint[])`.execute(db)).rows;
    } else {
      const target = resources.get(ref);
      const labelCol = target?.schema.labelField ? target.byField.get(target.schema.labelField)?.column : undefined;
      if (!target || !labelCol) continue;
      rows = (await sql<{ id: string; label: string }>`SELECT id::text AS id, ${sql.ref(labelCol)}::text AS label FROM ${sql.table(target.schema.table)}
                 WHERE ${target.tenantScoped ? sql`tenant_id = ${tenantId} AND` : sql``} id = ANY(${ids}::bigint[])`.execute(db)).rows;
    }
    const byId = new Map(rows.map((x) => [x.id, x.label]));
    out.set(c.field, ids.map((id) => byId.get(id) ?? id).join('、'));
  }
  return out;
}

/** The template data of `record` (see the module comment). */
export async function documentData(db: Db, resources: ReadonlyMap<string, Resource>, r: Resource, tenantId: string, record: Row, lang: Lang, title: string): Promise<Row> {
  const top = columnsOf(r, r.schema.form);
  const nested = top.filter((c) => isRows(c.node)).map((c) => ({ c, cols: columnsOf(r, c.node.items!, false) }));
  const tr = new Translator(db, tenantId);
  await tr.prepare([...top, ...nested.flatMap((n) => n.cols)]);
  const text = (c: TemplateColumn, v: unknown): unknown => {
    if (v === null || v === undefined || v === '') return '';
    if (isFiles(c.node)) return (Array.isArray(v) ? v : [v]).map((f) => (f && typeof f === 'object' ? String((f as Row).originalName ?? (f as Row).name ?? '') : String(f))).join('、');
    if (Array.isArray(v) && !isRows(c.node)) return v.map((x) => tr.toCell({ ...c, col: { ...c.col, kind: 'text' } } as TemplateColumn, x, lang)).join('、');
    const cell = tr.toCell(c, v, lang);
    return cell instanceof Date ? cell.toISOString().slice(0, 10) : (cell ?? '');
  };
  const refs = await refLabels(db, resources, tenantId, top, record);
  const data: Row = {};
  for (const c of top) {
    const v = record[c.field];
    if (refs.has(c.field)) {
      data[c.field] = refs.get(c.field);
      continue;
    }
    const rows = nested.find((n) => n.c.field === c.field);
    data[c.field] = rows ? (Array.isArray(v) ? v : []).map((row, i) => Object.fromEntries([['_index', i + 1], ...rows.cols.map((sc) => [sc.field, text(sc, (row as Row)?.[sc.field])])])) : text(c, v);
  }
  const labelField = r.schema.labelField;
  return { ...data, _title: title, _today: new Date().toISOString().slice(0, 10), _label: labelField ? String(record[labelField] ?? '') : '' };
}

const para = (text: string, opts: { bold?: boolean; size?: number } = {}) =>
  `<w:p><w:r><w:rPr>${opts.bold ? '<w:b/>' : ''}${opts.size ? `<w:sz w:val="${opts.size}"/>` : ''}<w:rFonts w:eastAsia="宋体"/></w:rPr><w:t xml:space="preserve">${esc(text)}</w:t></w:r></w:p>`;

/** A .docx template of `r`'s form (see the module comment), as a zip docxtemplater fills. */
export async function formTemplate(r: Resource, lang: Lang): Promise<PizZip> {
  const PizZipLib = await loadPizZip();
  const cols = columnsOf(r, r.schema.form);
  const colon = lang === 'en' ? ': ' : '：';
  const body = [para('{_title}', { bold: true, size: 36 }), para('{_label}', { bold: true, size: 28 })];
  for (const c of cols) {
    const label = lang === 'en' ? c.titleEn : c.title;
    if (!isRows(c.node)) {
      body.push(para(`${label}${colon}{${c.field}}`));
      continue;
    }
    const sub = columnsOf(r, c.node.items!, false);
    body.push(para(label, { bold: true }), para(`{#${c.field}}`), para(`{_index}. ${sub.map((s) => `${lang === 'en' ? s.titleEn : s.title}${colon}{${s.field}}`).join('；')}`), para(`{/${c.field}}`));
  }
  body.push(para(lang === 'en' ? 'Generated on {_today}' : '生成日期：{_today}'));
  const zip = new PizZipLib();
  zip.file('[Content_Types].xml', '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>');
  zip.file('_rels/.rels', '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>');
  zip.file('word/document.xml', `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}"><w:body>${body.join('')}<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr></w:body></w:document>`);
  return zip;
}

/** Fills `template` (a zip, or the bytes of an uploaded .docx) with `data`; 400 when the template is not valid. */
export async function fill(template: PizZip | Buffer, data: Row): Promise<Buffer> {
  const [PizZipLib, Docxtemplater] = await Promise.all([loadPizZip(), loadDocxtemplater()]);
  try {
    const zip = Buffer.isBuffer(template) ? new PizZipLib(template) : template;
    const doc = new Docxtemplater(zip, { paragraphLoop: true, linebreaks: true, nullGetter: () => '', errorLogging: false });
    doc.render(data);
    return doc.getZip().generate({ type: 'nodebuffer', compression: 'DEFLATE' });
  } catch (e) {
    const err = e as { properties?: { errors?: Array<{ properties?: { explanation?: string } }>; explanation?: string }; message?: string };
    const why = err.properties?.errors?.[0]?.properties?.explanation ?? err.properties?.explanation ?? err.message ?? 'docx';
    throw new ApiError(400, DOC_MESSAGES.badTemplate(why));
  }
}
