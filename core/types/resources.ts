/**
 * The resource groups the client returns. Every call checks its inputs first and fails with a `ValidationError`
 * before sending anything. Types only.
 */
import type { Module, ModuleContent, PdfDownload, RegisterUserInput, Transcript, User, UserPatch } from './records.ts';
import type { CallOptions, ContentUrlKeeper, DeltaOptions, DeltaSync, KeepFreshOptions, LearnerScope, ListOptions, Page, PageOptions, Paginated } from './calls.ts';

/** A read-only catalog collection (organizations, categories, courses, modules). */
export interface ReadCollection<T, TDetail = T> {
  /**
   * Every record, page by page, lazily: nothing is sent until it is iterated.
   *
   * @param options Page size, start page, date filters, call options.
   * @returns A {@link Paginated} view.
   * @throws {ValidationError} at once, on a bad option.
   * @example
   * ```ts
   * for await (const course of client.courses.list({ pageSize: 50 })) console.log(course.id);
   * ```
   */
  list(options?: ListOptions): Paginated<T>;
  /**
   * One page, resuming from a cursor: for callers that page by hand (list search in n8n, paging through the relay).
   *
   * @param options List options for the first page, or `{ cursor }` (an earlier page's `next`) for the following one.
   * @returns The page; `next` is absent on the last page.
   * @throws {ValidationError} on a bad option, a cursor of another collection, or a cursor with query options.
   * @example
   * ```ts
   * let page = await client.courses.page({ pageSize: 20 });
   * while (page.next) page = await client.courses.page({ cursor: page.next });
   * ```
   */
  page(options?: PageOptions): Promise<Page<T>>;
  /**
   * One record.
   *
   * @param id The record's `id` (a positive whole number).
   * @param options Call options.
   * @returns The record (a course's detail includes its modules).
   * @throws {NotFoundError} when there is no such record.
   */
  get(id: number, options?: CallOptions): Promise<TDetail>;
  /**
   * The records changed since a watermark (all, when none); persist `watermark` once iteration has finished.
   *
   * @param options The previous run's watermark (`since`), page size, call options.
   * @returns A {@link DeltaSync}.
   * @throws {ValidationError} at once, on a bad option or watermark.
   */
  sync(options?: DeltaOptions): DeltaSync<T>;
}

/** A learner's collection (course progress, transcripts): every call needs the learner's `userId`. */
export interface LearnerCollection<T> {
  /**
   * The learner's records, page by page (see {@link ReadCollection.list}).
   *
   * @param options `userId`, list options, call options.
   * @returns A {@link Paginated} view.
   */
  list(options: LearnerScope & ListOptions): Paginated<T>;
  /**
   * One page, resuming from a cursor (see {@link ReadCollection.page}).
   *
   * @param options `userId`, and list options or a cursor.
   * @returns The page.
   */
  page(options: LearnerScope & PageOptions): Promise<Page<T>>;
  /**
   * One of the learner's records.
   *
   * @param id The record's `id`: a positive whole number or an id of letters, digits, `-` and `_`.
   * @param options `userId` and call options.
   * @returns The record.
   */
  get(id: number | string, options: LearnerScope): Promise<T>;
  /**
   * The learner's records changed since a watermark (see {@link ReadCollection.sync}).
   *
   * @param options `userId`, watermark, call options.
   * @returns A {@link DeltaSync}.
   */
  sync(options: LearnerScope & DeltaOptions): DeltaSync<T>;
}

