/**
 * Get and Get Many for the read-only catalog (organizations, categories, courses, modules): the same shape on four
 * resources, so each `<resource>/get.operation.ts` is one call to these builders.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { CatalogGroup, ListOptions, PartnerLearningClient, ReadCollection } from '../../../core/protocol.ts';
import type { Operation, SearchMethod } from './common.ts';
import { collect, getManyFields, getManyOptions, item, locatorId, pageSizeFor, recordLocator } from './common.ts';

/**
 * @param resource The n8n resource value.
 * @param locator Parameter name and label of the record locator.
 * @param search Its list search.
 * @param group The core's resource group.
 * @returns The Get operation.
 */
export function catalogGet(
  resource: string, locator: { name: string; displayName: string }, search: SearchMethod, group: CatalogGroup,
): Operation {
  return {
    description: updateDisplayOptions(
      { show: { resource: [resource], operation: ['get'] } },
      [recordLocator(locator.name, locator.displayName, search)],
    ),
    async execute(this: IExecuteFunctions, client: PartnerLearningClient, i: number) {
      const collection = client[group] as Pick<ReadCollection<unknown>, 'get'>;
      return item(await collection.get(locatorId(this, locator.name, i)));
    },
  };
}

/**
 * @param resource The n8n resource value.
 * @param group The core's resource group.
 * @param withUpdatedAfter Whether `filters.updatedAfter` is offered.
 * @returns The Get Many operation.
 */
export function catalogGetAll(resource: string, group: CatalogGroup, withUpdatedAfter: boolean): Operation {
  return {
    description: updateDisplayOptions({ show: { resource: [resource], operation: ['getAll'] } }, getManyFields(withUpdatedAfter)),
    async execute(this: IExecuteFunctions, client: PartnerLearningClient, i: number) {
      const options = getManyOptions(this, i, withUpdatedAfter);
      const list: ListOptions = { pageSize: pageSizeFor(options) };
      if (options.updatedAfter !== undefined) list.updatedAfter = options.updatedAfter;
      const collection = client[group] as Pick<ReadCollection<unknown>, 'list'>;
      return collect(collection.list(list), options);
    },
  };
}
