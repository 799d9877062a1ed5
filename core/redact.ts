/**
 * Redaction of credentials and tokens. Every log line and every error message passes through here, so a secret can
 * only leak if it is neither in a known sensitive position (header, query parameter, key) nor one of the exact
 * values the client was configured with nor shaped like a JWT.
 */

export const REDACTED = '[REDACTED]';

const SENSITIVE_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'cookie',
  'set-cookie',
  'x-amz-security-token',
]);

// Query parameter and object key names whose values are secret (compared lower-case, `-` and `_` ignored).
const SENSITIVE_KEYS = new Set([
  'authorization',
  'xapikey',
  'apikey',
  'clientsecret',
  'secret',
  'password',
  'accesstoken',
  'idtoken',
  'refreshtoken',
  'token',
  'bearer',
  'cookie',
  'setcookie',
  'signature',
  'sig',
  'xamzsignature',
  'xamzcredential',
  'xamzsecuritytoken',
  'keypairid',
  'policy',
]);

const JWT = /\beyJ[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*/g;
const AUTH_SCHEME = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;
const KEY_VALUE =
  /\b(client[_-]?secret|access[_-]?token|id[_-]?token|refresh[_-]?token|x-api-key|api[_-]?key|password|secret)(["']?\s*[:=]\s*["']?)[^\s"'&,;}]+/gi;

function normalizeKey(key: string): string {
  return key.toLowerCase().replace(/[-_]/g, '');
}

/**
 * Whether a header, query parameter or object key holds a secret.
 *
 * @param key The name, any case.
 * @returns `true` for `Authorization`, `x-api-key`, `client_secret`, `access_token`, signatures and the like.
 */
export function isSensitiveKey(key: string): boolean {
  return SENSITIVE_HEADERS.has(key.toLowerCase()) || SENSITIVE_KEYS.has(normalizeKey(key));
}

/** Removes secrets from text, headers, URLs and structured log fields. */
export interface Redactor {
  /** Free text: known secret values, JWTs, `Bearer …`/`Basic …` credentials, `secret=…`-style pairs. */
  text(value: string): string;
  /** A URL: user info dropped, sensitive query values replaced, the rest passed through {@link Redactor.text}. */
  url(value: string | URL): string;
  /** Headers as a plain object, sensitive values replaced (the auth scheme is kept: `Bearer [REDACTED]`). */
  headers(value: Headers | Record<string, string>): Record<string, string>;
  /** Any value, deeply: strings, arrays, plain objects, `Headers`, `URL`, errors. */
  value(value: unknown): unknown;
}

/**
 * The forms in which a secret can come back in text: as it is, percent-encoded (a URL or query), form-encoded (a
 * token request body, where a space is `+`), and reversed (an upstream that mangles what it echoes).
 *
 * @param secret A secret value.
 * @returns Its spellings, the value itself first.
 */
export function secretSpellings(secret: string): string[] {
  const percent = encodeURIComponent(secret);
  const form = new URLSearchParams({ s: secret }).toString().slice(2);
  return [secret, percent, percent.toLowerCase(), form, [...secret].reverse().join('')];
}

/**
 * The Basic credential a client sends to the token endpoint (`base64(id:secret)`, UTF-8, as the spec's token request
 * writes it): a secret in its own right, since it decodes to the client secret.
 *
 * @param clientId The OAuth2 client ID.
 * @param clientSecret The client secret.
 * @returns The credential without the `Basic ` scheme.
 */
export function basicCredential(clientId: string, clientSecret: string): string {
  const bytes = new TextEncoder().encode(`${clientId}:${clientSecret}`);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * Creates a redactor that, besides the generic patterns, removes these exact values wherever they occur, also
 * percent-encoded, form-encoded or reversed.
 *
 * @param secrets The client secret, API key, tokens, Basic credential… Values shorter than 8 characters are
 *   ignored (too likely to match innocent text).
 * @returns A {@link Redactor}.
 * @example
 * const redact = createRedactor([options.clientSecret, options.apiKey]);
 * redact.text(`key ${options.apiKey}`); // 'key [REDACTED]'
 */
export function createRedactor(secrets: readonly string[] = []): Redactor {
  const known = [...new Set(secrets.filter((s) => typeof s === 'string' && s.length >= 8).flatMap(secretSpellings))].sort(
    (a, b) => b.length - a.length,
  );

  const text = (value: string): string => {
    let out = value;
    for (const secret of known) out = out.split(secret).join(REDACTED);
    return out
      .replace(JWT, REDACTED)
      .replace(AUTH_SCHEME, (_m, scheme: string) => `${scheme} ${REDACTED}`)
      .replace(KEY_VALUE, (_m, key: string, sep: string) => `${key}${sep}${REDACTED}`);
  };

  const url = (value: string | URL): string => {
    let parsed: URL;
    try {
      parsed = new URL(String(value));
    } catch {
      return text(String(value));
    }
    parsed.username = '';
    parsed.password = '';
    for (const key of [...new Set(parsed.searchParams.keys())]) {
      if (isSensitiveKey(key)) parsed.searchParams.set(key, REDACTED);
    }
    return text(parsed.toString()).replaceAll(encodeURIComponent(REDACTED), REDACTED);
  };

  const headers = (value: Headers | Record<string, string>): Record<string, string> => {
    const out: Record<string, string> = {};
    const entries = value instanceof Headers ? [...value.entries()] : Object.entries(value);
    for (const [name, raw] of entries) {
      if (!isSensitiveKey(name)) {
        out[name] = text(raw);
        continue;
      }
      const scheme = /^(Bearer|Basic)\s/i.exec(raw)?.[1];
      out[name] = scheme ? `${scheme} ${REDACTED}` : REDACTED;
    }
    return out;
  };

  const valueOf = (input: unknown, depth: number): unknown => {
    if (typeof input === 'string') return text(input);
    if (input === null || typeof input !== 'object') return input;
    if (depth > 6) return '[…]';
    if (input instanceof Headers) return headers(input);
    if (input instanceof URL) return url(input);
    if (input instanceof Error) return { name: input.name, message: text(input.message) };
    if (Array.isArray(input)) return input.map((item) => valueOf(item, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(input)) {
      if (isSensitiveKey(key) && key.toLowerCase() !== 'authorization') out[key] = REDACTED;
      else if (key.toLowerCase() === 'authorization' && typeof item === 'string') out[key] = headers({ [key]: item })[key];
      else out[key] = valueOf(item, depth + 1);
    }
    return out;
  };

  return { text, url, headers, value: (input) => valueOf(input, 0) };
}

/** A redactor with the generic patterns only (no known secret values). */
export const redact: Redactor = createRedactor();
