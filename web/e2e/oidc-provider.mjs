// A real OpenID provider (oidc-provider) for the tests: one confidential client, PKCE
// required, no UI (the login interaction signs in at once). Run by the Rust tests and the
// e2e suite:
//   node e2e/oidc-provider.mjs --redirect-uri http://127.0.0.1:8080/api/v1/auth/oidc/callback
// Prints one JSON line {"issuer": "..."} when ready; exits when stdin closes (its parent
// died) or on SIGTERM.
//
// Account ids come from `login_hint` (default "driver-1"). An account id with a "~mode"
// suffix (e.g. "alice~aud") makes the token endpoint hand back a tampered ID token, so the
// tests can check that the server refuses it: aud, nonce, expired, kid, iss, none, sig.
import http from 'node:http';
import { parseArgs } from 'node:util';
import * as jose from 'jose';
import Provider from 'oidc-provider';

const { values: args } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    'redirect-uri': { type: 'string', multiple: true, default: [] },
    'client-id': { type: 'string', default: 'delivery-tracker' },
    'client-secret': { type: 'string', default: 'test-client-secret' },
  },
});

const signingKey = await jose.generateKeyPair('RS256', { extractable: true });
const signingJwk = { ...(await jose.exportJWK(signingKey.privateKey)), kid: 'test-key-1', alg: 'RS256', use: 'sig' };
// Never published: tokens signed with it name a key id the server cannot find.
const strayKey = await jose.generateKeyPair('RS256');

let handler = (_req, res) => res.writeHead(503).end();
const server = http.createServer((req, res) => handler(req, res));
await new Promise((resolve) => server.listen(Number(args.port), '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const accountName = (id) => id.split('~')[0];
const provider = new Provider(issuer, {
  clients: [
    {
      client_id: args['client-id'],
      client_secret: args['client-secret'],
      redirect_uris: args['redirect-uri'],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  jwks: { keys: [signingJwk] },
  cookies: { keys: ['oidc-provider-test-cookie-key'] },
  pkce: { required: () => true },
  // The ID token itself carries name and e-mail (as Google's does).
  conformIdTokenClaims: false,
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  features: { devInteractions: { enabled: false } },
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  async findAccount(_ctx, id) {
    return {
      accountId: id,
      async claims() {
        const name = accountName(id);
        return { sub: id, name: `Test ${name}`, email: `${name}@example.com`, email_verified: true };
      },
    };
  },
  // Consent is implied: every requested scope is granted.
  async loadExistingGrant(ctx) {
    const grant = new ctx.oidc.provider.Grant({
      clientId: ctx.oidc.client.clientId,
      accountId: ctx.oidc.session.accountId,
    });
    grant.addOIDCScope('openid email profile');
    grant.addOIDCClaims(['sub', 'name', 'email', 'email_verified']);
    await grant.save();
    return grant;
  },
});

async function tamper(idToken) {
  const claims = jose.decodeJwt(idToken);
  const mode = String(claims.sub).split('~')[1];
  if (!mode) return idToken;
  const now = Math.floor(Date.now() / 1000);
  const sign = (payload, key = signingKey.privateKey, kid = signingJwk.kid) =>
    new jose.SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid }).sign(key);
  switch (mode) {
    case 'aud':
      return sign({ ...claims, aud: 'someone-else' });
    case 'nonce':
      return sign({ ...claims, nonce: 'not-the-nonce-that-was-sent' });
    case 'expired':
      return sign({ ...claims, iat: now - 7200, exp: now - 3600 });
    case 'iss':
      return sign({ ...claims, iss: 'http://127.0.0.1:1' });
    case 'kid':
      return sign(claims, strayKey.privateKey, 'unknown-kid');
    case 'none':
      return new jose.UnsecuredJWT(claims).encode();
    case 'sig': {
      // Another subject under the provider's genuine signature of the original claims.
      const [header, , signature] = idToken.split('.');
      const forged = jose.base64url.encode(JSON.stringify({ ...claims, sub: 'someone-else' }));
      return `${header}.${forged}.${signature}`;
    }
    default:
      return idToken;
  }
}

provider.use(async (ctx, next) => {
  const interaction = ctx.path.match(/^\/interaction\/([^/]+)$/);
  if (interaction && ctx.method === 'GET') {
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    const accountId = details.params.login_hint || 'driver-1';
    await provider.interactionFinished(ctx.req, ctx.res, { login: { accountId } }, { mergeWithLastSubmission: false });
    ctx.respond = false;
    return;
  }
  await next();
  if (ctx.path === '/token' && ctx.body && typeof ctx.body.id_token === 'string') {
    ctx.body = { ...ctx.body, id_token: await tamper(ctx.body.id_token) };
  }
});

handler = provider.callback();
// The parent may stop reading once it has the ready line.
process.stdout.on('error', () => {});
process.stdout.write(`${JSON.stringify({ issuer })}\n`);
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
process.on('SIGTERM', () => process.exit(0));
