/**
 * One request through n8n's `httpRequestWithAuthentication`, its HTTP answer handed back as `{statusCode, headers,
 * body}` whatever the status, so the core maps every status itself.
 *
 * Why no `ignoreHttpStatusErrors`: n8n 1.x reads any value of it (even `{ ignore: true, except: [401] }`) as
 * "accept every status", so a 401 came back as an answer and n8n never re-ran the credential's `preAuthentication`
 * for a fresh token. Without the option both lines throw on a non-2xx status, after refreshing the token and sending
 * once more on a 401; the answer is then read back from the HTTP client's error inside n8n's `NodeApiError`.
 * n8n 1.x's `NodeApiError` drops that inner error (its `cause` field is reset): only the status (`httpCode`) and a
 * JSON object body (`context.data`) survive, so the transport asks for JSON answers, and on 1.x response headers of
 * an error answer (Retry-After, x-request-id) are lost: the core then backs off by its own schedule.
 */
import type { IExecuteFunctions, IHttpRequestOptions, ILoadOptionsFunctions, IPollFunctions } from 'n8n-workflow';
import { asPartnerLearningError, responseOf } from './n8n-errors.ts';

/** One HTTP answer as n8n's `returnFullResponse` gives it. */
export interface FullResponse {
  body: unknown;
  headers: Record<string, string | string[] | undefined>;
  statusCode: number;
}

/**
 * Sends one request (n8n adds the credential's token and API key, refreshing the token once after a 401).
 *
 * @param ctx The node's `this`.
 * @param credentialType The credential type to authenticate with.
 * @param options The request; `ignoreHttpStatusErrors` is dropped and `returnFullResponse` forced (see above).
 * @returns The answer, 2xx or not; or what n8n threw when there was no HTTP answer (network, timeout) or the token
 *   request failed (returned, not thrown, so the caller maps it to the core's error).
 */
export async function sendAttempt(
  ctx: IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions,
  credentialType: string,
  options: IHttpRequestOptions,
): Promise<{ response: FullResponse } | { thrown: unknown }> {
  const { ignoreHttpStatusErrors: _ignored, ...rest } = options;
  try {
    const response = (await ctx.helpers.httpRequestWithAuthentication.call(ctx, credentialType, {
      ...rest, returnFullResponse: true,
    })) as FullResponse;
    return { response };
  } catch (thrown) {
    // A failed token request may carry the token endpoint's answer: it stays an error, not an API answer.
    if (asPartnerLearningError(thrown)) return { thrown };
    const answer = responseOf(thrown) ?? answerKeptByN8n1(thrown);
    if (!answer) return { thrown };
    return { response: { statusCode: answer.status, headers: answer.headers ?? {}, body: answer.data } };
  }
}

/** What n8n 1.x's `NodeApiError` keeps of an HTTP answer: the status as `httpCode`, a JSON object body as `context.data`. */
function answerKeptByN8n1(thrown: unknown): { status: number; data: unknown; headers?: FullResponse['headers'] } | undefined {
  const error = thrown as { httpCode?: unknown; context?: { data?: unknown } } | null;
  const code = typeof error?.httpCode === 'string' || typeof error?.httpCode === 'number' ? String(error.httpCode) : '';
  if (!/^[1-5]\d\d$/.test(code)) return undefined;
  const data = error?.context?.data;
  return { status: Number(code), data: data !== null && typeof data === 'object' ? data : '' };
}
