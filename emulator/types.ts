/** Domain records kept by the emulator. Timestamps are epoch ms; they are serialized as ISO 8601 with `Z`. */

/** The two environments, served under path prefixes. */
export type EnvName = 'sandbox' | 'production';
/** Both environments, in a stable order. */
export const ENV_NAMES: readonly EnvName[] = ['sandbox', 'production'];
/** @returns whether `value` names an environment. */
export function isEnvName(value: string | undefined): value is EnvName {
  return value === 'sandbox' || value === 'production';
}

/** Scope of all read operations. */
export const SCOPE_READ = 'partner-api/read';
/** Scope of registration, profile changes, erasure and completion. */
export const SCOPE_WRITE = 'partner-api/write';

/** Module content types. */
export type ContentType = 'video' | 'document' | 'scorm' | 'resource';

/** A usage plan of an API key (API Gateway style). */
export interface UsagePlan {
  ratePerSecond: number;
  burst: number;
  dailyQuota: number;
}

/** An OAuth2 client of a partner in one environment. */
export interface ClientRecord {
  clientId: string;
  clientSecret: string;
  scopes: string[];
  partnerId: string;
}

/** An API key with its usage plan; `enabled: false` makes the gateway answer 403. */
export interface ApiKeyRecord {
  key: string;
  partnerId: string;
  env: EnvName;
  enabled: boolean;
  plan: UsagePlan;
}

/** A partner and its credentials per environment. */
export interface PartnerRecord {
  id: string;
  name: string;
  envs: Record<EnvName, { apiKey: string; clients: ClientRecord[] }>;
}

/** Reference data chosen at registration (`organizationId`). */
export interface Organization {
  id: number;
  name: string;
  countryCode: string;
}

/** A catalog category. */
export interface Category {
  id: number;
  name: string;
  slug: string;
  createdAt: number;
  updatedAt: number;
}

/** A catalog course; only published ones are visible through the API. */
export interface Course {
  id: number;
  categoryId: number;
  title: string;
  description: string;
  language: string;
  published: boolean;
  createdAt: number;
  updatedAt: number;
}

/** A catalog module of one course. */
export interface Module {
  id: number;
  courseId: number;
  position: number;
  title: string;
  contentType: ContentType;
  mimeType: string;
  durationSeconds: number;
  passingScore: number | null;
  /** A module can be withdrawn inside a published course; reachable = module and course published. */
  published: boolean;
  createdAt: number;
  updatedAt: number;
}

/** One environment's catalog. */
export interface Catalog {
  organizations: Organization[];
  categories: Category[];
  courses: Course[];
  modules: Module[];
}

/** Learner status. */
export type UserStatus = 'active' | 'inactive';

/** Profile fields a partner may set (all but uuid, createdAt, updatedAt). */
export interface Profile {
  email: string;
  firstName: string;
  lastName: string;
  organizationId: number;
  countryCode: string | null;
  address: string | null;
  address2: string | null;
  city: string | null;
  stateProv: string | null;
  postalCode: string | null;
  phone: string | null;
  status: UserStatus;
}

/** A registered learner of one partner. */
export interface User extends Profile {
  uuid: string;
  partnerId: string;
  createdAt: number;
  updatedAt: number;
}

/** Course progress status. */
export type ProgressStatus = 'not_started' | 'in_progress' | 'completed';

/** A learner's progress in one course. */
export interface CourseProgress {
  id: number;
  learnerUuid: string;
  courseId: number;
  status: ProgressStatus;
  completionPercent: number;
  startedAt: number | null;
  lastActivityAt: number | null;
  completedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** A completion record: a module (`isCourse` false) or a whole course (with a certificate). */
export interface Transcript {
  id: number;
  learnerUuid: string;
  isCourse: boolean;
  courseId: number;
  moduleId: number | null;
  title: string;
  completionDate: number;
  score: number | null;
  certificateAvailable: boolean;
  createdAt: number;
  updatedAt: number;
}
