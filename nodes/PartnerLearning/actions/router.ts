/**
 * Runs the chosen operation once per input item: try/catch per item, "Continue On Fail" with the contract's
 * `{ error, code, status }`, `pairedItem` on every output item, and a `NodeApiError` carrying the item index.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { failedItemJson, partnerLearningClient, toNodeApiError } from '../transport/index.ts';
import type { Operation } from './common.ts';
import { simplifyItems } from './simplify.ts';
import * as category from './category/Category.resource.ts';
import * as completion from './completion/Completion.resource.ts';
import * as content from './content/Content.resource.ts';
import * as course from './course/Course.resource.ts';
import * as module from './module/Module.resource.ts';
import * as organization from './organization/Organization.resource.ts';
import * as progress from './progress/Progress.resource.ts';
import * as transcript from './transcript/Transcript.resource.ts';
import * as user from './user/User.resource.ts';

/** A resource: its label, its parameters (operation picker first) and its operations by value. */
export interface Resource {
  name: string;
  description: INodeProperties[];
  operations: Record<string, Operation>;
}

/** The node's resources by value, sorted by label: the only list of them (the node's description is built from it). */
export const RESOURCES: Record<string, Resource> = {
  category: { name: 'Category', ...category },
  completion: { name: 'Completion', ...completion },
  content: { name: 'Content', ...content },
  course: { name: 'Course', ...course },
  module: { name: 'Module', ...module },
  organization: { name: 'Organization', ...organization },
  progress: { name: 'Progress', ...progress },
  transcript: { name: 'Transcript', ...transcript },
  user: { name: 'User', ...user },
};

/**
 * The node's `execute`.
 *
 * @returns One output: the results of every item, in item order.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
  const items = this.getInputData();
  const resource = this.getNodeParameter('resource', 0) as string;
  const operationName = this.getNodeParameter('operation', 0) as string;
  const operation = RESOURCES[resource]?.operations[operationName];
  if (!operation) {
    throw new NodeOperationError(this.getNode(), `The operation "${operationName}" of resource "${resource}" is not supported`);
  }
  const client = await partnerLearningClient(this);
  const out: INodeExecutionData[] = [];
  for (let i = 0; i < items.length; i++) {
    try {
      const raw = await operation.execute.call(this, client, i);
      const results = this.getNodeParameter('simplify', i, true) === false ? raw : simplifyItems(raw);
      out.push(...this.helpers.constructExecutionMetaData(results, { itemData: { item: i } }));
    } catch (error) {
      if (this.continueOnFail()) {
        out.push({ json: failedItemJson(error), pairedItem: { item: i } });
        continue;
      }
      throw toNodeApiError(this.getNode(), error, i);
    }
  }
  return [out];
}
