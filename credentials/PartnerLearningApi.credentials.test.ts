import { describe, expect, it } from 'vitest';
import type { IHttpRequestHelper, IHttpRequestOptions } from 'n8n-workflow';
import { decodeJwt } from 'jose';
import { emulatorCredential, fakeHttpRequest } from '../test/n8n/support/fake-n8n.ts';
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

  it('a wrong secret fails at the token endpoint with a message naming ID and secret, not the secret', async () => {
    const setup = emulatorCredential();
    const wrong = 'x'.repeat(52);
    const error = await type.preAuthentication.call(helperFor(setup, []), { ...setup.credential, clientSecret: wrong })
      .then(() => undefined, (e: unknown) => e as Error & { code?: string; hint?: string });
    expect(error?.code).toBe('token_endpoint_error');
    expect(`${error?.message} ${error?.hint ?? ''}`).toMatch(/client ID and secret/i);
    expect(JSON.stringify(error)).not.toContain(wrong);
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
});
