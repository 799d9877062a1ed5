/**
 * Records the Partner Learning Service returns. Fields the specification names are typed; everything else the
 * service sends is kept (index signature) so nothing is lost, and JSON-LD keys (`@id`, `@type`) are passed through.
 */

/** Timestamps are ISO 8601 strings exactly as the service sent them. */
export type Timestamp = string;

interface JsonLd {
  '@id'?: string;
  '@type'?: string;
  [key: string]: unknown;
}

export type UserStatus = 'active' | 'inactive';

/** A learner profile. `uuid` is the learner's identity in every later call (`X-User-ID`). */
export interface User extends JsonLd {
  uuid: string;
  email: string;
  firstName: string;
  lastName: string;
  organizationId: number;
  countryCode?: string | null;
  address?: string | null;
  address2?: string | null;
  city?: string | null;
  stateProv?: string | null;
  postalCode?: string | null;
  phone?: string | null;
  status: UserStatus;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

/** What registration takes: the four required fields, plus any writable profile field. */
export interface RegisterUserInput {
  email: string;
  firstName: string;
  lastName: string;
  organizationId: number;
  countryCode?: string;
  address?: string;
  address2?: string;
  city?: string;
  stateProv?: string;
  postalCode?: string;
  phone?: string;
}

/** A JSON merge patch of a profile: only the fields to change. `null` clears an optional field. */
export interface UserPatch {
  email?: string;
  firstName?: string;
  lastName?: string;
  organizationId?: number;
  countryCode?: string | null;
  address?: string | null;
  address2?: string | null;
  city?: string | null;
  stateProv?: string | null;
  postalCode?: string | null;
  phone?: string | null;
  status?: UserStatus;
}

export interface Organization extends JsonLd {
  id: number;
  name?: string;
}

export interface Category extends JsonLd {
  id: number;
  name?: string;
  updatedAt?: Timestamp;
}

export type ContentType = 'video' | 'document' | 'scorm' | 'resource';

export interface Module extends JsonLd {
  id: number;
  /** 0 to 100, or null for content that is not assessed. */
  passingScore: number | null;
  title?: string;
  contentType?: ContentType;
  updatedAt?: Timestamp;
}

export interface Course extends JsonLd {
  id: number;
  title?: string;
  updatedAt?: Timestamp;
}

/** Course detail includes its modules. */
export interface CourseDetail extends Course {
  modules: Module[];
}

/** The response of `/modules/{id}/content` and `/modules/{id}/refresh-url`: snake_case, as the service sends it. */
export interface ModuleContent {
  '@type': 'ModuleContent';
  module_id: number;
  content_type: ContentType;
  /** Signed and short-lived: fetch it at the moment of use and never persist it. */
  content_url: string;
  /** ISO 8601 UTC, about 60 minutes after issue. */
  expires_at: Timestamp;
  duration_seconds: number;
  mime_type: string;
  [key: string]: unknown;
}

export type ProgressStatus = 'not_started' | 'in_progress' | 'completed';

export interface CourseProgress extends JsonLd {
  /** The record's id (for `progress.get`); the service's JSON-LD `@id` is kept as well. */
  id?: number | string;
  status: ProgressStatus;
  completionPercent: number;
  lastActivityAt: Timestamp | null;
  startedAt: Timestamp | null;
  completedAt: Timestamp | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

export interface Transcript extends JsonLd {
  /** The record's id (for `transcripts.get` and `certificatePdf`); the JSON-LD `@id` is kept as well. */
  id?: number | string;
  completionDate: Timestamp;
  /** 0 to 100, or null. */
  score: number | null;
  isCourse: boolean;
  certificateAvailable: boolean;
  updatedAt?: Timestamp;
}

/** `GET /ping`: `status` is `healthy` when the service is up; dependency checks are passed through. */
export interface Health {
  status: string;
  [key: string]: unknown;
}

/** A PDF as a stream: nothing is buffered whole. Read `body` once. */
export interface PdfDownload {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  /** From `Content-Disposition` when the service names the file, else a sensible default. */
  fileName: string;
  /** From `Content-Length`, when sent. */
  contentLength?: number;
}
