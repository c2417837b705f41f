/**
 * XPath in a crawl task's page rules (issue 16 "fields by CSS selector or XPath with post-processing"; XPath
 * 1.0, W3C Recommendation 1999, as jsdom's `document.evaluate` implements it):
 *
 * - a field's `xpath` (instead of its CSS `selector`) is evaluated with the row as its context node (a list
 *   rule) or the page's document (a detail rule): a string, number or boolean result (`normalize-space(h1)`,
 *   `count(li)`) is the value; a node-set's first node gives its `attr` (an element with `attr` set), its value
 *   (an attribute node: `a/@href`) or its text (`textContent`, as cheerio's `.text()`); no node gives null;
 * - a rule's `rowXPath` (instead of `rowSelector`) makes one row per element it selects, in document order;
 * - a rule that uses neither is extracted with cheerio (crawl.ts `extractRows`); one that uses XPath anywhere
 *   is extracted here, its CSS selectors then answered by jsdom's `querySelector` (the same matches).
 *
 * The post-processing steps (`process`) are crawl.ts `postProcess`, shared by both paths.
 *
 * jsdom is loaded on first use only (a task without XPath never loads it); it is a runtime dependency of the
 * server (without it an XPath configuration fails with MODULE_NOT_FOUND rather than a misleading message). `checkXPath` is synchronous (the
 * configuration check, config.ts) and throws the parser's error for an expression jsdom cannot compile.
 */
import { createRequire } from 'node:module';
import type { FieldRule, PageRule } from './config.js';

type JsdomModule = typeof import('jsdom');
const require = createRequire(import.meta.url);
let jsdom: JsdomModule | undefined;
let probe: Document | undefined;

function lib(): JsdomModule {
  jsdom ??= require('jsdom') as JsdomModule;
  return jsdom;
}

/** XPathResult constants (DOM Level 3 XPath). */
const ANY_TYPE = 0;
const NUMBER_TYPE = 1;
const STRING_TYPE = 2;
const BOOLEAN_TYPE = 3;
const ORDERED_NODE_SNAPSHOT_TYPE = 7;
const ELEMENT_NODE = 1;
const ATTRIBUTE_NODE = 2;

/** Throws when `expr` is not an XPath 1.0 expression. */
export function checkXPath(expr: string): void {
  probe ??= new (lib().JSDOM)('<!doctype html><html><body></body></html>').window.document;
  probe.createExpression(expr, null);
}

/** True when `rule` names an XPath anywhere (rows or a field). */
export function usesXPath(rule: PageRule): boolean {
  return !!rule.rowXPath || rule.fields.some((f) => !!f.xpath);
}

/** The raw value of field `f` in `scope` (before post-processing); see the module comment. */
function rawValue(doc: Document, scope: Node, f: FieldRule): string | number | null {
  if (f.xpath) {
    const r = doc.evaluate(f.xpath, scope, null, ANY_TYPE, null);
    if (r.resultType === STRING_TYPE) return r.stringValue;
    if (r.resultType === NUMBER_TYPE) return Number.isFinite(r.numberValue) ? r.numberValue : null;
    if (r.resultType === BOOLEAN_TYPE) return String(r.booleanValue);
    const node = r.iterateNext();
    if (!node) return null;
    if (node.nodeType === ATTRIBUTE_NODE) return (node as Attr).value;
    if (f.attr) return node.nodeType === ELEMENT_NODE ? (node as Element).getAttribute(f.attr) : null;
    return node.textContent ?? '';
  }
  const el = f.selector ? (scope as ParentNode).querySelector(f.selector) : scope.nodeType === ELEMENT_NODE ? (scope as Element) : doc.documentElement;
  if (!el) return null;
  return f.attr ? el.getAttribute(f.attr) : (el.textContent ?? '');
}

/**
 * The rows of a page under a rule that uses XPath, like crawl.ts `extractRows`: `[index, row]` pairs, rows
 * missing a `required` field dropped. `postProcess` applies a field's steps to its raw value.
 */
export function extractRowsXPath(
  html: string,
  rule: PageRule,
  pageUrl: string,
  postProcess: (v: string | number | null, f: FieldRule, pageUrl: string) => string | number | null,
): Array<[number, Record<string, unknown>]> {
  const { JSDOM } = lib();
  const dom = new JSDOM(html, { url: pageUrl });
  try {
    const doc = dom.window.document;
    let scopes: Node[];
    if (rule.rowXPath) {
      const snap = doc.evaluate(rule.rowXPath, doc, null, ORDERED_NODE_SNAPSHOT_TYPE, null);
      scopes = Array.from({ length: snap.snapshotLength }, (_, i) => snap.snapshotItem(i)!).filter((n) => n.nodeType === ELEMENT_NODE);
    } else if (rule.rowSelector) scopes = Array.from(doc.querySelectorAll(rule.rowSelector));
    else scopes = [doc];
    const out: Array<[number, Record<string, unknown>]> = [];
    scopes.forEach((scope, i) => {
      const row: Record<string, unknown> = {};
      for (const f of rule.fields) row[f.name] = postProcess(rawValue(doc, scope, f), f, pageUrl);
      if (rule.fields.some((f) => f.required && (row[f.name] === null || row[f.name] === ''))) return;
      out.push([i, row]);
    });
    return out;
  } finally {
    dom.window.close();
  }
}