/** Learner registration and profile maintenance (`/users`). */
export interface UsersApi {
  /**
   * Registers a learner; idempotent per partner and e-mail (registering again returns the existing learner).
   *
   * @param input E-mail, first and last name, organization id, optional profile fields (not `status`).
   * @param options Call options.
   * @returns The learner; keep `uuid`, it names the learner in every later call.
   */
  register(input: RegisterUserInput, options?: CallOptions): Promise<User>;
  /**
   * @param uuid The learner's UUID.
   * @param options Call options.
   * @returns The learner's profile.
   * @throws {NotFoundError} when there is no such learner.
   */
  get(uuid: string, options?: CallOptions): Promise<User>;
  /**
   * Changes profile fields (JSON merge patch: `null` clears an optional field).
   *
   * @param uuid The learner's UUID.
   * @param patch The fields to change, at least one.
   * @param options Call options.
   * @returns The updated profile.
   */
  update(uuid: string, patch: UserPatch, options?: CallOptions): Promise<User>;
  /**
   * Sets `status` to `inactive`: the learner's user-scoped calls then fail with `InactiveLearnerError`.
   *
   * @param uuid The learner's UUID.
   * @param options Call options.
   * @returns The updated profile.
   */
  deactivate(uuid: string, options?: CallOptions): Promise<User>;
  /**
   * Sets `status` back to `active`.
   *
   * @param uuid The learner's UUID.
   * @param options Call options.
   * @returns The updated profile.
   */
  reactivate(uuid: string, options?: CallOptions): Promise<User>;
  /**
   * Erases the learner (not reversible). Resolves when gone, also when a retry finds it already gone (then
   * `onResponse` is not called: the service's last answer was that 404).
   *
   * @param uuid The learner's UUID.
   * @param options Call options.
   * @throws {NotFoundError} when the first attempt finds no such learner.
   */
  delete(uuid: string, options?: CallOptions): Promise<void>;
}

/** The module catalog plus a learner's content calls. */
export interface ModulesApi extends ReadCollection<Module> {
  /**
   * The module's signed content URL for the learner; the first access creates the learner's progress record.
   *
   * @param moduleId The module's `id`.
   * @param options `userId` and call options.
   * @returns The content record (snake_case, as the service sends it); use its URL now, never persist it.
   */
  content(moduleId: number, options: LearnerScope): Promise<ModuleContent>;
  /**
   * A fresh content URL for a module the learner is playing (call it when under 60 s are left).
   *
   * @param moduleId The module's `id`.
   * @param options `userId` and call options.
   * @returns The new content record.
   */
  refreshUrl(moduleId: number, options: LearnerScope): Promise<ModuleContent>;
  /**
   * Marks the module completed for the learner: 202 on first and repeat calls.
   *
   * @param moduleId The module's `id`.
   * @param options `userId` and call options.
   * @throws {ConflictError} for a SCORM module (its completion comes from the SCORM package).
   */
  complete(moduleId: number, options: LearnerScope): Promise<void>;
  /**
   * A keeper that holds a playing content URL fresh; nothing is sent until its first `current()`.
   *
   * @param moduleId The module's `id`.
   * @param options `userId`, `onRefresh`, `autoRefresh` and call options (applied to each request it makes).
   * @returns A {@link ContentUrlKeeper}.
   */
  keepFresh(moduleId: number, options: KeepFreshOptions): ContentUrlKeeper;
}

/** A learner's completion records and the two PDFs. */
export interface TranscriptsApi extends LearnerCollection<Transcript> {
  /**
   * The learner's full transcript (`GET /transcript/pdf`), as a stream.
   *
   * @param options `userId` and call options.
   * @returns The PDF; read `body` once.
   */
  pdf(options: LearnerScope): Promise<PdfDownload>;
  /**
   * The certificate of one completion, as a stream.
   *
   * @param transcriptId The transcript record's `id`.
   * @param options `userId` and call options.
   * @returns The PDF; read `body` once.
   */
  certificatePdf(transcriptId: number | string, options: LearnerScope): Promise<PdfDownload>;
}

/**
 * A learner's collection with the learner bound (see {@link PartnerLearningClient.forLearner}): the same calls as
 * {@link LearnerCollection}, without `userId`.
 */
export interface BoundLearnerCollection<T> {
  /** @see LearnerCollection.list */
  list(options?: ListOptions): Paginated<T>;
  /** @see LearnerCollection.page */
  page(options?: PageOptions): Promise<Page<T>>;
  /** @see LearnerCollection.get */
  get(id: number | string, options?: CallOptions): Promise<T>;
  /** @see LearnerCollection.sync */
  sync(options?: DeltaOptions): DeltaSync<T>;
}
