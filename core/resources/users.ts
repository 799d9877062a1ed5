/**
 * `/users`: learner registration and profile maintenance. Every UUID and body is checked before sending.
 */
import type { CallOptions, UsersApi } from '../client-types.ts';
import type { RegisterUserInput, User, UserPatch } from '../types.ts';
import { isPartnerLearningError } from '../errors/base.ts';
import { ErrorCode } from '../errors/codes.ts';
import type { Transport } from '../transport.ts';
import { registerUserSchema, userPatchSchema, uuidSchema } from '../validation/schemas.ts';
import { checkAll, parseInput } from '../validation/validate.ts';
import { checkUuid } from './query.ts';

/**
 * @param transport Sends the requests.
 * @returns The users group.
 */
export function createUsers(transport: Transport): UsersApi {
  const userPath = (uuid: unknown): string => `/users/${encodeURIComponent(checkUuid(uuid, 'uuid'))}`;

  const patch = async (uuid: unknown, body: UserPatch, options?: CallOptions): Promise<User> => {
    const path = userPath(uuid);
    const response = await transport.request<User>({ method: 'PATCH', path, mergePatch: body, signal: options?.signal });
    return response.data;
  };

  return {
    /** Idempotent per partner and e-mail: registering again returns the existing learner. */
    async register(input: RegisterUserInput, options?: CallOptions): Promise<User> {
      const body = parseInput(registerUserSchema, input, '');
      const response = await transport.request<User>({
        method: 'POST',
        path: '/users/register',
        json: body,
        signal: options?.signal,
      });
      return response.data;
    },

    async get(uuid: string, options?: CallOptions): Promise<User> {
      const response = await transport.request<User>({ method: 'GET', path: userPath(uuid), signal: options?.signal });
      return response.data;
    },

    async update(uuid: string, changes: UserPatch, options?: CallOptions): Promise<User> {
      // Both checked at once, so a caller sees every problem in one error.
      checkAll([
        [uuidSchema, uuid, 'uuid'],
        [userPatchSchema, changes, ''],
      ]);
      return patch(uuid, changes, options);
    },

    async deactivate(uuid: string, options?: CallOptions): Promise<User> {
      return patch(uuid, { status: 'inactive' }, options);
    },

    async reactivate(uuid: string, options?: CallOptions): Promise<User> {
      return patch(uuid, { status: 'active' }, options);
    },

    async delete(uuid: string, options?: CallOptions): Promise<void> {
      const path = userPath(uuid);
      try {
        await transport.request<undefined>({ method: 'DELETE', path, responseType: 'none', signal: options?.signal });
      } catch (error) {
        // A 404 after an earlier attempt was sent means that attempt may have deleted the learner (whatever it was
        // answered: a 429 can come after the delete took effect): done, not NotFound.
        if (isPartnerLearningError(error) && error.code === ErrorCode.NOT_FOUND && (error.attempts ?? 0) > 1) return;
        throw error;
      }
    },
  };
}
