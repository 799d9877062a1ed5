/**
 * The user-scoped collection shape shared by course progress and transcripts: every call carries `X-User-ID`.
 */
import type { DeltaOptions, DeltaSync, LearnerScope, ListOptions, Page, PageOptions, Paginated } from '../types/calls.ts';
import type { LearnerCollection } from '../types/resources.ts';
import type { Transport } from '../transport.ts';
import { deltaSync } from '../pagination/delta-sync.ts';
import { paginate, singlePage } from '../pagination/paginate.ts';
import { send } from './call.ts';
import { learnerTarget, listRequest, pageRequest, syncRequest } from './query.ts';

/**
 * @param transport Sends the requests.
 * @param path The collection path, e.g. `/transcripts`.
 * @returns `list`, `get` and `sync` for that learner collection; `userId` is checked as a UUID first.
 */
export function createLearnerCollection<T>(transport: Transport, path: string): LearnerCollection<T> {
  return {
    list(options: LearnerScope & ListOptions): Paginated<T> {
      return paginate<T>(transport, listRequest(path, options, true), options?.onResponse);
    },
    async page(options: LearnerScope & PageOptions): Promise<Page<T>> {
      return singlePage<T>(transport, pageRequest(transport.baseUrl, path, options, true), options?.onResponse);
    },
    async get(id: number | string, options: LearnerScope): Promise<T> {
      const { segment, userId } = learnerTarget(id, options, 'record');
      const response = await send<T>(transport, { method: 'GET', path: `${path}/${segment}`, userId }, options);
      return response.data;
    },
    sync(options: LearnerScope & DeltaOptions): DeltaSync<T> {
      const { request, since } = syncRequest(path, options, true);
      return deltaSync<T>(transport, request, since, options?.onResponse);
    },
  };
}
