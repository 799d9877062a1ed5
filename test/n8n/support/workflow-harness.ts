/**
 * Runs workflows in-process on n8n-core's own `WorkflowExecute`, with n8n's real HTTP helpers
 * (`httpRequestWithAuthentication`: preAuthentication, authenticate, 401 refresh, axios) against the emulator on a
 * socket in this process. What n8n's CLI normally supplies is kept to the minimum the engine needs: node types, a
 * credentials helper with the same preAuthentication rules as n8n 2.41's (token fetched when the expirable field
 * is empty or after a 401) and the lifecycle hooks.
 */
import { randomUUID } from 'node:crypto';
import { ExecutionLifecycleHooks, LoadOptionsContext, WorkflowExecute } from 'n8n-core';
import type {
  ICredentialDataDecryptedObject,
  ICredentialsHelper,
  IHttpRequestHelper,
  IHttpRequestOptions,
  INode,
  INodeType,
  INodeTypes,
  IRun,
  IWorkflowExecuteAdditionalData,
  IConnections,
  INodeExecutionData,
  IExecuteFunctions,
  ILoadOptionsFunctions,
  INodeParameters,
} from 'n8n-workflow';
import { NodeConnectionTypes, Workflow } from 'n8n-workflow';
import { PartnerLearningApi } from '../../../credentials/PartnerLearningApi.credentials.ts';
import { PartnerLearning } from '../../../nodes/PartnerLearning/PartnerLearning.node.ts';

/** A start node like n8n's Manual Trigger, emitting `count` items `{ i }` (one by default). */
class Start implements INodeType {
  description = {
    displayName: 'Start', name: 'start', group: ['input'], version: 1, description: 'Starts the test workflow',
    defaults: { name: 'Start' }, inputs: [], outputs: [NodeConnectionTypes.Main],
    properties: [{ displayName: 'Count', name: 'count', type: 'number', default: 1 }],
  } as unknown as INodeType['description'];

  async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    const count = this.getNodeParameter('count', 0) as number;
    return [Array.from({ length: count }, (_, i) => ({ json: { i } }))];
  }
}

const TYPES: Record<string, INodeType> = {
  'test.start': new Start(),
  'n8n-nodes-partner-learning.partnerLearning': new PartnerLearning(),
};

const nodeTypes: INodeTypes = {
  getByName: (type: string) => TYPES[type]!,
  getByNameAndVersion: (type: string) => TYPES[type]!,
  getKnownTypes: () => ({}),
} as unknown as INodeTypes;

/** The generic `authenticate` of the credential: `={{$credentials.x}}` templates resolved from the credential. */
function applyGeneric(credential: ICredentialDataDecryptedObject, options: IHttpRequestOptions): IHttpRequestOptions {
  const type = new PartnerLearningApi();
  const headers = { ...(options.headers ?? {}) } as Record<string, string>;
  for (const [name, template] of Object.entries(type.authenticate.properties.headers ?? {})) {
    headers[name] = String(template).replace(/^=/, '').replace(/\{\{\s*\$credentials\.(\w+)\s*\}\}/g, (_m, key: string) => String(credential[key] ?? ''));
  }
  return { ...options, headers };
}

/** The stored credential and how often a token was fetched for it. */
export interface StoredCredential {
  data: ICredentialDataDecryptedObject;
  tokenRequests: number;
}

function credentialsHelper(stored: StoredCredential): ICredentialsHelper {
  const type = new PartnerLearningApi();
  return {
    getParentTypes: () => [],
    isCredentialUsableByNode: () => true,
    authenticate: async (credential: ICredentialDataDecryptedObject, _type: string, options: IHttpRequestOptions) => applyGeneric(credential, options),
    async preAuthentication(helpers: IHttpRequestHelper, credential: ICredentialDataDecryptedObject, _type: string, _node: INode, expired: boolean) {
      if (credential.accessToken && !expired) return undefined;
      stored.tokenRequests += 1;
      const data = await type.preAuthentication.call(helpers, credential);
      Object.assign(stored.data, data);
      return { ...credential, ...data };
    },
    runPreAuthentication: async () => undefined,
    getCredentials: async () => { throw new Error('not used'); },
    getDecrypted: async () => ({ ...stored.data }),
    updateCredentials: async () => undefined,
    updateCredentialsOauthTokenData: async () => undefined,
    getCredentialsProperties: () => type.properties,
  } as unknown as ICredentialsHelper;
}

