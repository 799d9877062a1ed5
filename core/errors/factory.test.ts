import { describe, it, expect } from 'vitest';
import {
  ApiKeyError, ApplicationError, AuthenticationError, ConfigurationError, ConflictError, ErrorCode,
  InactiveLearnerError, MissingScopeError, NotFoundError, PartnerLearningError, QuotaExceededError, ServerError,
  ThrottledError, TokenEndpointError, ValidationError, errorFromResponse, isPartnerLearningError,
} from './index.ts';
import { createRedactor } from '../redact.ts';

/** What the error says and advises (message and hint). */
const said = (error: unknown): string => `${(error as Error).message} ${(error as { hint?: string }).hint ?? ''}`;


const url = 'https://api.example.com/sandbox/v1/users/3f1c9a52-8f4e-4c1e-9d7b-2a6f0e1b5c3d';
const api = (status: number, body: unknown, headers?: Record<string, string>) =>
  errorFromResponse({ status, body, headers: new Headers(headers), origin: 'api', method: 'GET', url });
const tokenEndpoint = (status: number, body: unknown) =>
  errorFromResponse({
    status, body, origin: 'token-endpoint', method: 'POST', url: 'https://auth.example.com/oauth2/token',
    requestedScopes: ['partner-api/read', 'partner-api/write'],
  });

describe('errorFromResponse: API application bodies', () => {
  it('maps validation_failed with violations to ValidationError', () => {
    const error = api(400, {
      error: 'validation_failed',
      violations: [{ propertyPath: 'email', message: 'This value is not a valid email address.' }],
    });
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.code).toBe(ErrorCode.VALIDATION);
    expect((error as ValidationError).violations).toEqual([{ propertyPath: 'email', message: 'This value is not a valid email address.' }]);
    expect(said(error)).toContain('email: This value is not a valid email address (GET');
    expect(error.message).not.toContain('..');
    expect(error.origin).toBe('api');
    expect(error.retryable).toBe(false);
  });

  it('maps an API Platform ConstraintViolationList to ValidationError', () => {
    const error = api(400, { '@type': 'ConstraintViolationList', violations: [{ propertyPath: 'firstName', message: 'blank' }] });
    expect(error).toBeInstanceOf(ValidationError);
  });

  it.each([
    ['hydra:Error with hydra:description', { '@type': 'hydra:Error', 'hydra:title': 'An error occurred', 'hydra:description': 'X-User-ID header is required' }],
    ['API Platform 4 unprefixed Error', { '@type': 'Error', title: 'An error occurred', description: 'X-User-ID header is required' }],
    ['problem+json detail', { type: '/errors/400', title: 'Bad Request', detail: 'X-User-ID header is required' }],
  ])('maps 400 %s to ApplicationError naming X-User-ID', (_name, body) => {
    const error = api(400, body);
    expect(error).toBeInstanceOf(ApplicationError);
    expect(error.code).toBe(ErrorCode.APPLICATION);
    expect(said(error)).toContain('X-User-ID header is required');
    expect(said(error)).toContain('36-character UUID');
  });

  it('names method, URL and request id in the message', () => {
    const error = api(404, { '@type': 'hydra:Error', 'hydra:description': 'Not Found' }, { 'x-request-id': 'req-42' });
    expect(error).toBeInstanceOf(NotFoundError);
    expect(said(error)).toContain(`(GET ${url})`);
    expect(said(error)).toContain('req-42');
    expect(error.requestId).toBe('req-42');
    expect(error.status).toBe(404);
    expect(error.method).toBe('GET');
    expect(error.url).toBe(url);
  });

  it('reads JSON given as text', () => {
    expect(api(409, '{"@type":"hydra:Error","hydra:description":"SCORM modules report their own completion"}')).toBeInstanceOf(ConflictError);
  });

  it('maps 415 to ApplicationError telling the merge-patch content type', () => {
    const error = api(415, { '@type': 'hydra:Error', 'hydra:description': 'The content-type "application/json" is not supported.' });
    expect(error).toBeInstanceOf(ApplicationError);
    expect(said(error)).toContain('application/merge-patch+json');
  });
});

