/**
 * The resource groups on a transport: the protocol half of the client, with no HTTP library, timer or global of its
 * own. `createClient` puts it on the ky driver; the n8n nodes put it on n8n's HTTP helper.
 */
import type { PartnerLearningClient } from './types/client-api.ts';
import type { Transport } from './transport.ts';
import { bindLearner } from './for-learner.ts';
import { createVerify, type TokenAccess } from './resources/verify.ts';
import { createCategories } from './resources/categories.ts';
import { createCourses } from './resources/courses.ts';
import { createModules } from './resources/modules.ts';
import { createOrganizations } from './resources/organizations.ts';
import { createPing } from './resources/ping.ts';
import { createProgress } from './resources/progress.ts';
import { createTranscripts } from './resources/transcripts.ts';
import { createUsers } from './resources/users.ts';

/**
 * Builds the resource groups on an existing transport (another driver, or a fake one in tests).
 *
 * @param transport The transport every group sends through.
 * @param environment A label for logs and errors.
 * @param access The driver's token and requested scopes, for `verifyCredentials` (without it, that call proves the
 *   credentials by the read alone and reports the scopes it cannot see as none).
 * @returns The client.
 * @example
 * ```ts
 * const client = clientOnTransport(myTransport, 'sandbox');
 * const page = await client.courses.page({ pageSize: 20 });
 * ```
 */
export function clientOnTransport(
  transport: Transport,
  environment?: string,
  access?: TokenAccess,
): PartnerLearningClient {
  const groups = {
    users: createUsers(transport),
    modules: createModules(transport),
    progress: createProgress(transport),
    transcripts: createTranscripts(transport),
  };
  return {
    environment,
    ping: createPing(transport),
    organizations: createOrganizations(transport),
    categories: createCategories(transport),
    courses: createCourses(transport),
    ...groups,
    forLearner: (uuid) => bindLearner(groups, uuid),
    verifyCredentials: createVerify(transport, environment, access),
  };
}
