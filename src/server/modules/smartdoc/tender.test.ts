/**
 * The tender analysis (tender.ts) on the blocks a PDF gives (lines only: numbered headings, "N分" scoring lines)
 * and its rules for dates, and the Word merge (docx.ts): chapters in order, each part's image and style along.
 */
import { describe, expect, it } from 'vitest';
import PizZip from 'pizzip';
import mammoth from 'mammoth';
import { analyseTender, headingRank, readDeadline, tenderBlocks, type Block } from './tender.js';
import { chapterDocx, mergeDocx } from './docx.js';

const lines = (...t: string[]): Block[] => t.map((text) => ({ kind: 'para', text }));

describe('analyseTender', () => {
  it('reads numbered headings, scoring lines, qualification paragraphs and deadlines from plain lines (PDF)', () => {
    const items = analyseTender(
      lines(
        '某粮库仓储设施维修项目招标文件',
        '第一章 投标邀请',
        '投标截止时间：2027年1月15日下午2时30分。',
        '第二章 资格要求',
        '（一）基本条件',
        '具有独立承担民事责任的能力。',
        '第三章 评分办法',
        '一、技术部分',
        '施工组织设计：内容完整合理得25分。',
        '工期保证措施 15分',
        '二、商务部分',
        '本节无评分内容。',
      ),
    );
    const brief = items.map((i) => [i.parent, i.level, i.itemType, i.title, i.score ?? null, i.deadlineTime ?? null]);
    expect(brief).toEqual([
      [-1, 1, 'chapter', '第一章 投标邀请', null, null],
      [0, 2, 'deadline', '投标截止时间：2027年1月15日下午2时30分。', null, '2027-01-15 14:30:00'],
      [-1, 1, 'chapter', '第二章 资格要求', null, null],
      [2, 2, 'chapter', '（一）基本条件', null, null],
      [3, 3, 'qualification', '具有独立承担民事责任的能力。', null, null],
      [-1, 1, 'chapter', '第三章 评分办法', null, null],
      [5, 2, 'chapter', '一、技术部分', null, null],
      [6, 3, 'scoring', '施工组织设计', 25, null],
      [6, 3, 'scoring', '工期保证措施 15分', 15, null],
      [5, 2, 'chapter', '二、商务部分', null, null],
    ]);
  });

  it('takes only short numbered lines without a sentence end as headings', () => {
    expect(headingRank('第十二章 合同条款及格式')).toBe(1);
    expect(headingRank('第二节 评审程序')).toBe(2);
    expect(headingRank('三、投标保证金')).toBe(3);
    expect(headingRank('（二）联合体投标')).toBe(4);
    expect(headingRank('一、投标人应当按照招标文件的要求编制投标文件。')).toBe(0);
    expect(headingRank('投标人须知')).toBe(0);
  });

  it('reads deadlines in the usual Chinese forms and refuses impossible dates', () => {
    expect(readDeadline('2026年12月20日9时30分')).toBe('2026-12-20 09:30:00');
    expect(readDeadline('2026-12-20 09:30')).toBe('2026-12-20 09:30:00');
    expect(readDeadline('2026年3月5日（星期四）上午10:00')).toBe('2026-03-05 10:00:00');
    expect(readDeadline('2026年12月20日')).toBe('2026-12-20 00:00:00');
    expect(readDeadline('2026年2月30日9时')).toBeNull();
    expect(readDeadline('无日期')).toBeNull();
  });

  it('refuses other file types and damaged files with the user message', async () => {
    await expect(tenderBlocks(Buffer.from('x'), 'doc', 'a.doc')).rejects.toThrow('招标文件只支持 .docx、.pdf 格式，不支持 .doc');
    await expect(tenderBlocks(Buffer.from('not a zip'), 'docx', '招标.docx')).rejects.toThrow('文件「招标.docx」已损坏或无法读取，请检查后重新上传');
    await expect(tenderBlocks(Buffer.from('%PDF-1.4 broken'), 'pdf', '招标.pdf')).rejects.toThrow('文件「招标.pdf」已损坏或无法读取，请检查后重新上传');
  });
});

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');

/** A chapter carrying an image and a style of its own (as a chapter saved by Word or the editor would). */
function chapterWithImage(): Buffer {
  const zip = new PizZip();
  zip.file('[Content_Types].xml', '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>');
  zip.file('_rels/.rels', '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>');
  zip.file('word/_rels/document.xml.rels', '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/><Relationship Id="rId7" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/image1.png"/></Relationships>');
  zip.file('word/styles.xml', '<?xml version="1.0" encoding="UTF-8"?><w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:style w:type="paragraph" w:styleId="Quote2"><w:name w:val="Quote Two"/></w:style></w:styles>');
  zip.file('word/media/image1.png', PNG);
  zip.file(
    'word/document.xml',
    '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><w:body>' +
      '<w:p><w:pPr><w:pStyle w:val="Quote2"/></w:pPr><w:r><w:t>第二章 技术方案正文</w:t></w:r></w:p>' +
      '<w:p><w:r><w:drawing><wp:inline><wp:extent cx="9525" cy="9525"/><wp:docPr id="1" name="图片 1"/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic><pic:nvPicPr><pic:cNvPr id="1" name="image1.png"/><pic:cNvPicPr/></pic:nvPicPr><pic:blipFill><a:blip r:embed="rId7"/></pic:blipFill><pic:spPr/></pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>' +
      '<w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:body></w:document>',
  );
  return zip.generate({ type: 'nodebuffer' });
}

describe('mergeDocx', () => {
  it('joins the chapters in order, bringing each part’s image and style along under fresh names', async () => {
    const first = await chapterDocx('第一章 商务文件', ['投标函及投标函附录。']);
    const third = await chapterDocx('第三章 报价文件', ['投标报价为人民币壹佰万元整。']);
    const merged = await mergeDocx([first, chapterWithImage(), third]);
    const text = (await mammoth.extractRawText({ buffer: merged })).value;
    const order = ['第一章 商务文件', '投标函及投标函附录。', '第二章 技术方案正文', '第三章 报价文件', '投标报价为人民币壹佰万元整。'].map((t) => text.indexOf(t));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    const zip = new PizZip(merged);
    const doc = zip.file('word/document.xml')!.asText();
    expect(doc.match(/<w:sectPr\b/g)).toHaveLength(1); // the base's page setup, once, at the end
    expect(doc.match(/w:type="page"/g)).toHaveLength(2);
    expect(doc).toContain('xmlns:pic=');
    const rels = zip.file('word/_rels/document.xml.rels')!.asText();
    const id = /r:embed="([^"]+)"/.exec(doc)![1];
    const target = new RegExp(`Id="${id}"[^>]*Target="([^"]+)"`).exec(rels)![1];
    expect(Buffer.from(zip.file(`word/${target}`)!.asUint8Array()).equals(PNG)).toBe(true);
    expect(zip.file('[Content_Types].xml')!.asText()).toContain('Extension="png"');
    expect(zip.file('word/styles.xml')!.asText()).toContain('w:styleId="Quote2"');
    // mammoth reads the image back from the merged package
    const html = (await mammoth.convertToHtml({ buffer: merged })).value;
    expect(html).toContain('<img src="data:image/png;base64,');
  });
});
