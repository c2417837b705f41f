/**
 * `GET /api/blade-user/export-user` (spec 002 §7 User export-user, blob; users.ts mounts the route): the filtered
 * users as an xlsx workbook, written with exceljs' streaming writer page by page (500 users a page, at most
 * 100,000 rows) so a large tenant never sits in memory; the headers and the yes / no and sex values in the
 * caller's language; the download named `用户数据<yyyyMMddHHmmss>.xlsx` (`users…` in English; spec 002 §7:
 * download names end in the time).
 */
import { PassThrough } from 'node:stream';
import { loadExcelJS } from '../../core/lazy-libs.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Lang } from '../../../shared/i18n/messages.js';

type Row = Record<string, unknown>;

/** The most rows an export writes. */
const MAX_EXPORT = 100_000;
/** Users read per page. */
const EXPORT_PAGE = 500;

/** yyyyMMddHHmmss of now (spec 002 §7: downloads are named with it). */
function stamp(): string {
  const d = new Date();
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}${two(d.getMonth() + 1)}${two(d.getDate())}${two(d.getHours())}${two(d.getMinutes())}${two(d.getSeconds())}`;
}

const SEX = { 1: { zh: '男', en: 'Male' }, 2: { zh: '女', en: 'Female' }, 3: { zh: '未知', en: 'Unknown' } } as Record<number, { zh: string; en: string }>;

/** The columns of export-user, in order (header zh / en). */
const EXPORT_COLUMNS = [
  { key: 'account', zh: '登录账号', en: 'Account', width: 18 },
  { key: 'realName', zh: '用户姓名', en: 'Name', width: 14 },
  { key: 'name', zh: '用户昵称', en: 'Nickname', width: 14 },
  { key: 'deptName', zh: '所属部门', en: 'Department', width: 22 },
  { key: 'roleName', zh: '所属角色', en: 'Roles', width: 24 },
  { key: 'phone', zh: '手机号码', en: 'Phone', width: 15 },
  { key: 'email', zh: '电子邮箱', en: 'E-mail', width: 24 },
  { key: 'sex', zh: '性别', en: 'Sex', width: 8 },
  { key: 'birthday', zh: '出生日期', en: 'Birth date', width: 12 },
  { key: 'isExpert', zh: '评审专家', en: 'Expert reviewer', width: 10 },
  { key: 'locked', zh: '已锁定', en: 'Locked', width: 8 },
  { key: 'createTime', zh: '创建时间', en: 'Created', width: 20 },
] as const;

function exportRow(rec: Row, lang: Lang): Row {
  const yes = lang === 'en' ? 'Yes' : '是';
  const no = lang === 'en' ? 'No' : '否';
  const out: Row = {};
  for (const c of EXPORT_COLUMNS) out[c.key] = rec[c.key] ?? '';
  out.sex = typeof rec.sex === 'number' && SEX[rec.sex] ? SEX[rec.sex][lang] : '';
  out.isExpert = rec.isExpert ? yes : no;
  out.locked = rec.locked ? yes : no;
  return out;
}

/**
 * Answers the workbook of the users `page(current, size)` yields (decorated user records, in the list's order).
 * The first page is read before any byte is sent, so a bad filter is still a 400 in the envelope; a failure
 * later ends the download (logged).
 */
export async function sendUserWorkbook(req: FastifyRequest, reply: FastifyReply, page: (current: number, size: number) => Promise<Row[]>) {
  const first = await page(1, EXPORT_PAGE);
  const ExcelJS = await loadExcelJS();
  const lang = req.lang;
  const pass = new PassThrough();
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: pass, useStyles: true });
  const ws = wb.addWorksheet(lang === 'en' ? 'Users' : '用户');
  ws.columns = EXPORT_COLUMNS.map((c) => ({ header: lang === 'en' ? c.en : c.zh, key: c.key, width: c.width }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  const write = async () => {
    let records = first;
    let written = 0;
    for (let current = 1; ; current++) {
      if (current > 1) records = await page(current, EXPORT_PAGE);
      for (const rec of records) {
        ws.addRow(exportRow(rec, lang)).commit();
        if (++written >= MAX_EXPORT) break;
      }
      if (records.length < EXPORT_PAGE || written >= MAX_EXPORT) break;
      if (pass.writableNeedDrain) await new Promise((res) => pass.once('drain', res)); // keep pace with the reader
    }
    ws.commit();
    await wb.commit();
  };
  write().catch((e) => {
    req.log.error(e);
    pass.destroy(e as Error);
  });
  const name = `${lang === 'en' ? 'users' : '用户数据'}${stamp()}.xlsx`;
  return reply
    .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', `attachment; filename="users${stamp()}.xlsx"; filename*=UTF-8''${encodeURIComponent(name)}`)
    .header('cache-control', 'no-store')
    .send(pass);
}
