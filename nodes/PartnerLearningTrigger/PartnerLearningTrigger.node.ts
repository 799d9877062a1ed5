import type { IDataObject, INodeExecutionData, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import type { PartnerLearningClient } from '../../core/protocol.ts';
import { partnerLearningClient, toNodeApiError } from '../PartnerLearning/transport/index.ts';
import { newest, parseUserIds, pollBudget, syncChanges, type TriggerState } from './watermark.ts';

/**
 * Polls the service for changed courses or for new and changed transcript records of chosen learners. The
 * watermark lives in the workflow's static data; the first poll only sets it, and a manual test does not move it.
 */
export class PartnerLearningTrigger implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'Partner Learning Trigger',
    name: 'partnerLearningTrigger',
    icon: { light: 'file:partnerLearning.svg', dark: 'file:partnerLearning.dark.svg' },
    group: ['trigger'],
    version: 1,
    subtitle: '={{ $parameter["event"] }}',
    description: 'Starts the workflow when courses change or learners complete something',
    defaults: { name: 'Partner Learning Trigger' },
    polling: true,
    inputs: [],
    outputs: [NodeConnectionTypes.Main],
    credentials: [{ name: 'partnerLearningApi', required: true }],
    properties: [
      {
        displayName: 'Event',
        name: 'event',
        type: 'options',
        noDataExpression: true,
        options: [
          {
            name: 'Course Updated',
            value: 'courseUpdated',
            description: 'A course was published, changed or newly published since the last poll',
          },
          {
            name: 'Learner Completed',
            value: 'learnerCompleted',
            description: 'A transcript record of one of the learners appeared or changed since the last poll',
          },
        ],
        default: 'courseUpdated',
      },
      {
        displayName: 'User IDs',
        name: 'userIds',
        type: 'string',
        default: '',
        required: true,
        placeholder: 'e.g. 3f2b8c1e-6a4d-4f7e-9b1a-2c3d4e5f6a7b, 9a8b7c6d-…',
        description: 'The learner UUIDs to watch: comma-separated, or an array from an expression',
        displayOptions: { show: { event: ['learnerCompleted'] } },
      },
    ],
  };

  async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
    const event = this.getNodeParameter('event') as string;
    const manual = this.getMode() === 'manual';
    const state = this.getWorkflowStaticData('node') as TriggerState;
    const budget = pollBudget(this);
    try {
      const client = await partnerLearningClient(this);
      const records = event === 'learnerCompleted'
        ? await learnerRecords(this, client, state, manual, budget)
        : await courseRecords(client, state, manual);
      return records.length > 0 ? [this.helpers.returnJsonArray(records)] : null;
    } catch (error) {
      throw toNodeApiError(this.getNode(), error);
    }
  }
}

async function courseRecords(client: PartnerLearningClient, state: TriggerState, manual: boolean): Promise<IDataObject[]> {
  if (manual) {
    const latest = newest((await syncChanges(client.courses.sync({ pageSize: 100 }))).records);
    return latest ? [latest] : [];
  }
  const since = state.courses;
  const { records, watermark } = await syncChanges(client.courses.sync({ since, pageSize: 100 }));
  state.courses = watermark ?? since ?? { updatedAt: new Date().toISOString(), seenIds: [] };
  // The first poll after activation only sets the watermark.
  return since === undefined ? [] : records;
}

async function learnerRecords(
  ctx: IPollFunctions, client: PartnerLearningClient, state: TriggerState, manual: boolean, budget: () => boolean,
): Promise<IDataObject[]> {
  const userIds = parseUserIds(ctx.getNodeParameter('userIds', ''));
  const out: IDataObject[] = [];
  if (manual) {
    for (const userId of userIds) {
      const { records } = await syncChanges(client.transcripts.sync({ userId, pageSize: 100 }));
      out.push(...records.map((record) => ({ ...record, userId })));
    }
    const latest = newest(out);
    return latest ? [latest] : [];
  }
  state.learners ??= {};
  for (const userId of userIds) {
    // Learners not reached in this poll's time keep their watermark and are polled next time.
    if (!budget()) break;
    const since = state.learners[userId];
    const { records, watermark } = await syncChanges(client.transcripts.sync({ userId, since, pageSize: 100 }));
    state.learners[userId] = watermark ?? since ?? { updatedAt: new Date().toISOString(), seenIds: [] };
    // A learner seen for the first time (new workflow, or added to the list later) starts at the watermark.
    if (since !== undefined) out.push(...records.map((record) => ({ ...record, userId })));
  }
  return out;
}
