/**
 * `/users`: learner registration and profile maintenance. Every UUID and body is checked before sending.
 */
import type { CallOptions } from '../types/calls.ts';
import type { UsersApi } from '../types/resources.ts';
import type { RegisterUserInput, User, UserPatch } from '../types/records.ts';
import { isPartnerLearningError } from '../errors/base.ts';
import { ErrorCode } from '../errors/codes.ts';
import type { Transport } from '../transport.ts';
import { registerUserSchema, userPatchSchema, uuidSchema } from '../validation/schemas.ts';
import { checkCall, send, type Check } from './call.ts';

/**
 * @param transport Sends the requests.
 * @returns The users group.
 */
export function createUsers(transport: Transport): UsersApi {
  const userPath = (uuid: unknown): string => `/users/${encodeURIComponent(uuid as string)}`;
  const uuidCheck = (uuid: unknown): Check => [uuidSchema, uuid, 'uuid'];

  const patch = async (uuid: unknown, body: UserPatch, options: CallOptions): Promise<User> => {
    const request = { method: 'PATCH' as const, path: userPath(uuid), mergePatch: body };
    return (await send<User>(transport, request, options)).data;
  };

  return {
    /** Idempotent per partner and e-mail: registering again returns the existing learner. */
    async register(input: RegisterUserInput, options?: CallOptions): Promise<User> {
      const checked = checkCall(options, [[registerUserSchema, input, '']]);
      return (await send<User>(transport, { method: 'POST', path: '/users/register', json: input }, checked)).data;
    },

    async get(uuid: string, options?: CallOptions): Promise<User> {
      const checked = checkCall(options, [uuidCheck(uuid)]);
      return (await send<User>(transport, { method: 'GET', path: userPath(uuid) }, checked)).data;
    },

    async update(uuid: string, changes: UserPatch, options?: CallOptions): Promise<User> {
      // Everything checked at once, so a caller sees every problem in one error.
      const checked = checkCall(options, [uuidCheck(uuid), [userPatchSchema, changes, '']]);
      return patch(uuid, changes, checked);
    },

    async deactivate(uuid: string, options?: CallOptions): Promise<User> {
      return patch(uuid, { status: 'inactive' }, checkCall(options, [uuidCheck(uuid)]));
    },

    async reactivate(uuid: string, options?: CallOptions): Promise<User> {
      return patch(uuid, { status: 'active' }, checkCall(options, [uuidCheck(uuid)]));
    },

    async delete(uuid: string, options?: CallOptions): Promise<void> {
      const checked = checkCall(options, [uuidCheck(uuid)]);
      try {
        await send<undefined>(transport, { method: 'DELETE', path: userPath(uuid), responseType: 'none' }, checked);
      } catch (error) {
        // A 404 after an earlier attempt was sent means that attempt may have deleted the learner (whatever it was
        // answered: a 429 can come after the delete took effect): done, not NotFound.
        if (isPartnerLearningError(error) && error.code === ErrorCode.NOT_FOUND && (error.attempts ?? 0) > 1) return;
        throw error;
      }
    },
  };
}
