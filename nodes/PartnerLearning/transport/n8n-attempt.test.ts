import { describe, expect, it } from 'vitest';
import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { sendAttempt } from './n8n-attempt.ts';
import { errorFromResponse } from '../../../core/protocol.ts';

const node = { id: 'n', name: 'Partner Learning', type: 't', typeVersion: 1, position: [0, 0] as [number, number], parameters: {} };

function contextThrowing(thrown: unknown, sent: IHttpRequestOptions[] = []) {
  return {
    getNode: () => node,
    helpers: {
      httpRequestWithAuthentication: async (_type: string, options: IHttpRequestOptions) => {
        sent.push(options);
        throw thrown;
      },
    },
  } as unknown as IExecuteFunctions;
}

/** The HTTP client's error as n8n's request helper throws it on a non-2xx status. */
function httpError(status: number, data: string) {
  return Object.assign(new Error(`Request failed with status code ${status}`), {
    response: { status, data, headers: { 'x-request-id': 'req-1' } },
  });
}

describe('sendAttempt', () => {
  it("reads a non-2xx answer back from n8n's real NodeApiError and never passes ignoreHttpStatusErrors", async () => {
    const sent: IHttpRequestOptions[] = [];
    const thrown = new NodeApiError(node, httpError(503, '{"message":"down"}') as never);
    const answer = await sendAttempt(contextThrowing(thrown, sent), 'partnerLearningApi', {
      method: 'GET', url: 'https://api.example.test/v1/courses', ignoreHttpStatusErrors: { ignore: true, except: [401] },
    });
    expect(answer).toEqual({ response: { statusCode: 503, body: '{"message":"down"}', headers: { 'x-request-id': 'req-1' } } });
    expect(sent[0]).not.toHaveProperty('ignoreHttpStatusErrors');
    expect(sent[0]).toMatchObject({ returnFullResponse: true });
  });

  it("n8n 1.x's NodeApiError (inner error dropped): the status from httpCode and the JSON body from context.data", async () => {
    const thrown = Object.assign(new Error('Request failed with status code 409'), {
      httpCode: '409', context: { data: { detail: 'SCORM modules report their own completion' } },
    });
    expect(await sendAttempt(contextThrowing(thrown), 'partnerLearningApi', { method: 'POST', url: 'https://x.test' }))
      .toEqual({ response: { statusCode: 409, headers: {}, body: { detail: 'SCORM modules report their own completion' } } });
  });

  it('a failed token request stays an error (returned as thrown), even when it carries an answer', async () => {
    const tokenError = errorFromResponse({ status: 401, body: { error: 'invalid_client' }, origin: 'token-endpoint', method: 'POST', url: 'https://auth.example.test/oauth2/token' });
    const thrown = Object.assign(new Error('wrapped'), { cause: tokenError, response: { status: 401, data: '' } });
    expect(await sendAttempt(contextThrowing(thrown), 'partnerLearningApi', { method: 'GET', url: 'https://x.test' }))
      .toEqual({ thrown });
  });

  it('an error without an answer (connection refused) comes back as it was thrown', async () => {
    const thrown = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    expect(await sendAttempt(contextThrowing(thrown), 'partnerLearningApi', { method: 'GET', url: 'https://x.test' }))
      .toEqual({ thrown });
  });
});