/** A node of a test workflow: the start node is added in front of the first one. */
export interface StepNode {
  name: string;
  parameters: INode['parameters'];
  onError?: INode['onError'];
  executeOnce?: boolean;
}

/**
 * Runs a chain of Partner Learning nodes after a start node.
 *
 * @param stored The credential (its token is cached in it, as n8n caches it).
 * @param steps The nodes, in order.
 * @param items How many items the start node emits.
 * @returns The run.
 */
export async function runChain(stored: StoredCredential, steps: StepNode[], items = 1): Promise<IRun> {
  const start: INode = { id: randomUUID(), name: 'Start', type: 'test.start', typeVersion: 1, position: [0, 0], parameters: { count: items } };
  const nodes: INode[] = [start, ...steps.map((step, i) => ({
    id: randomUUID(), name: step.name, type: 'n8n-nodes-partner-learning.partnerLearning', typeVersion: 1,
    position: [200 * (i + 1), 0] as [number, number], parameters: step.parameters, onError: step.onError,
    executeOnce: step.executeOnce, credentials: { partnerLearningApi: { id: 'cred-1', name: 'Partner Learning account' } },
  }))];
  const connections: IConnections = {};
  nodes.slice(0, -1).forEach((node, i) => {
    connections[node.name] = { main: [[{ node: nodes[i + 1]!.name, type: NodeConnectionTypes.Main, index: 0 }]] };
  });
  const workflow = new Workflow({ id: 'wf-test', name: 'test', nodes, connections, active: false, nodeTypes, settings: { executionOrder: 'v1' } });
  const additionalData = {
    credentialsHelper: credentialsHelper(stored),
    hooks: new ExecutionLifecycleHooks('manual', randomUUID(), workflow as never),
    executionId: randomUUID(),
    currentNodeExecutionIndex: 0,
    // Only used to build $resumeWebhookUrl and the like for expressions; never called.
    ...Object.fromEntries(['restApiUrl', 'instanceBaseUrl', 'formBaseUrl', 'formWaitingBaseUrl', 'formTestBaseUrl',
      'webhookBaseUrl', 'webhookWaitingBaseUrl', 'webhookTestBaseUrl', 'mcpBaseUrl', 'mcpTestBaseUrl']
      .map((key) => [key, `http://localhost:5678/${key}`])),
    variables: {},
    getRunExecutionData: async () => undefined,
    getRuntimeCredential: async () => undefined,
    executeWorkflow: async () => { throw new Error('not used'); },
    logAiEvent: () => undefined,
    startRunnerTask: async () => { throw new Error('not used'); },
  } as unknown as IWorkflowExecuteAdditionalData;
  const execute = new WorkflowExecute(additionalData, 'manual');
  return execute.run({ workflow, startNode: start });
}

/**
 * @param run A finished run.
 * @param node A node name.
 * @returns The JSON of the node's first output.
 */
export function outputJson(run: IRun, node: string): Array<Record<string, unknown>> {
  const items = run.data.resultData.runData[node]?.[0]?.data?.main?.[0] ?? [];
  return items.map((item) => item.json);
}

/**
 * n8n-core's own context of a list search (what the editor's resource locator calls), with n8n's real HTTP helpers:
 * the node holds `parameters`, which are also the editor's current parameters.
 *
 * @param stored The credential.
 * @param parameters The node's parameters, e.g. `{ resource, operation, courseId }`.
 * @returns `this` for a `listSearch` method.
 */
export function loadOptionsContext(stored: StoredCredential, parameters: INodeParameters): ILoadOptionsFunctions {
  const node: INode = {
    id: randomUUID(), name: 'Partner Learning', type: 'n8n-nodes-partner-learning.partnerLearning', typeVersion: 1,
    position: [0, 0], parameters, credentials: { partnerLearningApi: { id: 'cred-1', name: 'Partner Learning account' } },
  };
  const workflow = new Workflow({ id: 'wf-test', name: 'test', nodes: [node], connections: {}, active: false, nodeTypes, settings: {} });
  const additionalData = { credentialsHelper: credentialsHelper(stored), currentNodeParameters: parameters } as unknown as IWorkflowExecuteAdditionalData;
  return new LoadOptionsContext(workflow, node, additionalData, 'parameters.moduleId') as unknown as ILoadOptionsFunctions;
}
