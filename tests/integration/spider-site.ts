/**
 * The local site the crawler tests crawl (issue 16 "Tests"), served on 127.0.0.1 only: three list pages with
 * pagination (`/list?page=1..3`, three items each, `a.next`), nine detail pages (`/detail/1..9`), a slow page
 * (`/slow`, 1.2 s), a 500 page (`/error500`), a robots.txt forbidding `/private/`, a page whose content only
 * JavaScript writes (`/js`, script `/js.js`). Every request is counted per path (`hits`), and `foreign`
 * counts requests whose Host is not this server (none may come).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Site {
  base: string;
  hits: Map<string, number>;
  foreign: number;
  /** The User-Agent of the last request per path. */
  agents: Map<string, string>;
  close(): Promise<void>;
}

const page = (title: string, body: string) => `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

/** Starts the site on an ephemeral port of 127.0.0.1. */
export async function startSite(): Promise<Site> {
  const hits = new Map<string, number>();
  const site: Site = { base: '', hits, foreign: 0, agents: new Map(), close: async () => undefined };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const key = url.pathname + url.search;
    hits.set(key, (hits.get(key) ?? 0) + 1);
    site.agents.set(key, String(req.headers['user-agent'] ?? ''));
    if (!String(req.headers.host ?? '').startsWith('127.0.0.1:')) site.foreign++;
    const html = (s: string, status = 200) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
      res.end(s);
    };
    if (url.pathname === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end('User-agent: *\nDisallow: /private/\n');
    }
    if (url.pathname === '/list') {
      const n = Number(url.searchParams.get('page') ?? '1');
      const items = [1, 2, 3].map((i) => (n - 1) * 3 + i)
        .map((k) => `<li class="item"><a href="/detail/${k}"> 通知 ${k} </a><span class="price">¥1,20${k}.5 元</span></li>`).join('');
      const extra = n === 1 ? '<a href="/private/secret">内部</a><a href="/error500">坏页</a><a href="/slow">慢页</a><a href="http://example.com/detail/99">外站</a>' : '';
      const next = n < 3 ? `<a class="next" href="/list?page=${n + 1}">下一页</a>` : '';
      return html(page(`列表 ${n}`, `<ul>${items}</ul>${extra}${next}`));
    }
    const d = /^\/detail\/(\d+)$/.exec(url.pathname);
    if (d) return html(page(`详情 ${d[1]}`, `<h1>  通知 ${d[1]}  </h1><div class="body">第 ${d[1]} 号
        通知的   正文</div>`));
    if (url.pathname === '/slow') {
      setTimeout(() => html(page('慢页', '<h1>慢页</h1><div class="body">来得  很慢</div>')), 1200);
      return;
    }
    if (url.pathname === '/error500') return html(page('错误', '服务器错误'), 500);
    if (url.pathname === '/private/secret') return html(page('内部', '<h1>不可采集</h1>'));
    if (url.pathname === '/js') return html(page('脚本页', '<h1 id="t"></h1><div class="body" id="b"></div><script src="/js.js"></script>'));
    if (url.pathname === '/js.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      return res.end("document.getElementById('t').textContent='脚本写的标题';document.getElementById('b').textContent='脚本写的正文';");
    }
    html(page('未找到', 'not found'), 404);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  site.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  site.close = () => new Promise<void>((r) => {
    server.closeAllConnections();
    server.close(() => r());
  });
  return site;
}
