/**
 * The trigger's state and its small helpers. The de-duplication at the watermark instant is the core's delta sync
 * (`updatedAt[after]` is inclusive; ids already delivered at that instant are skipped).
 */
import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import type { DeltaSync, Watermark } from '../../core/protocol.ts';
import { ValidationError } from '../../core/protocol.ts';

/** What the trigger keeps in `getWorkflowStaticData('node')` (plain JSON). */
export interface TriggerState {
  /** `courseUpdated`: where the course sync got to. */
  courses?: Watermark;
  /** `learnerCompleted`: one watermark per learner UUID. */
  learners?: Record<string, Watermark>;
}

/**
 * Runs a delta sync to its end.
 *
 * @param sync The core's delta sync.
 * @returns The changed records and the watermark to persist.
 */
export async function syncChanges<T>(sync: DeltaSync<T>): Promise<{ records: IDataObject[]; watermark: Watermark | undefined }> {
  const records: IDataObject[] = [];
  for await (const record of sync) records.push(record as IDataObject);
  return { records, watermark: sync.watermark };
}

/**
 * @param records Records with `updatedAt`.
 * @returns The most recently updated one (the last of equals), or `undefined` when there is none.
 */
export function newest(records: IDataObject[]): IDataObject | undefined {
  let best: IDataObject | undefined;
  let bestMs = Number.NEGATIVE_INFINITY;
  for (const record of records) {
    const ms = Date.parse(String(record.updatedAt ?? record.completionDate ?? ''));
    const value = Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms;
    if (best === undefined || value >= bestMs) {
      best = record;
      bestMs = value;
    }
  }
  return best;
}

/**
 * The learner UUIDs of `userIds`: comma- or whitespace-separated text, or an array from an expression. Duplicates
 * are dropped; the core checks each UUID before anything is sent.
 *
 * @param value The parameter's value.
 * @returns The UUIDs, in order.
 * @throws {ValidationError} when there is none.
 */
export function parseUserIds(value: unknown): string[] {
  const parts = Array.isArray(value) ? value.map((v) => String(v)) : String(value ?? '').split(/[\s,;]+/);
  const ids = [...new Set(parts.map((part) => part.trim()).filter((part) => part !== ''))];
  if (ids.length === 0) {
    throw new ValidationError({
      origin: 'client',
      violations: [{ propertyPath: 'userIds', message: 'Give at least one learner UUID.' }],
      message: 'User IDs is empty: give the UUIDs of the learners to watch, comma-separated',
    });
  }
  return ids;
}

/**
 * How much of this poll's time is left, where n8n says (`getPollBudgetMs`, n8n 2.36+); without it, no limit.
 *
 * @param ctx The trigger's `this`.
 * @returns A check: `true` while there is time for more work (a fifth of the budget is kept in reserve).
 */
export function pollBudget(ctx: IPollFunctions): () => boolean {
  const getBudget = (ctx as { getPollBudgetMs?: () => number }).getPollBudgetMs;
  if (typeof getBudget !== 'function') return () => true;
  const budgetMs = getBudget.call(ctx);
  const started = Date.now();
  return () => Date.now() - started < budgetMs * 0.8;
}
