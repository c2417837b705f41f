/**
 * The Word files of a bid (issue 17; ECMA-376 WordprocessingML): a chapter's first document and the merge of
 * the chapters, written separately, into one bidding document. pizzip (installed) reads and writes the
 * packages; no merge library fits (docxtemplater fills templates, docx-merger is not installed and unmaintained).
 *
 * `chapterDocx(title, lines)`: a minimal valid package — content types, relationships, styles with 标题 1
 * (Heading1) and the body: the title as a heading and one paragraph per line.
 *
 * `mergeDocx(parts)`: the first part is the base (its styles, numbering, headers and page setup are the merged
 * document's); each further part's body (without its own section properties) follows after a page break. What a
 * part's body refers to comes along: its images and other related parts (`word/media/…`, copied under fresh
 * names, their relationships re-numbered), its hyperlinks (external relationships), the styles it uses that the
 * base lacks, and the namespace declarations of its root. Numbering definitions of later parts are not merged
 * (their lists keep the base's numbering).
 */
type Zip = import('pizzip');

const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const DOC_REL = 'word/_rels/document.xml.rels';
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="word/document.xml"/></Relationships>`;
const DOC_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`;
const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Times New Roman" w:eastAsia="宋体" w:hAnsi="Times New Roman"/><w:sz w:val="24"/></w:rPr></w:rPrDefault></w:docDefaults><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:qFormat/><w:pPr><w:keepNext/><w:spacing w:before="240" w:after="240"/><w:outlineLvl w:val="0"/></w:pPr><w:rPr><w:b/><w:sz w:val="32"/></w:rPr></w:style><w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/><w:qFormat/><w:pPr><w:keepNext/><w:outlineLvl w:val="1"/></w:pPr><w:rPr><w:b/><w:sz w:val="28"/></w:rPr></w:style></w:styles>`;
const W_NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const SECT = '<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1800" w:bottom="1440" w:left="1800" w:header="851" w:footer="992" w:gutter="0"/></w:sectPr>';

const para = (text: string, style?: string) =>
  `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}<w:r><w:t xml:space="preserve">${esc(text)}</w:t></w:r></w:p>`;

