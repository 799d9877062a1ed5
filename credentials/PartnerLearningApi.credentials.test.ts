import { describe, expect, it } from 'vitest';
import type { ICredentialDataDecryptedObject, IHttpRequestHelper, IHttpRequestOptions } from 'n8n-workflow';
import { decodeJwt } from 'jose';
import { emulatorCredential, fakeHttpRequest, ORIGIN } from '../test/n8n/support/fake-n8n.ts';
import { PartnerLearningApi } from './PartnerLearningApi.credentials.ts';

function helperFor(setup: ReturnType<typeof emulatorCredential>, log: IHttpRequestOptions[]): IHttpRequestHelper {
  return { helpers: { httpRequest: fakeHttpRequest(setup.emulator, log) } } as unknown as IHttpRequestHelper;
}

describe('credential partnerLearningApi', () => {
  const type = new PartnerLearningApi();

  it('fetches the token with the exact form body and Basic header, never the API key', async () => {
    const setup = emulatorCredential();
    const log: IHttpRequestOptions[] = [];
    const result = await type.preAuthentication.call(helperFor(setup, log), setup.credential);
    expect(Object.keys(result)).toEqual(['accessToken']);
    expect(decodeJwt(String(result.accessToken)).scope).toBe('partner-api/read partner-api/write');
    expect(log).toHaveLength(1);
    expect(log[0]!.body).toBe('grant_type=client_credentials&scope=partner-api%2Fread+partner-api%2Fwrite');
    expect(String((log[0]!.headers as Record<string, string>).Authorization)).toMatch(/^Basic /);
    expect(JSON.stringify(log[0])).not.toContain(String(setup.credential.apiKey));
  });

  it('asks only for read with scope "read"', async () => {
    const setup = emulatorCredential();
    const log: IHttpRequestOptions[] = [];
    await type.preAuthentication.call(helperFor(setup, log), { ...setup.credential, scope: 'read' });
    expect(log[0]!.body).toBe('grant_type=client_credentials&scope=partner-api%2Fread');
  });

  /** What preAuthentication threw, for a credential changed by `change`. */
  async function failure(change: (setup: ReturnType<typeof emulatorCredential>) => ICredentialDataDecryptedObject) {
    const setup = emulatorCredential();
    const error = await type.preAuthentication.call(helperFor(setup, []), { ...setup.credential, ...change(setup) })
      .then(() => undefined, (e: unknown) => e as Error & { code?: string; cause?: { code?: string; hint?: string } });
    if (!error) throw new Error('preAuthentication did not fail');
    // n8n's credential tester shows `error.cause.code` when the wrapped error has a code: ours must not have one.
    expect(error.code).toBeUndefined();
    expect(JSON.stringify({ message: error.message, cause: error.cause })).not.toContain(String(setup.credential.clientSecret));
    expect(error.message).not.toContain(String(setup.credential.apiKey));
    return error;
  }

  it('a wrong secret fails with a sentence naming Client ID and Client Secret, the core error as its cause, no secret', async () => {
    const wrong = 'x'.repeat(52);
    const error = await failure(() => ({ clientSecret: wrong }));
    expect(error.message).toMatch(/rejected the Client ID or Client Secret/);
    expect(error.cause?.code).toBe('token_endpoint_error');
    expect(`${error.message} ${JSON.stringify(error.cause)}`).not.toContain(wrong);
  });

  it('API key and client secret swapped: the sentence names both fields', async () => {
    const error = await failure((s) => ({ clientSecret: String(s.credential.apiKey), apiKey: String(s.credential.clientSecret) }));
    expect(error.message).toMatch(/API Key was not pasted into Client Secret/);
  });

  it('a typo in the token URL: the sentence names Token URL and its path', async () => {
    const error = await failure((s) => ({ tokenUrl: String(s.credential.tokenUrl).replace('/oauth2/token', '/oauth2/tokne') }));
    expect(error.message).toMatch(/^The Token URL does not lead to a token endpoint \(HTTP 404\)/);
  });

  it('Read and Write asked for a read-only client: the sentence says to set Scope to Read Only', async () => {
    const error = await failure((s) => {
      const readOnly = s.emulator.partners(ORIGIN)[0]!.environments.sandbox.clients[1]!;
      return { clientId: readOnly.clientId, clientSecret: readOnly.clientSecret, scope: 'readWrite' };
    });
    expect(error.message).toMatch(/may only read.*Set Scope to Read Only/);
  });

  it('nothing listening at the token URL (wrong port): the sentence names its host and port', async () => {
    const setup = emulatorCredential();
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const helper = { helpers: { httpRequest: async () => { throw refused; } } } as unknown as IHttpRequestHelper;
    const error = await type.preAuthentication.call(helper, { ...setup.credential, tokenUrl: 'http://127.0.0.1:9/sandbox/oauth2/token' })
      .then(() => undefined, (e: unknown) => e as Error & { code?: string; cause?: { code?: string; origin?: string } });
    expect(error?.code).toBeUndefined();
    expect(error?.message).toBe("Nothing answered at the Token URL's host and port (127.0.0.1:9: connection refused). Check the host and port in Token URL.");
    expect(error?.cause).toMatchObject({ code: 'network_error', origin: 'token-endpoint' });
  });

  it('authenticates with the bearer token and the API key; the test reads with both', () => {
    expect(type.authenticate.properties.headers).toEqual({
      Authorization: '=Bearer {{$credentials.accessToken}}',
      'x-api-key': '={{$credentials.apiKey}}',
    });
    expect(type.test.request).toMatchObject({ baseURL: '={{$credentials.baseUrl}}', url: '/organizations' });
    const hidden = type.properties.find((p) => p.name === 'accessToken')!;
    expect(hidden).toMatchObject({ type: 'hidden', typeOptions: { expirable: true, password: true } });
  });

  it('says, in the form, what n8n 1.x shows for the two mistakes its test cannot name', () => {
    const notice = type.properties[0]!;
    expect(notice).toMatchObject({ name: 'testNotice', type: 'notice' });
    expect(notice.displayName).toMatch(/n8n 1\.x.*Forbidden - perhaps check your credentials\?.*API Key.*could not be found.*Base URL/);
    // The contract's fields follow it, in order, then the optional limiter host (added, as the contract allows).
    expect(type.properties.slice(1).map((p) => p.name)).toEqual([
      'tokenUrl', 'baseUrl', 'clientId', 'clientSecret', 'apiKey', 'scope', 'limiterUrl', 'limiterToken', 'accessToken',
    ]);
  });

  it('names a limiter host only optionally, its token as a password', () => {
    const url = type.properties.find((p) => p.name === 'limiterUrl')!;
    const token = type.properties.find((p) => p.name === 'limiterToken')!;
    expect(url).toMatchObject({ type: 'string', default: '' });
    expect(url.required).not.toBe(true);
    expect(token).toMatchObject({ type: 'string', default: '', typeOptions: { password: true } });
    expect(token.required).not.toBe(true);
  });

  it('the API\'s 403 names the API Key, and the environments mixed up when the key is right', () => {
    const rule = type.test.rules!.find((r) => r.type === 'responseCode' && r.properties.value === 403)!;
    expect(rule.properties.message).toMatch(/rejected the API Key.*environment the Base URL belongs to.*if the key is right, Token URL, Base URL and API Key are not all the same environment/);
  });
});
