import { describe, expect, it } from 'vitest';
import { decideFault, MAX_PATH_PATTERN_LENGTH, parseFaults, specPath } from './faults.ts';
import type { FaultState } from './faults.ts';

const state = (body: Record<string, unknown>): FaultState => {
  const parsed = parseFaults(body, 1);
  if (typeof parsed === 'string') throw new Error(parsed);
  return parsed;
};

describe('faults', () => {
  it('strips the environment and version prefix for the spec path', () => {
    expect(specPath('/sandbox/v1/courses')).toBe('/courses');
    expect(specPath('/production/v1/modules/1/content')).toBe('/modules/1/content');
    expect(specPath('/sandbox/oauth2/token')).toBe('/oauth2/token');
    expect(specPath('/sandbox/v1')).toBe('/');
  });

  it('matches an anchored pattern against the full path or the spec path', () => {
    const relative = state({ rate: 1, pathPattern: '^/courses$' });
    expect(decideFault(relative, '/sandbox/v1/courses')?.status).toBe(500);
    expect(decideFault(relative, '/sandbox/v1/courses/1')).toBeNull();
    const full = state({ rate: 1, pathPattern: '^/production/oauth2/token$' });
    expect(decideFault(full, '/production/oauth2/token')?.status).toBe(500);
    expect(decideFault(full, '/sandbox/oauth2/token')).toBeNull();
  });

  it('never touches the control interface or content URLs', () => {
    const all = state({ rate: 1 });
    expect(decideFault(all, '/_emulator/partners')).toBeNull();
    expect(decideFault(all, '/sandbox/content/1')).toBeNull();
  });
});

describe('fault path patterns that could stall the emulator', () => {
  it.each(['^/(a+)+$', '(x*)*y', '^/((courses)+)*$', '(.*a){1,30}'])('refuses %s with a message naming the nesting', (pathPattern) => {
    expect(parseFaults({ rate: 1, pathPattern }, 1)).toMatch(/nested repetition|at most/);
  });

  it('refuses a pattern longer than the limit, and keeps ordinary ones', () => {
    expect(parseFaults({ rate: 1, pathPattern: `^/${'c'.repeat(MAX_PATH_PATTERN_LENGTH)}$` }, 1)).toMatch(/at most 200 characters/);
    expect(typeof parseFaults({ rate: 1, pathPattern: '^/modules/\\d+/(content|refresh-url)$' }, 1)).toBe('object');
    expect(parseFaults({ rate: 1, pathPattern: '(' }, 1)).toBe('pathPattern is not a valid regular expression');
  });
});
