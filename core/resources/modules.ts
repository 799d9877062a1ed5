/**
 * `/modules`: the read-only catalog plus the learner's content calls: content URL, refresh, completion, and a
 * keeper that holds a playing URL fresh.
 */
import type { ContentUrlKeeper, KeepFreshOptions, LearnerScope, ModulesApi } from '../client-types.ts';
import type { Module, ModuleContent } from '../types.ts';
import type { Transport } from '../transport.ts';
import { createContentUrlKeeper } from '../content/keeper.ts';
import { toModuleContent } from '../content/module-content.ts';
import { createReadCollection } from './read-collection.ts';
import { learnerTarget } from './query.ts';

/**
 * @param transport Sends the requests.
 * @returns The modules group.
 */
export function createModules(transport: Transport): ModulesApi {
  const contentCall = async (
    userId: string,
    segment: string,
    kind: 'content' | 'refresh-url',
    signal: AbortSignal | undefined,
  ): Promise<ModuleContent> => {
    const path = `/modules/${segment}/${kind}`;
    const response = await transport.request<unknown>({ method: 'GET', path, userId, signal });
    return toModuleContent(response, { method: 'GET', url: `${transport.baseUrl}${path}` });
  };

  return {
    ...createReadCollection<Module>(transport, '/modules'),

    /** First access creates the learner's progress record (status `in_progress`), as the spec intends. */
    async content(moduleId: number, options: LearnerScope): Promise<ModuleContent> {
      const { segment, userId } = learnerTarget(moduleId, options?.userId, 'catalog', 'moduleId');
      return contentCall(userId, segment, 'content', options.signal);
    },

    async refreshUrl(moduleId: number, options: LearnerScope): Promise<ModuleContent> {
      const { segment, userId } = learnerTarget(moduleId, options?.userId, 'catalog', 'moduleId');
      return contentCall(userId, segment, 'refresh-url', options.signal);
    },

    async complete(moduleId: number, options: LearnerScope): Promise<void> {
      const { segment, userId } = learnerTarget(moduleId, options?.userId, 'catalog', 'moduleId');
      await transport.request<undefined>({
        method: 'POST',
        path: `/modules/${segment}/complete`,
        userId,
        responseType: 'none',
        signal: options.signal,
      });
    },

    keepFresh(moduleId: number, options: KeepFreshOptions): ContentUrlKeeper {
      const { segment, userId } = learnerTarget(moduleId, options?.userId, 'catalog', 'moduleId');
      return createContentUrlKeeper({
        fetchContent: (signal) => contentCall(userId, segment, 'content', signal),
        refreshUrl: (signal) => contentCall(userId, segment, 'refresh-url', signal),
        now: () => transport.now(),
        sleep: (ms, signal) => transport.sleep(ms, signal),
        onRefresh: options.onRefresh,
        autoRefresh: options.autoRefresh,
        signal: options.signal,
      });
    },
  };
}
