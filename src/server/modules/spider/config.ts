/**
 * A crawler task's configuration (DESIGN §8 "Crawler"; issue 16 "What must work"): a JSON document checked by
 * the JSON Schema below (ajv) plus what a schema cannot say (URLs, regular expressions, CSS selectors), stored
 * in `spider_task.config_data` by `saveConfigData` and read back by `getConfigData`.
 *
 * Shape (`SpiderConfig`; defaults applied by `checkConfig`):
 * - `startUrls`: 1–50 http(s) URLs, depth 0;
 * - `linkPatterns`: regular expressions; a link (`linkSelector`, default `a[href]`) is followed when its
 *   absolute URL matches one of them (none: no links are followed); `nextPageSelector`: the pagination link,
 *   always followed (same depth budget);
 * - `rules`: page rules, the first whose `urlPattern` matches a page's URL applies: a list rule has
 *   `rowSelector` or `rowXPath` (one row per match), a detail rule has neither (one row per page); `fields`:
 *   name, CSS `selector` or `xpath` (XPath 1.0, relative to the row; xpath.ts) — not both; neither: the
 *   row/page itself — `attr` (default: the text), `process` steps in order — `trim`,
 *   `collapse` (runs of white space to one space), `number` (the first number), `absoluteUrl`, `regex` (first
 *   capture group of `pattern`) — and `required` (a row without it is dropped);
 * - limits and politeness: `maxPages` 1–100,000 (default 100), `maxDepth` 0–20 (3), `concurrency` 1–20 (2),
 *   `delayMs` 0–60,000 between a worker's requests (0), `timeoutSecs` 1–300 per page (30), `respectRobotsTxt`
 *   (true), `userAgent` (≤ 300 characters; a browser profile's when `browserId` names one), `useBrowser`
 *   (PlaywrightCrawler instead of CheerioCrawler).
 *
 * Errors: `ConfigError` carrying the zh/en message of the first problem (a 400 at the endpoints).
 */
import { Ajv } from 'ajv';
import type { CheerioAPI } from 'cheerio';
import { loadCheerio } from '../../core/lazy-libs.js';
import { checkXPath } from './xpath.js';

export interface FieldRule {
  name: string;
  selector?: string;
  xpath?: string;
  attr?: string;
  process?: Array<'trim' | 'collapse' | 'number' | 'absoluteUrl' | 'regex'>;
  pattern?: string;
  required?: boolean;
}

export interface PageRule {
  name: string;
  urlPattern: string;
  rowSelector?: string;
  rowXPath?: string;
  fields: FieldRule[];
}

export interface SpiderConfig {
  startUrls: string[];
  linkPatterns: string[];
  linkSelector: string;
  nextPageSelector?: string;
  rules: PageRule[];
  maxPages: number;
  maxDepth: number;
  concurrency: number;
  delayMs: number;
  timeoutSecs: number;
  respectRobotsTxt: boolean;
  userAgent?: string;
  useBrowser: boolean;
  browserId?: string;
}

/** The messages a bad configuration gets (zh is what the user sees by default). */
export const CONFIG_MESSAGES = {
  invalid: { zh: '采集配置格式不正确', en: 'The crawl configuration is not valid' },
  startUrls: { zh: '请填写 1 至 50 个以 http:// 或 https:// 开头的起始地址', en: 'Enter 1 to 50 start URLs beginning with http:// or https://' },
  rules: { zh: '请至少配置一条页面规则，每条规则须有名称、地址匹配和字段', en: 'Configure at least one page rule, each with a name, a URL pattern and fields' },
  field: { zh: '字段须有名称（字母、数字、下划线，不超过 64 个字符）', en: 'A field needs a name (letters, digits, underscore; at most 64 characters)' },
  regex: { zh: '正则表达式不正确：{0}', en: 'Not a valid regular expression: {0}' },
  selector: { zh: 'CSS 选择器不正确：{0}', en: 'Not a valid CSS selector: {0}' },
  xpath: { zh: 'XPath 表达式不正确：{0}', en: 'Not a valid XPath expression: {0}' },
  selectorOrXPath: { zh: 'CSS 选择器与 XPath 只能填写其中一个：{0}', en: 'Give either a CSS selector or an XPath, not both: {0}' },
  limits: { zh: '采集限制超出范围（最大页数 1–100000，深度 0–20，并发 1–20，间隔 0–60000 毫秒，超时 1–300 秒）', en: 'A limit is out of range (pages 1–100000, depth 0–20, concurrency 1–20, delay 0–60000 ms, timeout 1–300 s)' },
  taskRunning: { zh: '任务正在运行，请先暂停或停止', en: 'The task is running: pause or stop it first' },
  noConfig: { zh: '请先配置采集规则', en: 'Configure the crawl first' },
  browser: { zh: '所选浏览器配置不存在', en: 'The chosen browser profile does not exist' },
};

export class ConfigError extends Error {
  constructor(readonly text: { zh: string; en: string }) {
    super(text.zh);
  }
}

