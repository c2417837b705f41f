/**
 * Helpers for the scripts that drive chromium without the test runner (tests/bench/ui.bench.ts,
 * tests/e2e/screenshots.ts): log in through the login page as a person does (the captcha text from the
 * `X-Test-Captcha` header of the page's captcha request), and seed records through the API.
 */
import type { Page } from 'playwright-core';

export const CLIENT_BASIC = 'Basic ' + Buffer.from('saber:saber_secret').toString('base64');

/** Opens /login (in `lang`), logs `account` in, and waits for the home page (one-role accounts). */
export async function loginThroughPage(page: Page, baseURL: string, account: string, password: string): Promise<void> {
  const captcha = page.waitForResponse((r) => r.url().includes('/api/blade-auth/oauth/captcha'));
  await page.goto(`${baseURL}/login`);
  const res = await captcha;
  const code = res.headers()['x-test-captcha'];
  if (!code) throw new Error('no X-Test-Captcha header: is the server running with NODE_ENV=test?');
  await page.locator('#tenantId').fill('000000');
  await page.locator('#username').fill(account);
  await page.locator('#password').fill(password);
  await page.locator('#login-code').fill(code);
  await page.locator('button[type=submit]').click();
  await page.waitForURL(/\/wel\/index$/, { timeout: 30_000 });
}

/** Switches the UI language with the language switch in the top bar (or on the login page). */
export async function switchLanguage(page: Page, lang: 'zh' | 'en'): Promise<void> {
  await page.getByRole('button', { name: 'language' }).click();
  await page.getByRole('menuitem', { name: lang === 'en' ? 'English' : '中文' }).click();
  await page.getByRole('button', { name: 'language' }).filter({ hasText: lang === 'en' ? 'English' : '中文' }).waitFor();
}

/** A token for `account` (password grant), for seeding through the API. */
export async function apiToken(baseURL: string, account: string, password: string): Promise<string> {
  const res = await fetch(`${baseURL}/api/blade-auth/oauth/token`, {
    method: 'POST',
    headers: { Authorization: CLIENT_BASIC, 'Tenant-Id': '000000', 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: account, password, tenantId: '000000' }).toString(),
  });
  const json = (await res.json()) as { access_token?: string; msg?: string };
  if (!json.access_token) throw new Error(`token for ${account}: ${res.status} ${json.msg ?? ''}`);
  return json.access_token;
}

/** Calls the API with `token`; answers the envelope's data (throws on failure). */
export async function api<T = unknown>(baseURL: string, token: string, method: 'GET' | 'POST', url: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Authorization: CLIENT_BASIC, 'Blade-Auth': `bearer ${token}`, 'Tenant-Id': '000000' };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(baseURL + url, { method, headers, body: payload });
  const json = (await res.json()) as { code: number; data: T; msg: string };
  if (json.code !== 200) throw new Error(`${method} ${url}: ${json.code} ${json.msg} ${JSON.stringify(json.data)}`);
  return json.data;
}

/** Seeds `count` complete patents of kygl's department (with one uploaded PDF shared as attachment). */
export async function seedPatents(baseURL: string, password: string, count: number, pdf: Buffer): Promise<void> {
  const token = await apiToken(baseURL, 'kygl', password);
  const fd = new FormData();
  fd.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), '专利证书.pdf');
  const file = await api<{ link: string; name: string; originalName: string }>(baseURL, token, 'POST', '/api/blade-resource/oss/endpoint/put-file', fd);
  const tree = await api<Array<{ title: string; value: string; children?: unknown[] }>>(baseURL, token, 'GET', '/api/blade-system/dept/tree');
  const find = (nodes: any[], title: string): string | undefined => {
    for (const n of nodes) {
      if (n.title === title) return n.value;
      const below = find(n.children ?? [], title);
      if (below) return below;
    }
    return undefined;
  };
  const deptId = find(tree, '集团科技信息部') ?? tree[0].value;
  const subjects = ['粮仓温湿度智能监测装置', '低温储粮控温系统', '粮食扦样机器人', '储粮害虫诱捕装置', '谷物水分快速检测方法', '粮堆通风控制方法', '仓房气密性检测装置', '粮情测控数据分析方法'];
  const types = ['1', '2', '3'];
  for (let i = 0; i < count; i++) {
    const n = String(i + 1).padStart(3, '0');
    await api(baseURL, token, 'POST', '/api/basic/patent/submit', {
      name: `一种${subjects[i % subjects.length]}（${n}）`,
      deptId,
      projectSource: 3,
      projectName: `粮食仓储科技项目${n}`,
      projectType: String((i % 3) + 1),
      type: types[i % types.length],
      region: '中国',
      address: '北京市西城区粮储大厦',
      postcode: '100032',
      applyDate: `2023-${String((i % 12) + 1).padStart(2, '0')}-15`,
      authorizationDate: `2024-${String((i % 12) + 1).padStart(2, '0')}-20`,
      authorizationCode: `ZL2023101${String(23456 + i).padStart(5, '0')}.${i % 10}`,
      code: `第${6543210 + i}号`,
      isTransfer: false,
      annex: [{ name: file.name, link: file.link, originalName: file.originalName }],
    });
  }
}
