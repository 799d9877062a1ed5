import type {
  IAuthenticateGeneric,
  ICredentialDataDecryptedObject,
  ICredentialTestRequest,
  ICredentialType,
  IHttpRequestHelper,
  IHttpRequestOptions,
  INodeProperties,
  Icon,
} from 'n8n-workflow';
import {
  basicAuthorization, createRedactor, errorFromResponse, parseJsonOrText, parseTokenResponse, tokenRequestBody,
} from '../core/protocol.ts';
import { CredentialProblem, credentialSentence, tokenRequestFailure } from './credential-sentences.ts';

const READ = 'partner-api/read';
const WRITE = 'partner-api/write';

/**
 * Partner Learning API: OAuth 2.0 client credentials plus the gateway's `x-api-key`. n8n keeps the access token in
 * the hidden, expirable `accessToken` field (encrypted in its database, shared by every worker) and calls
 * `preAuthentication` again after a 401; the token request and the reading of its answer are the core's.
 */
export class PartnerLearningApi implements ICredentialType {
  name = 'partnerLearningApi';

  displayName = 'Partner Learning API';

  icon: Icon = {
    light: 'file:../nodes/PartnerLearning/partnerLearning.svg',
    dark: 'file:../nodes/PartnerLearning/partnerLearning.dark.svg',
  };

  documentationUrl = 'https://www.npmjs.com/package/n8n-nodes-partner-learning';

  properties: INodeProperties[] = [
    {
      // n8n 1.x gives its credential test rules no HTTP answer, so two API-side mistakes read as n8n's own text there.
      displayName:
        'On n8n 1.x the test reads "Forbidden - perhaps check your credentials?" for a wrong API Key (or a Base URL from a different environment than the Token URL), and "could not be found" for a Base URL that does not end in /v1; n8n 2.x names the field to fix',
      name: 'testNotice',
      type: 'notice',
      default: '',
    },
    {
      displayName: 'Token URL',
      name: 'tokenUrl',
      type: 'string',
      default: '',
      required: true,
      placeholder: 'https://auth.example.com/sandbox/oauth2/token',
      description: "The environment's token endpoint (ends in /oauth2/token)",
    },
    {
      displayName: 'Base URL',
      name: 'baseUrl',
      type: 'string',
      default: '',
      required: true,
      placeholder: 'https://api.example.com/sandbox/v1',
      description: "The environment's API address (ends in /v1, no trailing slash)",
    },
    {
      displayName: 'Client ID',
      name: 'clientId',
      type: 'string',
      default: '',
      required: true,
      description: 'The 26-character client ID',
    },
    {
      displayName: 'Client Secret',
      name: 'clientSecret',
      type: 'string',
      typeOptions: { password: true },
      default: '',
      required: true,
    },
    {
      displayName: 'API Key',
      name: 'apiKey',
      type: 'string',
      typeOptions: { password: true },
      default: '',
      required: true,
      description: 'About 40 characters; sent only as the x-api-key header',
    },
    {
      displayName: 'Scope',
      name: 'scope',
      type: 'options',
      options: [
        { name: 'Read and Write', value: 'readWrite' },
        { name: 'Read Only', value: 'read' },
      ],
      default: 'readWrite',
      description: 'Read Only for a client the operator allowed to read only',
    },
    {
      displayName: 'Limiter Host URL',
      name: 'limiterUrl',
      type: 'string',
      default: '',
      placeholder: 'http://limiter.internal:4020/',
      description:
        'Optional, for several n8n workers (queue mode) or instances on one API key: a limiter host they all reach (createLimiterHost in partner-learning-client), so their calls wait in one line and share the usage plan. Empty: each worker paces its calls alone.',
    },
    {
      displayName: 'Limiter Host Token',
      name: 'limiterToken',
      type: 'string',
      typeOptions: { password: true },
      default: '',
      description: "The limiter host's bearer token, if it has one",
    },
    {
      displayName: 'Access Token',
      name: 'accessToken',
      type: 'hidden',
      typeOptions: { expirable: true, password: true },
      default: '',
    },
  ];

  /**
   * Fetches an access token (n8n calls this when the stored one is empty, after a 401, and for the credential test).
   *
   * @param credentials The decrypted credential.
   * @returns The field n8n stores: `accessToken`.
   */
  async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
    const tokenUrl = String(credentials.tokenUrl ?? '').trim();
    const scopes = credentials.scope === 'read' ? [READ] : [READ, WRITE];
    const request: IHttpRequestOptions = {
      method: 'POST',
      url: tokenUrl,
      headers: {
        Authorization: basicAuthorization(String(credentials.clientId ?? ''), String(credentials.clientSecret ?? '')),
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
      },
      body: tokenRequestBody(scopes),
      json: false,
      encoding: 'text',
      returnFullResponse: true,
      ignoreHttpStatusErrors: true,
      disableFollowRedirect: true,
    };
    const redactor = createRedactor([String(credentials.clientSecret ?? ''), String(credentials.apiKey ?? '')].filter(Boolean));
    const requestedAt = Date.now();
    let failure: unknown;
    let body: unknown;
    try {
      const response = (await this.helpers.httpRequest(request)) as { body: unknown; statusCode: number };
      body = typeof response.body === 'string' ? parseJsonOrText(response.body) : response.body;
      if (response.statusCode < 200 || response.statusCode >= 300) {
        failure = errorFromResponse({
          status: response.statusCode, body, origin: 'token-endpoint', method: 'POST', url: tokenUrl, requestedScopes: scopes, redactor,
        });
      }
    } catch (thrown) {
      failure = tokenRequestFailure(thrown, tokenUrl, redactor);
    }
    // One sentence naming the field to fix: what n8n's credential test shows (see credential-sentences.ts).
    if (failure !== undefined) throw new CredentialProblem(credentialSentence(failure, tokenUrl, scopes), failure);
    try {
      return { accessToken: parseTokenResponse(body, requestedAt, tokenUrl).accessToken };
    } catch (invalid) {
      throw new CredentialProblem(credentialSentence(invalid, tokenUrl, scopes), invalid);
    }
  }

  authenticate: IAuthenticateGeneric = {
    type: 'generic',
    properties: {
      headers: {
        Authorization: '=Bearer {{$credentials.accessToken}}',
        'x-api-key': '={{$credentials.apiKey}}',
      },
    },
  };

  // n8n fetches a fresh token first (so a bad ID or secret fails there, with the token endpoint's message), then
  // reads one organization with the token and the API key.
  test: ICredentialTestRequest = {
    request: {
      baseURL: '={{$credentials.baseUrl}}',
      url: '/organizations',
      qs: { itemsPerPage: 1 },
      headers: { Accept: 'application/ld+json, application/json' },
    },
    rules: [
      {
        type: 'responseCode',
        properties: {
          value: 403,
          message: 'The token worked but the API rejected the API Key. Paste the API key of the environment the Base URL belongs to (sandbox and production each have their own; not the client ID or secret); if the key is right, Token URL, Base URL and API Key are not all the same environment\'s',
        },
      },
      {
        type: 'responseCode',
        properties: {
          value: 401,
          message: 'The API rejected the token: the token URL and the base URL must belong to the same environment (sandbox or production)',
        },
      },
      {
        type: 'responseCode',
        properties: {
          value: 404,
          message: "The base URL does not lead to the API: use the environment's address ending in /v1",
        },
      },
    ],
  };
}
