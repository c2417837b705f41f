/**
 * Documents of the bidding tests (issue 17: "a real-shaped tender document (written by the test with the `docx`
 * package: chapters, scoring tables)"), built with the `docx` package as Word writes them — the shape of a Chinese
 * tender document (《标准施工招标文件》 practice): headings 标题 1 / 标题 2 (docx's HeadingLevel: pStyle Heading1/2,
 * "heading 1/2" in styles.xml, which is how mammoth reads them), numbered paragraph headings (一、 …), a
 * 投标人须知前附表 with the deadlines, a 资格审查 table and a 评分标准 table with points.
 */
import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, WidthType } from 'docx';

/** One block of a test document: a styled heading, a paragraph, or a table (first row the header). */
export type DocBlock = { h: 1 | 2; text: string } | { p: string } | { table: string[][] };

const cell = (text: string) => new TableCell({ children: [new Paragraph(text)], width: { size: 2000, type: WidthType.DXA } });

/** A .docx of `blocks` (the `docx` package's Packer). */
export async function wordDoc(blocks: DocBlock[]): Promise<Buffer> {
  const children = blocks.map((b) =>
    'h' in b
      ? new Paragraph({ text: b.text, heading: b.h === 1 ? HeadingLevel.HEADING_1 : HeadingLevel.HEADING_2 })
      : 'p' in b
        ? new Paragraph(b.p)
        : new Table({ rows: b.table.map((r) => new TableRow({ children: r.map(cell) })) }),
  );
  return Packer.toBuffer(new Document({ sections: [{ children }] }));
}

/** A tender document of a grain-depot project: four chapters, the deadlines, qualification and scoring tables. */
export function tenderDocument(tag: string): Promise<Buffer> {
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
export const chapterText = (title: string, lines: string[]): Promise<Buffer> => wordDoc([{ h: 1, text: title }, ...lines.map((p) => ({ p }))]);
