/**
 * The assertions every runtime makes about a scenario report (see `runtime-scenario.ts`), shared so workerd and
 * Deno are held to exactly the same bar.
 */
import { expect } from 'vitest';
import type { ScenarioReport } from './runtime-scenario.ts';

/** Every step of the scenario, in order. */
export const allSteps = ['ping', 'register', 'courses', 'detail', 'content', 'complete', 'transcripts', 'pdf', 'notFound'];

/**
 * Asserts a full, successful scenario run.
 *
 * @param value - The parsed JSON report.
 * @param runtime - A substring of the runtime's user agent (`Cloudflare-Workers`, `Deno/`).
 * @returns The report, typed.
 */
export function expectScenarioPassed(value: unknown, runtime: string): ScenarioReport {
  const report = value as ScenarioReport;
  // The failure first: it names the step and the error, which is what one needs when this breaks.
  expect(report.failure, `scenario failed: ${JSON.stringify(report.failure)}`).toBeUndefined();
  expect(report.runtime).toContain(runtime);
  expect(report.steps).toEqual(allSteps);
  expect(report.ping).toBe('healthy');
  expect(report.learnerUuidLength).toBe(36);
  expect(report.courses?.pages).toBeGreaterThanOrEqual(2);
  expect(report.courses?.items).toBe(report.courses?.totalItems);
  expect(report.courses?.uniqueIds).toBe(report.courses?.items);
  expect(report.detail?.modules).toBeGreaterThanOrEqual(1);
  expect(report.content).toMatchObject({ urlOnEmulator: true, expiresInFuture: true });
  expect(report.content?.contentType).not.toBe('scorm');
  expect(report.transcripts?.count).toBeGreaterThanOrEqual(1);
  expect(report.transcripts?.includesCompletedModule).toBe(true);
  expect(report.pdf?.magic).toBe('%PDF-');
  expect(report.pdf?.bytes).toBeGreaterThan(100);
  expect(report.pdf?.contentType).toContain('application/pdf');
  expect(report.notFound).toEqual({ name: 'NotFoundError', code: 'not_found', status: 404, isNotFoundError: true });
  expect(report.secretLeaked).toBe(false);
  return report;
}
