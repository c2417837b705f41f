/**
 * The duplicate-check report as .docx (issue 15: "a report downloads as .docx"): docxtemplater fills a Word
 * template (DESIGN §8 Documents). The template is built here with PizZip (a minimal WordprocessingML
 * package: content types, relationships, one document part) so the module carries no binary file; its tags
 * are docxtemplater's `{field}` and `{#loop}…{/loop}`.
 *
 * Content: the task (name, algorithm, finished), then per checked file its overall similarity, its sources
 * (title, similarity, passages) and every passage (its place in the file, the source, the text). The fixed
 * texts are in the caller's language (REPORT_TEXTS; a loop's own `title` shadows the report's).
 */
import { loadDocxtemplater, loadPizZip } from '../../core/lazy-libs.js';

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

const para = (text: string, opts: { bold?: boolean; size?: number; color?: string } = {}) =>
  `<w:p><w:r><w:rPr>${opts.bold ? '<w:b/>' : ''}${opts.color ? `<w:color w:val="${opts.color}"/>` : ''}${opts.size ? `<w:sz w:val="${opts.size}"/>` : ''}<w:rFonts w:eastAsia="宋体"/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

/** The template's document part (tags as in the module comment). */
function documentXml(): string {
  const body = [
    para('{title}', { bold: true, size: 36 }),
    para('{lTask}{taskName}'),
    para('{lAlgorithm}{algorithm}'),
    para('{lFinished}{finishTime}'),
    para('{#files}'),
    para('{lFile}{title}', { bold: true, size: 28 }),
    para('{lSimilarity}{similarity}%　{lChars}{charCount}　{lSourceCount}{sourceCount}'),
    para('{lSources}', { bold: true }),
    para('{#sources}'),
    para('{rank}. {title}　{lSourceSimilarity}{similarity}%　{lPassageCount}{passageCount}'),
    para('{/sources}'),
    para('{lPassages}', { bold: true }),
    para('{#passages}'),
    para('［{start}–{end}］ ← {sourceTitle}［{sourceStart}–{sourceEnd}］', { color: '8C8C8C' }),
    para('{text}', { color: 'C41D1D' }),
    para('{/passages}'),
    para('{/files}'),
  ].join('');
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}"><w:body>${body}<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr></w:body></w:document>`;
}

async function template() {
  const zip = new (await loadPizZip())();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  );
  zip.file('word/document.xml', documentXml());
  return zip;
}

export interface ReportFile {
  title: string;
  similarity: number;
  charCount: number;
  sourceCount: number;
  sources: Array<{ title: string; similarity: number; passageCount: number }>;
  passages: Array<{ start: number; end: number; sourceTitle: string; sourceStart: number; sourceEnd: number; text: string }>;
}

/** The report's fixed texts in each language (the template's `l…` tags). */
export const REPORT_TEXTS = {
  zh: {
    title: '查重报告', lTask: '任务名称：', lAlgorithm: '查重算法：', lFinished: '完成时间：', lFile: '查重文件：', lSimilarity: '总相似度：', lChars: '字数：',
    lSourceCount: '相似来源：', lSources: '相似来源', lSourceSimilarity: '相似度 ', lPassageCount: '相同段落 ', lPassages: '相同段落',
  },
  en: {
    title: 'Duplicate-check report', lTask: 'Task: ', lAlgorithm: 'Algorithm: ', lFinished: 'Finished: ', lFile: 'Checked file: ', lSimilarity: 'Overall similarity: ', lChars: 'Characters: ',
    lSourceCount: 'Similar sources: ', lSources: 'Similar sources', lSourceSimilarity: 'similarity ', lPassageCount: 'passages ', lPassages: 'Matched passages',
  },
};

/** The report of a task as a .docx buffer, its fixed texts in `lang` (the caller's language). */
export async function buildReport(data: { taskName: string; algorithm: string; finishTime: string; files: ReportFile[] }, lang: 'zh' | 'en' = 'zh'): Promise<Buffer> {
  const Docxtemplater = await loadDocxtemplater();
  const doc = new Docxtemplater(await template(), { paragraphLoop: true, linebreaks: true });
  doc.render({
    ...REPORT_TEXTS[lang],
    ...data,
    files: data.files.map((f) => ({ ...f, sources: f.sources.map((s, i) => ({ ...s, rank: i + 1 })) })),
  });
  return doc.getZip().generate({ type: 'nodebuffer', compression: 'DEFLATE' });
}