/** A Word document of `paragraphs` (each `[text, style?]`, style a styleId such as Heading1), built with `Zip`. */
export function buildDocx(PizZip: new (data?: Buffer) => Zip, paragraphs: Array<[string, string?]>): Buffer {
  const zip = new PizZip();
  zip.file('[Content_Types].xml', CONTENT_TYPES);
  zip.file('_rels/.rels', ROOT_RELS);
  zip.file(DOC_REL, DOC_RELS);
  zip.file('word/styles.xml', STYLES);
  zip.file('word/document.xml', `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document ${W_NS}><w:body>${paragraphs.map(([t, s]) => para(t, s)).join('')}${SECT}</w:body></w:document>`);
  return zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** A chapter's first document: its title as 标题 1 and `lines` as paragraphs. */
export async function chapterDocx(title: string, lines: string[] = []): Promise<Buffer> {
  const PizZip = (await import('pizzip')).default;
  return buildDocx(PizZip, [[title, 'Heading1'], ...lines.map((l): [string] => [l])]);
}

/** The body of document.xml: [before the body's content, its content without the final sectPr, the sectPr and the rest]. */
function splitBody(xml: string): [string, string, string] {
  const open = /<w:body\b[^>]*>/.exec(xml);
  const close = xml.lastIndexOf('</w:body>');
  if (!open || close < 0) throw new Error('no w:body');
  const start = open.index + open[0].length;
  const inner = xml.slice(start, close);
  // the body's own sectPr is its last child (a paragraph's sectPr sits inside its w:pPr)
  const m = /<w:sectPr\b[^>]*(?:\/>|>[\s\S]*?<\/w:sectPr>)\s*$/.exec(inner);
  const cut = m ? m.index : inner.length;
  return [xml.slice(0, start), inner.slice(0, cut), inner.slice(cut) + xml.slice(close)];
}

interface Rel {
  id: string;
  type: string;
  target: string;
  external: boolean;
}

function readRels(xml: string): Rel[] {
  return [...xml.matchAll(/<Relationship\b([^>]*?)\/?>/g)].map((m) => {
    const attr = (n: string) => new RegExp(`\\b${n}="([^"]*)"`).exec(m[1])?.[1] ?? '';
    return { id: attr('Id'), type: attr('Type'), target: attr('Target'), external: attr('TargetMode') === 'External' };
  });
}

/** Parts a body may refer to that are copied along (images, embedded objects, charts' data are left out). */
const COPIED = /\/(image|hyperlink|oleObject|package)$/;

/** Merges `parts` (.docx files, at least one) into one document, each part after a page break. See the module comment. */
export async function mergeDocx(parts: Buffer[]): Promise<Buffer> {
  const PizZip = (await import('pizzip')).default;
  const base = new PizZip(parts[0]);
  const docXml = base.file('word/document.xml')?.asText();
  if (!docXml) throw new Error('no word/document.xml');
  const split = splitBody(docXml);
  let [head, body] = split;
  const tail = split[2];
  let relsXml = base.file(DOC_REL)?.asText() ?? DOC_RELS;
  let types = base.file('[Content_Types].xml')!.asText();
  let styles = base.file('word/styles.xml')?.asText() ?? '';
  const styleIds = new Set([...styles.matchAll(/<w:style\b[^>]*w:styleId="([^"]+)"/g)].map((m) => m[1]));
  const newRels: string[] = [];
  for (const [n, buf] of parts.slice(1).entries()) {
    const part = new PizZip(buf);
    const xml = part.file('word/document.xml')?.asText();
    if (!xml) throw new Error('no word/document.xml');
    const [partHead, partBodyRaw] = splitBody(xml);
    let partBody = partBodyRaw;
    // namespace declarations the base root lacks
    const rootDecl = /<w:document\b([^>]*)>/.exec(head)!;
    let decl = rootDecl[1];
    for (const m of partHead.matchAll(/\sxmlns:([A-Za-z0-9]+)="([^"]*)"/g)) if (!decl.includes(`xmlns:${m[1]}=`)) decl += ` xmlns:${m[1]}="${m[2]}"`;
    head = head.replace(rootDecl[0], `<w:document${decl}>`);
    // related parts: copied under fresh names, their relationships renamed in the part's body
    const rels = readRels(part.file(DOC_REL)?.asText() ?? '');
    const renamed = new Map<string, string>();
    for (const rel of rels) {
      if (!COPIED.test(rel.type)) continue;
      const id = `rIdM${n + 1}x${rel.id.replace(/[^A-Za-z0-9]/g, '')}`;
      let target = rel.target;
      if (!rel.external) {
        const from = rel.target.startsWith('/') ? rel.target.slice(1) : `word/${rel.target}`;
        const file = part.file(from);
        if (!file) continue;
        const name = from.split('/').pop()!;
        target = `media/m${n + 1}_${name}`;
        base.file(`word/${target}`, file.asUint8Array());
        const ext = name.split('.').pop()!.toLowerCase();
        const ct = new RegExp(`<Default Extension="${ext}" ContentType="([^"]+)"`, 'i').exec(part.file('[Content_Types].xml')?.asText() ?? '')?.[1];
        if (ct && !new RegExp(`<Default Extension="${ext}"`, 'i').test(types)) types = types.replace('</Types>', `<Default Extension="${ext}" ContentType="${ct}"/></Types>`);
      }
      renamed.set(rel.id, id);
      newRels.push(`<Relationship Id="${id}" Type="${rel.type}" Target="${esc(target)}"${rel.external ? ' TargetMode="External"' : ''}/>`);
    }
    partBody = partBody.replace(/\b(r:id|r:embed|r:link|r:pict)="([^"]+)"/g, (all, attr: string, id: string) => (renamed.has(id) ? `${attr}="${renamed.get(id)}"` : all));
    // the styles the part uses that the base lacks
    const partStyles = part.file('word/styles.xml')?.asText() ?? '';
    for (const m of partStyles.matchAll(/<w:style\b[^>]*w:styleId="([^"]+)"[^>]*>[\s\S]*?<\/w:style>/g)) {
      if (styleIds.has(m[1]) || !new RegExp(`w:val="${m[1]}"`).test(partBody)) continue;
      styleIds.add(m[1]);
      styles = styles.replace('</w:styles>', `${m[0]}</w:styles>`);
    }
    body += `<w:p><w:r><w:br w:type="page"/></w:r></w:p>${partBody}`;
  }
  if (newRels.length) relsXml = relsXml.replace('</Relationships>', `${newRels.join('')}</Relationships>`);
  base.file('word/document.xml', head + body + tail);
  base.file(DOC_REL, relsXml);
  base.file('[Content_Types].xml', types);
  if (styles) base.file('word/styles.xml', styles);
  return base.generate({ type: 'nodebuffer', compression: 'DEFLATE' });
}
