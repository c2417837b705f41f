/**
 * `GET /api/portal/content/searchByGPT?keyword=` (spec 001 §7 "Portal"; issue 14): an answer to a question
 * grounded on the search hits, from an OpenAI-compatible chat-completions endpoint an administrator
 * configured in the system parameters (blade_param, platform administrators): `gpt_base_url` (e.g.
 * `https://host/v1`), `gpt_model`, `gpt_api_key` (optional, sent as `Authorization: Bearer`).
 *
 * - unconfigured (no base URL or model): answers `{configured: false, answer: '', hits: []}` with the message
 *   未配置智能问答服务 — the UI hides the button; the call does not fail;
 * - `?check=1`: only whether it is configured, `{configured}` (what the search screen asks before showing it);
 * - configured: the caller's own `searchByEs` (same token, so the same tenant, grants and data scope) gives
 *   the top 5 hits; their titles and highlighted passages go to the model as numbered sources with the
 *   question; answers `{configured: true, answer, hits}` (the model's first choice, trimmed);
 * - the endpoint unreachable, slow (30 s) or answering an error: 502 智能问答服务调用失败 (never a 500);
 *   an empty keyword is 400 请输入问题.
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError, ok } from '../../core/envelope.js';
import type { ResourceEngine } from '../../resources/engine.js';
import { CONTENT_RESOURCE } from './hooks.js';

type Row = Record<string, any>;

export const GPT_PARAMS = { baseUrl: 'gpt_base_url', model: 'gpt_model', apiKey: 'gpt_api_key' } as const;
export const M = {
  unconfigured: { zh: '未配置智能问答服务', en: 'The question-answering service is not configured' },
  failed: { zh: '智能问答服务调用失败', en: 'The question-answering service failed' },
  noQuestion: { zh: '请输入问题', en: 'Please enter the question' },
};
const TIMEOUT_MS = 30_000;

/** The configured endpoint, or null when the base URL or the model is missing. */
export async function gptConfig(db: Db): Promise<{ baseUrl: string; model: string; apiKey: string } | null> {
  const r = await sql<{ k: string; v: string }>`SELECT param_key AS k, param_value AS v FROM blade_param
      WHERE is_deleted = 0 AND param_key IN (${GPT_PARAMS.baseUrl}, ${GPT_PARAMS.model}, ${GPT_PARAMS.apiKey})`.execute(db);
  const m = new Map(r.rows.map((x) => [x.k, (x.v ?? '').trim()]));
  const baseUrl = m.get(GPT_PARAMS.baseUrl) ?? '';
  const model = m.get(GPT_PARAMS.model) ?? '';
  if (!/^https?:\/\/\S+$/.test(baseUrl) || !model) return null;
  return { baseUrl: baseUrl.replace(/\/+$/, ''), model, apiKey: m.get(GPT_PARAMS.apiKey) ?? '' };
}

/** Mounts searchByGPT (see the module comment). */
export function registerGptRoutes(app: FastifyInstance, d: { db: Db; engine: ResourceEngine }): void {
  app.get('/api/portal/content/searchByGPT', { schema: { tags: ['portal'], summary: 'Content: an answer grounded on the search hits (OpenAI-compatible endpoint)' } }, async (req) => {
    const r = d.engine.registry.resources.get(CONTENT_RESOURCE);
    if (!r) throw new ApiError(404, 'notFound');
    await d.engine.authorize(req.user, r, 'read');
    const cfg = await gptConfig(d.db);
    if (!cfg) return ok({ configured: false, answer: '', hits: [] }, M.unconfigured[req.lang], req.lang);
    if ((req.query as Row).check === '1') return ok({ configured: true }, undefined, req.lang);
    const keyword = (req.query as Row).keyword;
    if (typeof keyword !== 'string' || !keyword.trim() || keyword.length > 500 || keyword.includes('\u0000')) throw new ApiError(400, M.noQuestion);
    const s = await app.inject({
      method: 'GET',
      url: `/api/portal/content/searchByEs?${new URLSearchParams({ keyword: keyword.slice(0, 200), current: '1', size: '5' })}`,
      headers: { 'blade-auth': String(req.headers['blade-auth'] ?? ''), authorization: String(req.headers.authorization ?? ''), 'accept-language': req.lang },
    });
    const hits: Row[] = s.statusCode === 200 ? (s.json().data.records as Row[]) : [];
    const sources = hits.map((h, i) => `[${i + 1}] ${h.title}\n${String(h.highlight ?? '').replace(/<\/?em>/g, '')}`).join('\n\n');
    const messages = [
      { role: 'system', content: '你是门户网站的问答助手。只根据给出的资料回答，资料中没有的内容请说明无法回答；引用资料时标注编号如 [1]。' },
      { role: 'user', content: `资料：\n${sources || '（无）'}\n\n问题：${keyword.trim()}` },
    ];
    let answer = '';
    try {
      const res = await fetch(`${cfg.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(cfg.apiKey ? { authorization: `Bearer ${cfg.apiKey}` } : {}) },
        body: JSON.stringify({ model: cfg.model, messages, temperature: 0.2 }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      if (!res.ok) throw new Error(`status ${res.status}`);
      const body = (await res.json()) as Row;
      answer = String(body?.choices?.[0]?.message?.content ?? '').trim();
      if (!answer) throw new Error('empty answer');
    } catch (e) {
      req.log.warn({ err: (e as Error).message }, 'searchByGPT failed');
      throw new ApiError(502, M.failed);
    }
    return ok({ configured: true, answer, hits }, undefined, req.lang);
  });
}
