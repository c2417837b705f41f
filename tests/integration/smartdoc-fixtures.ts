/**
 * Documents of the bidding tests (issue 17), built here as real Word packages with PizZip — the shape of a
 * Chinese tender document (《标准施工招标文件》 practice): styled headings 标题 1 / 标题 2 (w:pStyle Heading1/2
 * defined in styles.xml as "heading 1/2", which is how Word writes them and how mammoth reads them), numbered
 * paragraph headings (一、 …), a 投标人须知前附表 with the deadlines, a 资格审查 table and a 评分标准 table
 * with points. (The `docx` npm package the issue names is not installed; this writes the same XML.)
 */
import PizZip from 'pizzip';

const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** One block of a test document: a styled heading, a paragraph, or a table (first row the header). */
export type DocBlock = { h: 1 | 2; text: string } | { p: string } | { table: string[][] };

const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:b/><w:sz w:val="32"/></w:rPr></w:style><w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="1"/></w:pPr><w:rPr><w:b/><w:sz w:val="28"/></w:rPr></w:style><w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/></w:style></w:styles>`;

const para = (text: string, style?: string) => `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}<w:r><w:t xml:space="preserve">${esc(text)}</w:t></w:r></w:p>`;
const table = (rows: string[][]) =>
  `<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid>${rows[0].map(() => '<w:gridCol w:w="2000"/>').join('')}</w:tblGrid>${rows
    .map((r) => `<w:tr>${r.map((c) => `<w:tc><w:tcPr><w:tcW w:w="2000" w:type="dxa"/></w:tcPr>${para(c)}</w:tc>`).join('')}</w:tr>`)
    .join('')}</w:tbl>`;

/** A .docx of `blocks` (content types, relationships, styles, document). */
export function wordDoc(blocks: DocBlock[]): Buffer {
  const body = blocks.map((b) => ('h' in b ? para(b.text, `Heading${b.h}`) : 'p' in b ? para(b.p) : table(b.table))).join('');
  const zip = new PizZip();
  zip.file('[Content_Types].xml', '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>');
  zip.file('_rels/.rels', '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>');
  zip.file('word/_rels/document.xml.rels', '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>');
  zip.file('word/styles.xml', STYLES);
  zip.file('word/document.xml', `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><w:body>${body}<w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:body></w:document>`);
  return zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** A tender document of a grain-depot project: four chapters, the deadlines, qualification and scoring tables. */
export function tenderDocument(tag: string): Buffer {
  return wordDoc([
    { p: `${tag} 华北粮库智能化升级改造项目 招标文件` },
    { h: 1, text: '第一章 招标公告' },
    { h: 2, text: '一、项目概况' },
    { p: '本项目为华北粮库智能化升级改造，包括粮情测控、智能通风与能耗监测系统。' },
    { h: 2, text: '二、投标文件的递交' },
    { p: '投标文件递交的截止时间为2026年12月20日9时30分，投标人应在截止时间前递交投标文件。' },
    { p: '开标时间：2026年12月20日 09:30，开标地点：集团公司三楼会议室。' },
    { h: 1, text: '第二章 投标人须知' },
    {
      table: [
        ['条款号', '条款名称', '编列内容'],
        ['1.1', '招标人', '粮储集团有限公司'],
        ['2.2', '投标人要求澄清招标文件的截止时间', '2026年12月10日17时00分'],
      ],
    },
    { h: 2, text: '三、投标人资格要求' },
    { p: '投标人须具有独立法人资格，持有有效的营业执照。' },
    { p: '投标人须具备电子与智能化工程专业承包二级及以上资质。' },
    { h: 1, text: '第三章 评标办法' },
    {
      table: [
        ['序号', '评分因素', '分值', '评分标准'],
        ['1', '技术方案', '40', '方案完整、可行，针对粮情测控有专项设计的得30-40分'],
        ['2', '项目业绩', '20', '近三年每提供一个粮库智能化业绩得5分，最多20分'],
        ['3', '投标报价', '30', '以有效投标报价的平均值为基准价计算'],
        ['4', '售后服务', '10', '服务承诺具体、响应时间在2小时以内的得10分'],
        ['合计', '', '100', ''],
      ],
    },
    { h: 2, text: '一、资格审查' },
    {
      table: [
        ['序号', '审查因素', '审查标准'],
        ['1', '营业执照', '具备有效的营业执照'],
        ['2', '资质证书', '电子与智能化工程专业承包二级及以上'],
      ],
    },
    { h: 1, text: '第四章 投标文件格式' },
    { p: '投标文件由商务文件和技术文件两部分组成。' },
  ]);
}

/** The text of a chapter document written by its writer: a heading and paragraphs. */
export const chapterText = (title: string, lines: string[]) => wordDoc([{ h: 1, text: title }, ...lines.map((p) => ({ p }))]);