const str = (max: number) => ({ type: 'string', maxLength: max });
const FIELD = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]{0,63}$' },
    selector: str(500),
    xpath: str(500),
    attr: { type: 'string', pattern: '^[A-Za-z_:][-A-Za-z0-9_:.]{0,63}$' },
    process: { type: 'array', maxItems: 10, items: { enum: ['trim', 'collapse', 'number', 'absoluteUrl', 'regex'] } },
    pattern: str(500),
    required: { type: 'boolean' },
  },
};
const JSON_SCHEMA = {
  type: 'object',
  required: ['startUrls', 'rules'],
  additionalProperties: false,
  properties: {
    startUrls: { type: 'array', minItems: 1, maxItems: 50, items: { type: 'string', maxLength: 2000, pattern: '^https?://' } },
    linkPatterns: { type: 'array', maxItems: 50, items: str(500), default: [] },
    linkSelector: { ...str(500), default: 'a[href]' },
    nextPageSelector: str(500),
    rules: {
      type: 'array', minItems: 1, maxItems: 20,
      items: {
        type: 'object', required: ['name', 'urlPattern', 'fields'], additionalProperties: false,
        properties: { name: { type: 'string', minLength: 1, maxLength: 64 }, urlPattern: { type: 'string', minLength: 1, maxLength: 500 }, rowSelector: str(500), rowXPath: str(500), fields: { type: 'array', minItems: 1, maxItems: 100, items: FIELD } },
      },
    },
    maxPages: { type: 'integer', minimum: 1, maximum: 100000, default: 100 },
    maxDepth: { type: 'integer', minimum: 0, maximum: 20, default: 3 },
    concurrency: { type: 'integer', minimum: 1, maximum: 20, default: 2 },
    delayMs: { type: 'integer', minimum: 0, maximum: 60000, default: 0 },
    timeoutSecs: { type: 'integer', minimum: 1, maximum: 300, default: 30 },
    respectRobotsTxt: { type: 'boolean', default: true },
    userAgent: str(300),
    useBrowser: { type: 'boolean', default: false },
    browserId: { type: 'string', pattern: '^([1-9][0-9]{0,18})?$' },
  },
};

const validate = new Ajv({ allErrors: false, strict: false, useDefaults: true }).compile(JSON_SCHEMA);

const fmt = (m: { zh: string; en: string }, v: string) => ({ zh: m.zh.replace('{0}', v), en: m.en.replace('{0}', v) });

function checkRegex(p: string): void {
  try {
    new RegExp(p);
  } catch {
    throw new ConfigError(fmt(CONFIG_MESSAGES.regex, p));
  }
}

function checkSelector($probe: CheerioAPI, s: string | undefined): void {
  if (!s) return;
  try {
    $probe(s);
  } catch {
    throw new ConfigError(fmt(CONFIG_MESSAGES.selector, s));
  }
}

function checkXPathOf(x: string | undefined): void {
  if (!x) return;
  try {
    checkXPath(x);
  } catch (e) {
    // jsdom missing is the installation's fault, not the expression's
    if ((e as { code?: string })?.code === 'MODULE_NOT_FOUND') throw e;
    throw new ConfigError(fmt(CONFIG_MESSAGES.xpath, x));
  }
}

/**
 * `v` without empty values: in objects a key whose value is null or '' is left out, in arrays such items are
 * dropped (a form sends a cleared text as '' and an untouched choice as null: both mean "not given").
 */
function dropEmpty(v: unknown): unknown {
  if (Array.isArray(v)) return v.filter((x) => x !== null && x !== '').map(dropEmpty);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null && x !== '').map(([k, x]) => [k, dropEmpty(x)]));
  return v;
}

/**
 * Checks `input` and answers (a promise of) it with the defaults filled in (a copy; empty values dropped first: `dropEmpty`);
 * throws `ConfigError` with the first problem's message.
 */
export async function checkConfig(input: unknown): Promise<SpiderConfig> {
  const $probe = (await loadCheerio()).load('<div></div>');
  if (!input || typeof input !== 'object' || Array.isArray(input)) throw new ConfigError(CONFIG_MESSAGES.invalid);
  const c = dropEmpty(input) as Record<string, unknown>;
  if (!validate(c)) {
    const path = validate.errors?.[0]?.instancePath ?? '';
    if (path.startsWith('/startUrls') || validate.errors?.[0]?.params && (validate.errors[0].params as Record<string, unknown>).missingProperty === 'startUrls') throw new ConfigError(CONFIG_MESSAGES.startUrls);
    if (/^\/rules\/\d+\/fields\/\d+/.test(path)) throw new ConfigError(CONFIG_MESSAGES.field);
    if (path.startsWith('/rules') || (validate.errors?.[0]?.params as Record<string, unknown>)?.missingProperty === 'rules') throw new ConfigError(CONFIG_MESSAGES.rules);
    if (/^\/(maxPages|maxDepth|concurrency|delayMs|timeoutSecs)/.test(path)) throw new ConfigError(CONFIG_MESSAGES.limits);
    throw new ConfigError(CONFIG_MESSAGES.invalid);
  }
  const cfg = c as unknown as SpiderConfig;
  for (const u of cfg.startUrls) {
    try {
      const url = new URL(u);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error();
    } catch {
      throw new ConfigError(CONFIG_MESSAGES.startUrls);
    }
  }
  cfg.linkPatterns.forEach(checkRegex);
  checkSelector($probe, cfg.linkSelector);
  checkSelector($probe, cfg.nextPageSelector);
  for (const r of cfg.rules) {
    checkRegex(r.urlPattern);
    if (r.rowSelector && r.rowXPath) throw new ConfigError(fmt(CONFIG_MESSAGES.selectorOrXPath, r.name));
    checkSelector($probe, r.rowSelector);
    checkXPathOf(r.rowXPath);
    for (const f of r.fields) {
      if (f.selector && f.xpath) throw new ConfigError(fmt(CONFIG_MESSAGES.selectorOrXPath, f.name));
      checkSelector($probe, f.selector);
      checkXPathOf(f.xpath);
      if (f.process?.includes('regex')) {
        if (!f.pattern) throw new ConfigError(fmt(CONFIG_MESSAGES.regex, ''));
        checkRegex(f.pattern);
      }
    }
  }
  return cfg;
}
