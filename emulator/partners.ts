import type { EmulatorState } from './state.ts';
import { ENV_NAMES } from './types.ts';
import type { EnvName } from './types.ts';

/** A client as the control interface lists it. */
export interface ClientInfo {
  clientId: string;
  clientSecret: string;
  scopes: string[];
}

/** One environment's addresses and credentials for a partner. */
export interface EnvironmentInfo {
  tokenUrl: string;
  baseUrl: string;
  issuer: string;
  jwksUrl: string;
  apiKey: string;
  /** The first client is read-write, the second read-only. */
  clients: ClientInfo[];
}

/** A partner as `GET /_emulator/partners` returns it. */
export interface PartnerInfo {
  id: string;
  name: string;
  environments: Record<EnvName, EnvironmentInfo>;
}

/**
 * @param state the emulator state.
 * @param origin the origin callers use, e.g. `http://127.0.0.1:4010` (no trailing slash).
 * @returns every partner with its URLs and credentials for both environments.
 */
export function partnersInfo(state: EmulatorState, origin: string): PartnerInfo[] {
  const o = origin.replace(/\/+$/, '');
  return state.partners.map((p) => ({
    id: p.id,
    name: p.name,
    environments: Object.fromEntries(
      ENV_NAMES.map((env) => {
        const creds = p.envs[env];
        const info: EnvironmentInfo = {
          tokenUrl: `${o}/${env}/oauth2/token`,
          baseUrl: `${o}/${env}/v1`,
          issuer: `${o}/${env}/idp`,
          jwksUrl: `${o}/${env}/idp/.well-known/jwks.json`,
          apiKey: creds.apiKey,
          clients: creds.clients.map((c) => ({ clientId: c.clientId, clientSecret: c.clientSecret, scopes: [...c.scopes] })),
        };
        return [env, info];
      }),
    ) as Record<EnvName, EnvironmentInfo>,
  }));
}