describe('errorFromResponse: gateway and 4xx/5xx rows', () => {
  it('maps the gateway 401 {message:"Unauthorized"} to AuthenticationError naming the causes', () => {
    const error = api(401, { message: 'Unauthorized' });
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.code).toBe('authentication_failed');
    expect(error.origin).toBe('gateway');
    expect(said(error)).toMatch(/same environment/);
    expect(said(error)).toMatch(/clock/);
    expect(said(error)).toMatch(/oauth2\/token/);
    // The spec calls a persistent 401 a configuration problem: one catch for every "fix your set-up" error.
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.name).toBe('AuthenticationError');
    expect(error.retryable).toBe(false);
  });

  it.each([[''], [undefined], [null], ['   '], [{}]])('maps 403 with empty body (%j) to ApiKeyError', (body) => {
    const error = api(403, body);
    expect(error).toBeInstanceOf(ApiKeyError);
    expect(error.code).toBe('api_key_rejected');
    expect(error.origin).toBe('gateway');
    expect(said(error)).toMatch(/x-api-key/);
  });

  it('maps 403 mentioning a scope to MissingScopeError with the scope', () => {
    const error = api(403, { '@type': 'hydra:Error', 'hydra:description': 'Insufficient scope: partner-api/write required' });
    expect(error).toBeInstanceOf(MissingScopeError);
    expect((error as MissingScopeError).scope).toBe('partner-api/write');
  });

  it('maps a gateway 403 about permission to MissingScopeError', () => {
    expect(api(403, { message: 'User is not authorized to access this resource: missing permission' })).toBeInstanceOf(MissingScopeError);
  });

  it('maps 403 about an inactive user to InactiveLearnerError', () => {
    const error = api(403, { '@type': 'hydra:Error', 'hydra:description': 'The user is inactive.' });
    expect(error).toBeInstanceOf(InactiveLearnerError);
    expect(error.code).toBe('inactive_learner');
  });

  it('maps 429 Too Many Requests to a retryable ThrottledError with Retry-After', () => {
    const error = api(429, { message: 'Too Many Requests' }, { 'retry-after': '3' });
    expect(error).toBeInstanceOf(ThrottledError);
    expect(error.retryable).toBe(true);
    expect((error as ThrottledError).retryAfterMs).toBe(3000);
  });

  it('reads an HTTP-date Retry-After against the given clock', () => {
    const now = Date.UTC(2026, 10, 22, 12);
    const error = errorFromResponse({
      status: 429, body: { message: 'Too Many Requests' }, origin: 'api', now,
      headers: new Headers({ 'retry-after': new Date(now + 5000).toUTCString() }),
    });
    expect((error as ThrottledError).retryAfterMs).toBe(5000);
  });

  it('maps 429 Limit Exceeded to a non-retryable QuotaExceededError', () => {
    const error = api(429, { message: 'Limit Exceeded' });
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect(error.retryable).toBe(false);
  });

  it('keeps the Retry-After of a 503 on the ServerError', () => {
    const error = api(503, { message: 'Service Unavailable' }, { 'retry-after': '7' });
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).retryAfterMs).toBe(7000);
    expect((api(500, {}) as ServerError).retryAfterMs).toBeUndefined();
  });

  it.each([500, 502, 503, 504])('maps %i to a retryable ServerError that suggests /ping', (status) => {
    const error = api(status, status === 502 ? '<html>Bad Gateway</html>' : { '@type': 'hydra:Error', 'hydra:description': 'Internal error' });
    expect(error).toBeInstanceOf(ServerError);
    expect(error.retryable).toBe(true);
    expect(said(error)).toContain('/ping');
  });

  it('never retries 400, 403, 404, 409, 415', () => {
    for (const status of [400, 403, 404, 409, 415]) expect(api(status, { '@type': 'hydra:Error', 'hydra:description': 'x' }).retryable).toBe(false);
  });
});

describe('errorFromResponse: token endpoint', () => {
  it('invalid_client says to check the ID, secret and API key placement', () => {
    const error = tokenEndpoint(400, { error: 'invalid_client' });
    expect(error).toBeInstanceOf(TokenEndpointError);
    expect((error as TokenEndpointError).oauthError).toBe('invalid_client');
    expect(error.origin).toBe('token-endpoint');
    expect(said(error)).toContain('Check the client ID and secret, and that the API key was not put in their place');
  });

  it('invalid_scope names the requested scopes', () => {
    const error = tokenEndpoint(400, { error: 'invalid_scope' });
    expect(said(error)).toContain('This client is not allowed scope partner-api/read partner-api/write');
  });

  it.each(['invalid_grant', 'unsupported_grant_type'])('%s explains the exact form body', (oauthError) => {
    expect(said(tokenEndpoint(400, { error: oauthError }))).toContain('grant_type=client_credentials, form-encoded');
  });

  it('401 invalid_client (some servers) is the same class', () => {
    expect(tokenEndpoint(401, { error: 'invalid_client', error_description: 'Client authentication failed' })).toBeInstanceOf(TokenEndpointError);
  });

  it('5xx from the token endpoint is a retryable ServerError, 404 a ConfigurationError', () => {
    expect(tokenEndpoint(503, '')).toBeInstanceOf(ServerError);
    expect(tokenEndpoint(503, '').origin).toBe('token-endpoint');
    expect(tokenEndpoint(404, '<html>')).toBeInstanceOf(ConfigurationError);
  });
});

