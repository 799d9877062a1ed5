/**
 * n8n's function context, mocked for operation-level tests: parameters from a plain object, the credential's
 * `preAuthentication` + generic `authenticate` run the way n8n 2.41 runs them (token fetched when the stored one is
 * empty, fetched again and the call retried once after a 401), and requests go to the in-process emulator. The
 * request options n8n would pass to axios are honoured: `returnFullResponse`, `ignoreHttpStatusErrors` (with
 * `except`), `encoding: 'stream' | 'text'`, `disableFollowRedirect`.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as WebStream } from 'node:stream/web';
import type {
  ICredentialDataDecryptedObject,
  IDataObject,
  IExecuteFunctions,
  IHttpRequestHelper,
  IHttpRequestOptions,
  INode,
  INodeExecutionData,
  IPollFunctions,
} from 'n8n-workflow';
import { createEmulator, type Emulator } from '../../../emulator/index.ts';
import { PartnerLearningApi } from '../../../credentials/PartnerLearningApi.credentials.ts';

export const ORIGIN = 'http://emulator.test';

/** The emulator and the first partner's sandbox credential as n8n would store it. */
export function emulatorCredential(emulator: Emulator = createEmulator()): { emulator: Emulator; credential: ICredentialDataDecryptedObject } {
  const sandbox = emulator.partners(ORIGIN)[0]!.environments.sandbox;
  return {
    emulator,
    credential: {
      tokenUrl: sandbox.tokenUrl, baseUrl: sandbox.baseUrl, clientId: sandbox.clients[0]!.clientId,
      clientSecret: sandbox.clients[0]!.clientSecret, apiKey: sandbox.apiKey, scope: 'readWrite', accessToken: '',
    },
  };
}

interface FullResponse { body: unknown; headers: Record<string, string>; statusCode: number }

/** n8n's `helpers.httpRequest` on the emulator (what `preAuthentication` gets as `this.helpers`). */
export function fakeHttpRequest(emulator: Emulator, log: IHttpRequestOptions[] = []) {
  return async (options: IHttpRequestOptions): Promise<unknown> => {
    log.push(options);
    const url = new URL(options.url, options.baseURL);
    for (const [key, value] of Object.entries(options.qs ?? {})) url.searchParams.set(key, String(value));
    const response = await emulator.fetch(url.toString(), {
      method: options.method ?? 'GET',
      headers: options.headers as Record<string, string>,
      body: typeof options.body === 'string' ? options.body : options.body === undefined ? undefined : JSON.stringify(options.body),
      redirect: 'manual',
    });
    const headers = Object.fromEntries(response.headers.entries());
    const ignore = options.ignoreHttpStatusErrors;
    const throws = !response.ok && (ignore === undefined || ignore === false
      || (typeof ignore === 'object' && ignore.except.includes(response.status)));
    const body = options.encoding === 'stream' && response.body && !throws
      ? Readable.fromWeb(response.body as WebStream<Uint8Array>)
      : await response.text();
    if (throws) {
      throw Object.assign(new Error(`Request failed with status code ${response.status}`), {
        response: { status: response.status, data: body, headers },
      });
    }
    const full: FullResponse = { body, headers, statusCode: response.status };
    return options.returnFullResponse ? full : body;
  };
}

/** `httpRequestWithAuthentication` as n8n-core 2.41 runs it for a credential with `preAuthentication`. */
export function fakeAuthenticatedRequest(emulator: Emulator, credential: ICredentialDataDecryptedObject, log: IHttpRequestOptions[] = []) {
  const type = new PartnerLearningApi();
  const httpRequest = fakeHttpRequest(emulator, log);
  const helper = { helpers: { httpRequest } } as unknown as IHttpRequestHelper;
  const refresh = async () => Object.assign(credential, await type.preAuthentication.call(helper, credential));
  const send = (options: IHttpRequestOptions) => {
    const headers = {
      ...(options.headers as Record<string, string>),
      Authorization: `Bearer ${String(credential.accessToken)}`,
      'x-api-key': String(credential.apiKey),
    };
    return httpRequest({ ...options, headers });
  };
  return async (_type: string, options: IHttpRequestOptions): Promise<unknown> => {
    if (!credential.accessToken) await refresh();
    try {
      return await send(options);
    } catch (error) {
      if ((error as { response?: { status?: number } }).response?.status !== 401) throw error;
      await refresh();
      return send(options);
    }
  };
}

