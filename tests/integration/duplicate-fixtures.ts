/**
 * Helpers of the duplicate-checking integration tests (issue 15): documents built here (.docx with PizZip, a
 * one-page .pdf), uploads through put-file as the FileUpload component does, files to check submitted as
 * duplicate/file, and tasks run to the end (getResult's data).
 */
import PizZip from 'pizzip';
import { expect } from 'vitest';
import { call, type Json, type Session, type TestServer } from './helpers.js';

export const PUT = '/api/blade-resource/oss/endpoint/put-file';

/** A .docx with one paragraph per line of `text` (a minimal WordprocessingML package). */
export function docx(text: string): Buffer {
  const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const body = text.split('\n').map((l) => `<w:p><w:r><w:t xml:space="preserve">${esc(l)}</w:t></w:r></w:p>`).join('');
  const zip = new PizZip();
  zip.file('[Content_Types].xml', '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>');
  zip.file('_rels/.rels', '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>');
  zip.file('word/document.xml', `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`);
  return zip.generate({ type: 'nodebuffer' });
}

/** A one-page PDF showing `lines` (ASCII) in Helvetica, with a correct cross-reference table. */
export function pdf(lines: string[]): Buffer {
  const stream = `BT /F1 12 Tf 40 750 Td 16 TL ${lines.map((l) => `(${l.replace(/[()\\]/g, '')}) Tj T*`).join(' ')} ET`;
  const objs = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objs.forEach((o, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

async function multipart(fileName: string, bytes: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), fileName);
  const res = new Response(form);
  return { payload: Buffer.from(await res.arrayBuffer()), headers: { 'content-type': res.headers.get('content-type')! } };
}

/** The helpers bound to one test server. */
export function duplicateFixtures(s: TestServer) {
  /** Uploads through put-file and answers the attachment item the FileUpload component would keep. */
  async function upload(who: Session, fileName: string, bytes: Buffer): Promise<Json> {
    const mp = await multipart(fileName, bytes);
    const res = await call(s, who, 'POST', PUT, mp.payload, mp.headers);
    expect(res.status).toBe(200);
    return { name: res.body.data.name, link: res.body.data.link, originalName: res.body.data.originalName };
  }

  /** Uploads and submits a file to check in `folder`; answers the submit's response. */
  async function addFile(who: Session, fileName: string, bytes: Buffer, folder: string) {
    const item = await upload(who, fileName, bytes);
    return call(s, who, 'POST', '/api/duplicate/file/submit', { attach: [item], folder });
  }

  /** A .txt file to check holding `text`, in `folder`; answers the saved record. */
  async function addText(who: Session, name: string, text: string, folder: string): Promise<Json> {
    const res = await addFile(who, name, Buffer.from(text, 'utf8'), folder);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  }

  /** Creates a task (`body`: name, fileIds, library, …) and waits for it to finish; answers getResult's data. */
  async function runTask(who: Session, body: Json): Promise<Json> {
    const res = await call(s, who, 'POST', '/api/duplicate/duplicatetask/submit', body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const id = res.body.data.id;
    const until = Date.now() + 30_000;
    for (;;) {
      const d = await call(s, who, 'GET', `/api/duplicate/duplicatetask/detail?id=${id}`);
      if (d.body.data.taskStatus === 2 || d.body.data.taskStatus === 3) break;
      if (Date.now() > until) throw new Error(`task ${id} still ${d.body.data.taskStatus}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    const r = await call(s, who, 'GET', `/api/duplicate/duplicatetask/getResult?id=${id}`);
    expect(r.status).toBe(200);
    return r.body.data;
  }

  return { upload, addFile, addText, runTask };
}