describe('error classes', () => {
  it('have literal names, codes and a common base', () => {
    const error = new ThrottledError({ message: 'x', origin: 'gateway' });
    expect(error.name).toBe('ThrottledError');
    expect(error).toBeInstanceOf(PartnerLearningError);
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('throttled');
  });

  it('never carry a token or credential in message or URL', () => {
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    const error = new ApplicationError({
      origin: 'api', method: 'GET', url: `https://u:p@api.example.com/v1/x?access_token=${jwt}&page=2`,
      message: `failed with Authorization: Bearer ${jwt} and Basic dXNlcjpwYXNz and client_secret=s3cr3tvalue`,
    });
    expect(error.message).not.toContain(jwt);
    expect(error.message).not.toContain('dXNlcjpwYXNz');
    expect(error.message).not.toContain('s3cr3tvalue');
    expect(error.url).not.toContain('u:p@');
    expect(error.url).toContain('page=2');
    expect(error.url).not.toContain(jwt);
  });
});

describe('errorFromResponse: redaction before truncation, one pass', () => {
  const apiKey = 'EchoedApiKey0123456789abcdefghijklmnop';
  const jwt = 'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJjbGllbnQiLCJzY29wZSI6InBhcnRuZXItYXBpL3JlYWQifQ.c2lnbmF0dXJlLXBhcnQ';
  const redactor = createRedactor([apiKey]);

  it('redacts violations, with the client\'s own secret values', () => {
    const error = errorFromResponse({
      status: 400, origin: 'api', method: 'POST', url, redactor,
      body: { error: 'validation_failed', violations: [{ propertyPath: 'email', message: `key ${apiKey} is not an email, token ${jwt}` }] },
    }) as ValidationError;
    const everything = JSON.stringify({ ...error.toJSON(), violations: error.violations });
    expect(everything).not.toContain(apiKey);
    expect(everything).not.toContain(jwt.slice(0, 20));
    expect(error.violations[0]?.message).toContain('[REDACTED]');
  });

  it('a credential across the 300-character cut leaves no part of itself', () => {
    for (const status of [400, 404, 500]) {
      const body = { '@type': 'hydra:Error', 'hydra:description': `${'x'.repeat(280)} token ${jwt} and ${apiKey}` };
      const error = errorFromResponse({ status, body, origin: 'api', method: 'GET', url, redactor });
      expect(error.message).not.toContain(jwt.slice(0, 12));
      expect(error.message).not.toContain(apiKey.slice(0, 12));
    }
    const text = errorFromResponse({ status: 502, body: `${'y'.repeat(290)} Bearer ${jwt}`, origin: 'api', url, redactor });
    expect(text.message).not.toContain(jwt.slice(0, 12));
  });

  it('ends a message built from the service\'s text with exactly one period', () => {
    for (const [status, body] of [
      [404, { '@type': 'hydra:Error', 'hydra:description': 'Not Found.' }],
      [400, { error: 'validation_failed', violations: [{ propertyPath: 'email', message: 'This value is not valid.' }] }],
      [409, { detail: 'Module is SCORM...' }],
      [503, { message: 'Service Unavailable.' }],
    ] as const) {
      const error = errorFromResponse({ status, body, origin: 'api', method: 'GET', url, headers: new Headers({ 'x-request-id': 'r-1' }) });
      expect(error.message).not.toMatch(/\.\./);
      expect(error.message).toMatch(/[^.]\.$/);
      if (error.hint !== undefined) expect(error.hint).toMatch(/[^.]\.$/);
    }
    const oauth = errorFromResponse({ status: 400, body: { error: 'invalid_client', error_description: 'Bad client.' }, origin: 'token-endpoint' });
    expect(oauth.message).not.toMatch(/\.\./);
  });

  it('gives a short message and a separate hint, both in toJSON', () => {
    const error = api(404, { '@type': 'hydra:Error', 'hydra:description': 'Not Found' });
    expect(error.message).not.toMatch(/belongs to another partner/);
    expect(error.hint).toMatch(/belongs to another partner/);
    expect(error.toJSON()).toMatchObject({ code: 'not_found', status: 404, hint: error.hint, message: error.message });
  });
});

describe('isPartnerLearningError', () => {
  it('recognises the client\'s errors by brand, also from another copy of the class, and nothing else', () => {
    expect(isPartnerLearningError(api(404, {}))).toBe(true);
    expect(isPartnerLearningError(new Error('x'))).toBe(false);
    expect(isPartnerLearningError({ code: 'not_found', name: 'NotFoundError' })).toBe(false);
    expect(isPartnerLearningError(null)).toBe(false);
    // What an error from the other build (ESM vs CommonJS) looks like: another class, the same registered symbol.
    class OtherCopy extends Error {}
    Object.defineProperty(OtherCopy.prototype, Symbol.for('partner-learning-client.error'), { value: true });
    expect(isPartnerLearningError(new OtherCopy('x'))).toBe(true);
  });
});
