/**
 * `/modules`: the read-only catalog plus the learner's content calls: content URL, refresh, completion, and a
 * keeper that holds a playing URL fresh.
 */
import type { CallOptions, ContentUrlKeeper, KeepFreshOptions, LearnerScope } from '../types/calls.ts';
import type { ModulesApi } from '../types/resources.ts';
import type { Module, ModuleContent } from '../types/records.ts';
import type { Transport } from '../transport.ts';
import { createContentUrlKeeper } from '../content/keeper.ts';
import { toModuleContent } from '../content/module-content.ts';
import { createReadCollection } from './read-collection.ts';
import { booleanSchema, callbackSchema } from '../validation/schemas.ts';
import { checkAll } from '../validation/validate.ts';
import { send, type Check } from './call.ts';
import { learnerTarget } from './query.ts';
import { checkSignal } from '../signal.ts';

/**
 * @param transport Sends the requests.
 * @returns The modules group.
 */
export function createModules(transport: Transport): ModulesApi {
  const contentCall = async (
    userId: string,
    segment: string,
    kind: 'content' | 'refresh-url',
    options: CallOptions,
  ): Promise<ModuleContent> => {
    const path = `/modules/${segment}/${kind}`;
    const response = await send<unknown>(transport, { method: 'GET', path, userId }, options);
    return toModuleContent(response, { method: 'GET', url: `${transport.baseUrl}${path}` });
  };

  return {
    ...createReadCollection<Module>(transport, '/modules'),

    /** First access creates the learner's progress record (status `in_progress`), as the spec intends. */
    async content(moduleId: number, options: LearnerScope): Promise<ModuleContent> {
      const { segment, userId } = learnerTarget(moduleId, options, 'catalog', 'moduleId');
      return contentCall(userId, segment, 'content', options);
    },

    async refreshUrl(moduleId: number, options: LearnerScope): Promise<ModuleContent> {
      const { segment, userId } = learnerTarget(moduleId, options, 'catalog', 'moduleId');
      return contentCall(userId, segment, 'refresh-url', options);
    },

    async complete(moduleId: number, options: LearnerScope): Promise<void> {
      const { segment, userId } = learnerTarget(moduleId, options, 'catalog', 'moduleId');
      const path = `/modules/${segment}/complete`;
      await send<undefined>(transport, { method: 'POST', path, userId, responseType: 'none' }, options);
    },

    keepFresh(moduleId: number, options: KeepFreshOptions): ContentUrlKeeper {
      const { segment, userId } = learnerTarget(moduleId, options, 'catalog', 'moduleId');
      checkAll(keeperChecks(options));
      // The keeper combines this signal with its own at once (AbortSignal.any), before any request could check it.
      checkSignal(options.signal);
      // The keeper passes its own signal per request; the other call options apply to every request it makes.
      const call = (signal: AbortSignal | undefined): CallOptions => ({ ...options, signal });
      return createContentUrlKeeper({
        fetchContent: (signal) => contentCall(userId, segment, 'content', call(signal)),
        refreshUrl: (signal) => contentCall(userId, segment, 'refresh-url', call(signal)),
        now: () => transport.now(),
        sleep: (ms, signal) => transport.sleep(ms, signal),
        onRefresh: options.onRefresh,
        autoRefresh: options.autoRefresh,
        signal: options.signal,
      });
    },
  };
}

function keeperChecks(options: KeepFreshOptions): Check[] {
  const checks: Check[] = [];
  if (options.onRefresh !== undefined) checks.push([callbackSchema, options.onRefresh, 'onRefresh']);
  if (options.autoRefresh !== undefined) checks.push([booleanSchema, options.autoRefresh, 'autoRefresh']);
  return checks;
}
