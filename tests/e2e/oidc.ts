/**
 * A real OpenID Connect provider for the social sign-in journey (issue 10): the `oidc-provider` package on
 * 127.0.0.1, started by the spec that needs it. Discovery, authorization (PKCE), the token endpoint, signed ID
 * tokens and userinfo are the package's own; only its sign-in screen is ours — a one-field page (用户名) that
 * signs in whoever is typed and consents for them, as a company's identity provider would after its own
 * checks (the package's development screen loads web fonts from the internet, which the tests must not do).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

export interface RunningProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

const page = (uid: string) => `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>统一身份认证</title></head><body>
<form method="post" action="/interaction/${uid}"><label>用户名 <input name="login" required autofocus></label><button type="submit">登录</button></form></body></html>`;

/** Starts a provider whose one client may come back to `redirectUris` (our callback URLs). */
export async function startOidcProvider(redirectUris: string[]): Promise<RunningProvider> {
  const clientId = 'kechuang-e2e';
  const clientSecret = `secret-${Date.now().toString(36)}`;
  // the provider needs its issuer (the server's port) first: the handler finds it here once it exists
  const holder: { provider?: Provider } = {};
  const server = http.createServer((req, res) => {
    const op = holder.provider;
    if (!op) return void res.writeHead(503).end();
    if (!req.url?.startsWith('/interaction/')) return void op.callback()(req, res);
    void (async () => {
      const d = await op.interactionDetails(req, res);
      if (req.method === 'GET') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(d.uid));
      let body = '';
      for await (const chunk of req) body += String(chunk);
      const login = new URLSearchParams(body).get('login')?.trim() ?? '';
      if (!login) return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(d.uid));
      const grant = new op.Grant({ accountId: login, clientId: String(d.params.client_id) });
      grant.addOIDCScope(String(d.params.scope));
      await op.interactionFinished(req, res, { login: { accountId: login }, consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: false });
    })().catch((e: unknown) => res.writeHead(500).end(String(e)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  holder.provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: redirectUris, response_types: ['code'], grant_types: ['authorization_code'] }],
    jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'e2e' }] },
    features: { devInteractions: { enabled: false } },
    claims: { openid: ['sub'], profile: ['name', 'preferred_username'] },
    cookies: { keys: [clientSecret] },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    findAccount: async (_ctx, id) => ({ accountId: id, claims: async () => ({ sub: id, preferred_username: id, name: '鲍勃' }) }),
  });
  return {
    issuer,
    clientId,
    clientSecret,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
