/**
 * The read-only catalog shape shared by organizations, categories, courses and modules: list, get, sync.
 */
import type { CallOptions, DeltaOptions, DeltaSync, ListOptions, Page, PageOptions, Paginated } from '../types/calls.ts';
import type { ReadCollection } from '../types/resources.ts';
import type { Transport } from '../transport.ts';
import { deltaSync } from '../pagination/delta-sync.ts';
import { paginate, singlePage } from '../pagination/paginate.ts';
import { idSchema } from '../validation/schemas.ts';
import { checkCall, send } from './call.ts';
import { listRequest, pageRequest, syncRequest } from './query.ts';

/**
 * @param transport Sends the requests.
 * @param path The collection path, e.g. `/categories`.
 * @returns `list`, `get` and `sync` for that collection. Inputs are checked before anything is sent.
 */
export function createReadCollection<T, TDetail = T>(transport: Transport, path: string): ReadCollection<T, TDetail> {
  return {
    list(options?: ListOptions): Paginated<T> {
      return paginate<T>(transport, listRequest(path, options), options?.onResponse);
    },
    async page(options?: PageOptions): Promise<Page<T>> {
      return singlePage<T>(transport, pageRequest(transport.baseUrl, path, options), options?.onResponse);
    },
    async get(id: number, options?: CallOptions): Promise<TDetail> {
      const checked = checkCall(options, [[idSchema, id, 'id']]);
      const response = await send<TDetail>(transport, { method: 'GET', path: `${path}/${id}` }, checked);
      return response.data;
    },
    sync(options?: DeltaOptions): DeltaSync<T> {
      const { request, since } = syncRequest(path, options);
      return deltaSync<T>(transport, request, since, options?.onResponse);
    },
  };
}
