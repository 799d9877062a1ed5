/**
 * Issue 18: a partner backend in a second language. Perl's OpenAPI::Client (Debian's libopenapi-client-perl,
 * installed by scripts/ensure-perl-openapi.sh) reads the relay's document at run time (the 3.0 rendering) and runs
 * the journey by operationId, through Prism's validating proxy in front of the relay in front of the emulator.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prismViolations, RELAY_KEY, startStack, type Stack } from './support/stack.ts';

interface Step { step: string; status: number; type: string; body: Record<string, unknown> | null; bytes: number }

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ prism: true });
}, 180_000);
afterAll(async () => stack?.stop());

describe('a Perl client driven by the relay document (OpenAPI::Client)', () => {
  it('runs the partner journey by operationId through Prism without a violation', async () => {
    const script = join(import.meta.dirname, 'perl', 'journey.pl');
    const { stdout, stderr } = await promisify(execFile)('perl', [script, stack.documents['3.0'], stack.origin, RELAY_KEY, 'openapi-perl@example.com'], { timeout: 60_000 });
    const steps = stdout.trim().split('\n').map((line) => JSON.parse(line) as Step);
    const by = (name: string) => steps.find((s) => s.step === name)!;
    expect(steps.map((s) => `${s.step} ${s.status}`), stderr).toEqual([
      'listOrganizations 200', 'registerUser 201', 'mintLearnerToken 201', 'getMe 200', 'listCourses 200', 'getCourse 200',
      'getModuleContent 200', 'completeModule 202', 'listTranscripts 200', 'getTranscriptPdf 200',
    ]);
    expect(by('getMe').body?.['email']).toBe('openapi-perl@example.com');
    expect(String(by('getModuleContent').body?.['content_url'])).toMatch(/^http/);
    expect((by('listTranscripts').body?.['hydra:member'] as unknown[]).length).toBeGreaterThan(0);
    expect(by('getTranscriptPdf').type).toMatch(/^application\/pdf/);
    expect(by('getTranscriptPdf').bytes).toBeGreaterThan(500);
    expect(prismViolations(stack.prismLines)).toEqual([]);
  }, 120_000);
});
