/** The client as a whole (`createClient`, `clientOnTransport`) and its learner-bound view (`forLearner`). Types only. */
import type { Category, Course, CourseDetail, CourseProgress, Health, ModuleContent, Organization, PdfDownload, Transcript, User } from './records.ts';
import type { CallOptions, ContentUrlKeeper, KeepFreshOptions } from './calls.ts';
import type { BoundLearnerCollection, LearnerCollection, ModulesApi, ReadCollection, TranscriptsApi, UsersApi } from './resources.ts';

/** The read-only catalog groups of the client (organizations, categories, courses, modules). */
export type CatalogGroup = 'organizations' | 'categories' | 'courses' | 'modules';

/**
 * The learner-scoped calls with `X-User-ID` bound once, from {@link PartnerLearningClient.forLearner}. Options take
 * no `userId` (one that differs from the bound learner is a `ValidationError`).
 */
export interface LearnerClient {
  /** The bound learner's UUID. */
  readonly userId: string;
  /**
   * @param options Call options.
   * @returns The learner's own profile (`users.get(userId)`).
   */
  me(options?: CallOptions): Promise<User>;
  /** {@link ModulesApi.content}, `refreshUrl`, `complete` and `keepFresh` for the bound learner. */
  modules: {
    content(moduleId: number, options?: CallOptions): Promise<ModuleContent>;
    refreshUrl(moduleId: number, options?: CallOptions): Promise<ModuleContent>;
    complete(moduleId: number, options?: CallOptions): Promise<void>;
    keepFresh(moduleId: number, options?: Omit<KeepFreshOptions, 'userId'>): ContentUrlKeeper;
  };
  /** The bound learner's course progress. */
  progress: BoundLearnerCollection<CourseProgress>;
  /** The bound learner's transcripts and PDFs. */
  transcripts: BoundLearnerCollection<Transcript> & {
    pdf(options?: CallOptions): Promise<PdfDownload>;
    certificatePdf(transcriptId: number | string, options?: CallOptions): Promise<PdfDownload>;
  };
}

/** What {@link PartnerLearningClient.verifyCredentials} proved. */
export interface CredentialsCheck {
  /** The client's `environment` label, as configured. */
  environment: string | undefined;
  /** The scopes the access token grants (empty when the driver does not expose its token). */
  scopes: string[];
}

/** The client: one group per resource of the service, sharing one transport. */
export interface PartnerLearningClient {
  /** The `environment` label given in the options. */
  readonly environment: string | undefined;
  /**
   * `GET /ping` with the API key only: proves the key and that the service is up, not the token.
   *
   * @param options Call options.
   * @returns The health record (`status` is `healthy` when up).
   */
  ping(options?: CallOptions): Promise<Health>;
  /** Learner registration and profiles. */
  users: UsersApi;
  /** Organizations (reference data for registration; no `updatedAt`, so no sync). */
  organizations: Omit<ReadCollection<Organization>, 'sync'>;
  /** Course categories. */
  categories: ReadCollection<Category>;
  /** Courses; `get` includes the course's modules. */
  courses: ReadCollection<Course, CourseDetail>;
  /** Modules and a learner's content calls. */
  modules: ModulesApi;
  /** A learner's course progress. */
  progress: LearnerCollection<CourseProgress>;
  /** A learner's transcripts and PDFs. */
  transcripts: TranscriptsApi;
  /**
   * The learner-scoped calls for one learner, with `X-User-ID` bound once (the relay binds the learner of a
   * verified token).
   *
   * @param uuid The learner's UUID (from registration).
   * @returns A {@link LearnerClient}.
   * @throws {ValidationError} when `uuid` is not a 36-character UUID; nothing is sent.
   * @example
   * ```ts
   * const learner = client.forLearner(uuid);
   * const done = await learner.transcripts.list().toArray({ max: 100 });
   * ```
   */
  forLearner(uuid: string): LearnerClient;
  /**
   * Proves the whole configuration, where `ping` proves only the API key: gets an access token (client ID, secret
   * and scopes), then makes one authenticated read (API key, token accepted by this API, read scope).
   *
   * @param options Call options.
   * @returns The environment label and the granted scopes.
   * @throws {TokenEndpointError} The token endpoint refused: `invalid_client` (client ID or secret wrong, or of
   *   another environment), `invalid_scope` (a scope this client may not have).
   * @throws {MissingScopeError} The token lacks a scope the client asks for, or the API needs one it lacks.
   * @throws {ApiKeyError} The API key is missing, wrong, disabled or of another environment.
   * @throws {AuthenticationError} The API refuses the token: `tokenUrl` and `baseUrl` name different environments.
   * @example
   * ```ts
   * const { environment, scopes } = await client.verifyCredentials();
   * ```
   */
  verifyCredentials(options?: CallOptions): Promise<CredentialsCheck>;
}