/** Reads what `prepareBinaryData` gets and returns n8n's binary record for it. */
async function prepareBinaryData(data: Buffer | Readable, fileName?: string, mimeType?: string) {
  const chunks: Buffer[] = [];
  if (Buffer.isBuffer(data)) chunks.push(data);
  else for await (const chunk of data) chunks.push(Buffer.from(chunk as Uint8Array));
  const bytes = Buffer.concat(chunks);
  return { data: bytes.toString('base64'), fileName, mimeType: mimeType ?? 'text/plain', fileSize: `${bytes.length} B`, bytes: bytes.length };
}

export interface FakeContextInit {
  emulator: Emulator;
  credential: ICredentialDataDecryptedObject;
  /** Parameters: one object for every item, or one per item. */
  parameters: IDataObject | IDataObject[];
  items?: INodeExecutionData[];
  continueOnFail?: boolean;
  mode?: 'manual' | 'trigger';
  staticData?: IDataObject;
  /** Every request the node sent (token requests included). */
  log?: IHttpRequestOptions[];
}

const NODE: INode = {
  id: 'test-node', name: 'Partner Learning', type: 'n8n-nodes-partner-learning.partnerLearning', typeVersion: 1,
  position: [0, 0], parameters: {},
};

function parameter(all: IDataObject | IDataObject[], name: string, i: number, fallback: unknown, extract: boolean): unknown {
  const set = Array.isArray(all) ? all[i] ?? all[0]! : all;
  let value: unknown = set;
  for (const key of name.split('.')) value = (value as IDataObject | undefined)?.[key];
  if (value === undefined) {
    if (fallback === undefined) throw new Error(`parameter ${name} is not set in the test`);
    return fallback;
  }
  if (extract && typeof value === 'object' && value !== null && (value as IDataObject).__rl) return (value as IDataObject).value;
  return value;
}

/**
 * @param init Emulator, credential, parameters and flags.
 * @returns An object usable as `this` of `execute` and `poll`.
 */
export function fakeContext(init: FakeContextInit): IExecuteFunctions & IPollFunctions {
  const log = init.log ?? [];
  const staticData = init.staticData ?? {};
  const context = {
    getNode: () => NODE,
    getInputData: () => init.items ?? [{ json: {} }],
    getNodeParameter: (name: string, i?: number | unknown, fallback?: unknown, options?: { extractValue?: boolean }) =>
      typeof i === 'number' ? parameter(init.parameters, name, i, fallback, options?.extractValue === true)
        : parameter(init.parameters, name, 0, i, false),
    // Load options: the parameters as the editor holds them (resource locators as `{ __rl, mode, value }`).
    getCurrentNodeParameter: (name: string) => parameter(init.parameters, name, 0, null, false) ?? undefined,
    continueOnFail: () => init.continueOnFail === true,
    getCredentials: async () => init.credential,
    getMode: () => init.mode ?? 'trigger',
    getWorkflowStaticData: () => staticData,
    helpers: {
      httpRequestWithAuthentication: fakeAuthenticatedRequest(init.emulator, init.credential, log),
      constructExecutionMetaData: (items: INodeExecutionData[], meta: { itemData: { item: number } }) =>
        items.map((item) => ({ ...item, pairedItem: meta.itemData })),
      prepareBinaryData,
      returnJsonArray: (records: IDataObject[]) => records.map((json) => ({ json })),
    },
  };
  return context as unknown as IExecuteFunctions & IPollFunctions;
}
