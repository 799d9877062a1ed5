/**
 * `client.forLearner(uuid)`: the learner-scoped calls with `X-User-ID` bound once. The UUID is checked here, at
 * creation; every call then adds it to the caller's options and runs the ordinary resource method.
 */
import type { LearnerScope } from './types/calls.ts';
import type { LearnerClient, PartnerLearningClient } from './types/client-api.ts';
import { invalidInput } from './local-errors.ts';
import { optionsObjectSchema, uuidSchema } from './validation/schemas.ts';
import { checkAll, parseInput } from './validation/validate.ts';

type Groups = Pick<PartnerLearningClient, 'users' | 'modules' | 'progress' | 'transcripts'>;

/**
 * @param groups The client's resource groups.
 * @param uuid The learner's UUID, unchecked.
 * @returns The bound learner client.
 * @throws {ValidationError} when `uuid` is not a UUID.
 */
export function bindLearner(groups: Groups, uuid: unknown): LearnerClient {
  const userId = parseInput(uuidSchema, uuid, 'uuid');
  const scoped = <O extends object>(options: O | undefined): O & LearnerScope => {
    checkAll([[optionsObjectSchema, options, 'options']]);
    const given = (options as { userId?: unknown } | undefined)?.userId;
    if (given !== undefined && given !== userId) {
      throw invalidInput([
        { propertyPath: 'userId', message: 'The learner is bound by forLearner(); leave userId out of the options.' },
      ]);
    }
    return { ...options, userId } as O & LearnerScope;
  };
  const { users, modules, progress, transcripts } = groups;
  // Calls that return a promise reject on bad options (async); list, sync and keepFresh throw at once, as unbound.
  return {
    userId,
    me: async (options) => users.get(userId, options),
    modules: {
      content: async (moduleId, options) => modules.content(moduleId, scoped(options)),
      refreshUrl: async (moduleId, options) => modules.refreshUrl(moduleId, scoped(options)),
      complete: async (moduleId, options) => modules.complete(moduleId, scoped(options)),
      keepFresh: (moduleId, options) => modules.keepFresh(moduleId, scoped(options)),
    },
    progress: {
      list: (options) => progress.list(scoped(options)),
      page: async (options) => progress.page(scoped(options)),
      get: async (id, options) => progress.get(id, scoped(options)),
      sync: (options) => progress.sync(scoped(options)),
    },
    transcripts: {
      list: (options) => transcripts.list(scoped(options)),
      page: async (options) => transcripts.page(scoped(options)),
      get: async (id, options) => transcripts.get(id, scoped(options)),
      sync: (options) => transcripts.sync(scoped(options)),
      pdf: async (options) => transcripts.pdf(scoped(options)),
      certificatePdf: async (id, options) => transcripts.certificatePdf(id, scoped(options)),
    },
  };
}
