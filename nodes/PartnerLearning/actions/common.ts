/**
 * Parameters several operations share (resource locators, learner UUID, Return All / Limit, filters) and the
 * small readers that turn them into what the core takes. The core validates every value before anything is sent.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { ValidationError, type Paginated, type PartnerLearningClient } from '../../../core/protocol.ts';

/** What every `<operation>.operation.ts` exports. */
export interface Operation {
  description: INodeProperties[];
  execute(this: IExecuteFunctions, client: PartnerLearningClient, itemIndex: number): Promise<INodeExecutionData[]>;
}

/** One entry of a resource's operation picker: name, value, description and the action n8n shows AI agents. */
export interface OperationOption {
  name: string;
  value: string;
  description: string;
  action: string;
}

/**
 * A resource's operation picker (the `operation` parameter shown for that resource). Each resource file lists its
 * options literally, where n8n's lint rules read them; the surrounding parameter is the same for every resource.
 *
 * @param resource The resource value.
 * @param options The operations, sorted by name.
 * @param defaultOperation The operation selected first.
 * @returns The parameter.
 */
export function operationPicker(resource: string, options: OperationOption[], defaultOperation: string): INodeProperties {
  return {
    displayName: 'Operation',
    name: 'operation',
    type: 'options',
    noDataExpression: true,
    displayOptions: { show: { resource: [resource] } },
    options,
    default: defaultOperation,
  };
}

/** The searchable lists behind the resource locators (see `methods/listSearch.ts`). */
export type SearchMethod = 'searchOrganizations' | 'searchCategories' | 'searchCourses' | 'searchModules';

/**
 * A resource locator by list (searchable, paged) or by ID.
 *
 * @param name Parameter name, e.g. `courseId`.
 * @param displayName Label, e.g. `Course`.
 * @param searchListMethod The list search behind the `list` mode.
 * @param required Whether the operation needs it (an optional locator only helps pick another one).
 * @returns The parameter.
 */
export function recordLocator(name: string, displayName: string, searchListMethod: SearchMethod, required = true): INodeProperties {
  return {
    displayName,
    name,
    type: 'resourceLocator',
    default: { mode: 'list', value: '' },
    required,
    modes: [
      {
        displayName: 'From List',
        name: 'list',
        type: 'list',
        typeOptions: { searchListMethod, searchable: true },
      },
      {
        displayName: 'By ID',
        name: 'id',
        type: 'string',
        placeholder: 'e.g. 3',
        validation: [{ type: 'regex', properties: { regex: '^[1-9][0-9]*$', errorMessage: 'Enter the numeric ID, e.g. 3' } }],
      },
    ],
    // Also what an AI agent reads for this parameter: say the ID's type and where to find it.
    description: `The ${displayName.toLowerCase()}: pick it from the list, or give its numeric ID (a whole number such as 3) as ${displayName} › Get Many returns it`,
  };
}

/**
 * The module locator of an operation on one module, after an optional course locator: the module list search
 * lists only the chosen course's modules. The course is never sent to the service.
 */
export function moduleLocators(): INodeProperties[] {
  return [
    {
      ...recordLocator('courseId', 'Course', 'searchCourses', false),
      description: 'Narrows the module list to the modules of this course. Not sent to the service.',
    },
    recordLocator('moduleId', 'Module', 'searchModules'),
  ];
}

/**
 * The learner's UUID. The service has no search by e-mail, so the description says where the UUID comes from.
 */
export const userIdField: INodeProperties = {
  displayName: 'User ID',
  name: 'userId',
  type: 'string',
  default: '',
  required: true,
  placeholder: 'e.g. 3f2b8c1e-6a4d-4f7e-9b1a-2c3d4e5f6a7b',
  description:
    "The learner's UUID (e.g. 3f2b8c1e-6a4d-4f7e-9b1a-2c3d4e5f6a7b), in `uuid` of User › Register's output. The service cannot look learners up by e-mail: keep the UUID Register returns, e.g. in an n8n Data Table or your HR record keyed by e-mail.",
};

/**
 * Return All, Limit and (optionally) the `updatedAfter` filter of a Get Many operation.
 *
 * @param withUpdatedAfter Whether the collection supports `filters.updatedAfter`.
 * @returns The parameters.
 */
