import type { Hono } from 'hono';
import { SignJWT, jwtVerify } from 'jose';
import type { AppEnv, EmulatorContext } from './context.ts';
import { json, notFound } from './hydra.ts';
import { isEnvName, SCOPE_READ, SCOPE_WRITE } from './types.ts';
import type { ClientRecord, EnvName } from './types.ts';

/** Access token lifetime, seconds (spec: 3600). */
export const TOKEN_TTL_SECONDS = 3600;

/** @returns the issuer of an environment for requests arriving at `origin`. */
export function issuerFor(origin: string, env: EnvName): string {
  return `${origin}/${env}/idp`;
}

function oauthError(error: string): Response {
  const res = json({ error }, 400);
  res.headers.set('cache-control', 'no-store');
  return res;
}

/**
 * Finds the client named by a Basic header. Never echoes what was sent.
 * @returns the client, or null for a missing, malformed or wrong credential.
 */
function authenticate(ctx: EmulatorContext, env: EnvName, header: string | null): ClientRecord | null {
  const m = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header ?? '');
  if (!m?.[1]) return null;
  let decoded: string;
  try {
    decoded = atob(m[1]);
  } catch {
    return null;
  }
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  const client = ctx.state.clients.get(decoded.slice(0, colon));
  if (!client || client.env !== env || client.clientSecret !== decoded.slice(colon + 1)) return null;
  return client;
}

/**
 * Cognito-style client-credentials token endpoint, JWKS and discovery document:
 * `POST /{env}/oauth2/token`, `GET /{env}/idp/.well-known/jwks.json`, `GET /{env}/idp/.well-known/openid-configuration`.
 * Checks in order: client (Basic header only) -> 400 invalid_client; form body exactly `grant_type` (+ `scope`)
 * -> 400 invalid_grant, other grant -> 400 unsupported_grant_type; scopes -> 400 invalid_scope.
 * @param app the app to register on.
 * @param ctx the emulator context.
 */
export function registerOAuth(app: Hono<AppEnv>, ctx: EmulatorContext): void {
  app.post('/:env/oauth2/token', async (c) => {
    const env = c.req.param('env');
    if (!isEnvName(env)) return notFound();
    const client = authenticate(ctx, env, c.req.header('authorization') ?? null);
    if (!client) return oauthError('invalid_client');
    const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded') return oauthError('invalid_grant');
    const form = new URLSearchParams(await c.req.text());
    const names = [...form.keys()];
    if (names.some((n) => n !== 'grant_type' && n !== 'scope') || new Set(names).size !== names.length) return oauthError('invalid_grant');
    const grant = form.get('grant_type');
    if (!grant) return oauthError('invalid_grant');
    if (grant !== 'client_credentials') return oauthError('unsupported_grant_type');
    const requested = (form.get('scope') ?? '').split(' ').filter(Boolean);
    if (requested.some((s) => !client.scopes.includes(s))) return oauthError('invalid_scope');
    const scopes = requested.length > 0 ? [...new Set(requested)] : client.scopes;

    const key = await ctx.keys.signing(env);
    const iat = Math.floor(ctx.clock.now() / 1000);
    const token = await new SignJWT({
      token_use: 'access',
      scope: scopes.join(' '),
      auth_time: iat,
      version: 2,
      client_id: client.clientId,
      jti: crypto.randomUUID(),
    })
      .setProtectedHeader({ alg: 'RS256', kid: key.kid })
      .setSubject(client.clientId)
      .setIssuer(issuerFor(new URL(c.req.url).origin, env))
      .setIssuedAt(iat)
      .setExpirationTime(iat + TOKEN_TTL_SECONDS)
      .sign(key.privateKey);
    const res = json({ access_token: token, expires_in: TOKEN_TTL_SECONDS, token_type: 'Bearer' });
    res.headers.set('cache-control', 'no-store');
    return res;
  });

  app.get('/:env/idp/.well-known/openid-configuration', (c) => {
    const env = c.req.param('env');
    if (!isEnvName(env)) return notFound();
    return json(discoveryDocument(new URL(c.req.url).origin, env));
  });

  app.get('/:env/idp/.well-known/jwks.json', async (c) => {
    const env = c.req.param('env');
    if (!isEnvName(env)) return notFound();
    return json({ keys: [(await ctx.keys.signing(env)).jwk] });
  });
}

/**
 * The identity provider's discovery document, as a Cognito-style user pool publishes it beside its JWKS, trimmed to
 * what this pool does: client credentials with `client_secret_basic` at the environment's token URL, the API's two
 * scopes, RS256. There is no authorization endpoint (the service has no user login), so `response_types_supported`,
 * which the format requires, names only `token`, and no `userinfo_endpoint` is published.
 * @param origin the origin the request arrived at (the issuer is built from it, as for tokens).
 * @param env the environment.
 * @returns the OpenID Provider metadata.
 */
export function discoveryDocument(origin: string, env: EnvName): Record<string, unknown> {
  const issuer = issuerFor(origin, env);
  return {
    issuer,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    token_endpoint: `${origin}/${env}/oauth2/token`,
    grant_types_supported: ['client_credentials'],
    token_endpoint_auth_methods_supported: ['client_secret_basic'],
    scopes_supported: [SCOPE_READ, SCOPE_WRITE],
    response_types_supported: ['token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
  };
}

/** A verified access token. */
export interface VerifiedToken {
  clientId: string;
  scopes: string[];
}

/**
 * Verifies an access token as the gateway's JWT authorizer does: RS256 with the environment's key, issuer of
 * the environment, not expired on the emulator clock, `token_use` = access.
 * @returns the client and scopes, or null when the token is not acceptable.
 */
export async function verifyAccessToken(ctx: EmulatorContext, env: EnvName, origin: string, token: string): Promise<VerifiedToken | null> {
  try {
    const key = await ctx.keys.signing(env);
    const { payload } = await jwtVerify(token, key.publicKey, {
      issuer: issuerFor(origin, env),
      algorithms: ['RS256'],
      currentDate: new Date(ctx.clock.now()),
      requiredClaims: ['exp', 'iat', 'sub'],
    });
    if (payload.token_use !== 'access' || typeof payload.client_id !== 'string') return null;
    const scopes = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [];
    return { clientId: payload.client_id, scopes };
  } catch {
    return null;
  }
}