export function getManyFields(withUpdatedAfter: boolean): INodeProperties[] {
  const fields: INodeProperties[] = [
    {
      displayName: 'Return All',
      name: 'returnAll',
      type: 'boolean',
      default: false,
      description: 'Whether to return all results or only up to a given limit',
    },
    {
      displayName: 'Limit',
      name: 'limit',
      type: 'number',
      typeOptions: { minValue: 1 },
      default: 50,
      description: 'Max number of results to return',
      displayOptions: { show: { returnAll: [false] } },
    },
  ];
  if (withUpdatedAfter) {
    fields.push({
      displayName: 'Filters',
      name: 'filters',
      type: 'collection',
      placeholder: 'Add Filter',
      default: {},
      options: [
        {
          displayName: 'Updated After',
          name: 'updatedAfter',
          type: 'dateTime',
          default: '',
          description: 'Only records updated at or after this instant (ISO 8601, inclusive)',
        },
      ],
    });
  }
  return fields;
}

/**
 * The ID a resource locator holds, as the core takes it: a number when it is one, else the text as given (the core
 * rejects it with a message naming the field).
 *
 * @param ctx The node's `this`.
 * @param name The parameter.
 * @param itemIndex The item.
 * @returns The ID.
 */
export function locatorId(ctx: IExecuteFunctions, name: string, itemIndex: number): number {
  const value = ctx.getNodeParameter(name, itemIndex, '', { extractValue: true }) as string | number;
  const text = String(value).trim();
  return (/^\d+$/.test(text) ? Number(text) : text) as number;
}

/**
 * @param ctx The node's `this`.
 * @param itemIndex The item.
 * @returns The trimmed learner UUID (the core checks its form).
 */
export function userIdOf(ctx: IExecuteFunctions, itemIndex: number): string {
  const userId = String(ctx.getNodeParameter('userId', itemIndex, '')).trim();
  if (UUID.test(userId)) return userId;
  // As an AI-agent tool the model knows the parameter by its $fromAI key (e.g. User_ID), not the service's `uuid`.
  const raw = ctx.getNode().parameters['userId'];
  const key = typeof raw === 'string' ? /\$fromAI\(\s*['"`]([\w-]+)/.exec(raw)?.[1] : undefined;
  const name = key ? `${key} (User ID)` : 'User ID';
  const message = `${name} must be a learner's UUID such as 3f2b8c1e-6a4d-4f7e-9b1a-2c3d4e5f6a7b, as User › Register returns it; got ${JSON.stringify(userId.slice(0, 60))}. No request was sent.`;
  // The core's own error, so Continue On Fail gives `validation_failed` as for every other bad input.
  throw new ValidationError({ origin: 'client', message, violations: [{ propertyPath: key ?? 'userId', message: "Must be a learner's UUID." }] });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The list options Get Many passes to the core. */
export interface GetManyOptions {
  returnAll: boolean;
  limit: number;
  updatedAfter?: string;
}

/**
 * @param ctx The node's `this`.
 * @param itemIndex The item.
 * @param withUpdatedAfter Whether to read `filters.updatedAfter`.
 * @returns Return All, Limit and the filter.
 */
export function getManyOptions(ctx: IExecuteFunctions, itemIndex: number, withUpdatedAfter: boolean): GetManyOptions {
  const returnAll = ctx.getNodeParameter('returnAll', itemIndex, false) as boolean;
  const limit = returnAll ? 0 : (ctx.getNodeParameter('limit', itemIndex, 50) as number);
  const options: GetManyOptions = { returnAll, limit };
  if (withUpdatedAfter) {
    const filters = ctx.getNodeParameter('filters', itemIndex, {}) as { updatedAfter?: string };
    if (filters.updatedAfter) options.updatedAfter = toIsoDateTime(filters.updatedAfter);
  }
  return options;
}

/** n8n's date picker gives `2026-11-20T10:00:00` (no zone): read it as UTC, as the service's timestamps are. */
function toIsoDateTime(value: string): string {
  const text = String(value).trim();
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text) ? `${text}Z` : text;
}

/** Page size for a Get Many: no bigger than needed, never above the service's cap. */
export function pageSizeFor(options: GetManyOptions): number {
  return options.returnAll ? 100 : Math.min(100, Math.max(1, options.limit));
}

/**
 * Collects a paged list: all of it, or up to the limit (no page is fetched beyond it).
 *
 * @param list The core's paged collection.
 * @param options Return All / Limit.
 * @returns One n8n item per record.
 */
export async function collect<T>(list: Paginated<T>, options: GetManyOptions): Promise<INodeExecutionData[]> {
  const records: T[] = [];
  if (options.returnAll) {
    for await (const record of list) records.push(record);
  } else {
    records.push(...(await list.toArray({ max: options.limit })));
  }
  return records.map((record) => ({ json: record as IDataObject }));
}

/**
 * @param record A record from the service.
 * @returns The n8n item for it.
 */
export function item(record: unknown): INodeExecutionData[] {
  return [{ json: record as IDataObject }];
}
