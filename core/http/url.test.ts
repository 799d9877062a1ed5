import { describe, it, expect } from 'vitest';
import { resolveRequestUrl } from './url.ts';
import { ApplicationError, ConfigurationError } from '../errors/index.ts';

const base = 'https://api.example.com/sandbox/v1';

describe('resolveRequestUrl', () => {
  it('joins base and path without a double slash and adds the query', () => {
    expect(resolveRequestUrl(base, { method: 'GET', path: '/courses', query: { page: 2, 'updatedAt[after]': '2026-01-01T00:00:00Z', x: undefined } }))
      .toBe('https://api.example.com/sandbox/v1/courses?page=2&updatedAt%5Bafter%5D=2026-01-01T00%3A00%3A00Z');
  });

  it('resolves an origin-relative or absolute next link under the base URL', () => {
    expect(resolveRequestUrl(base, { method: 'GET', link: '/sandbox/v1/courses?page=3' })).toBe(`${base}/courses?page=3`);
    expect(resolveRequestUrl(base, { method: 'GET', link: `${base}/courses?page=3` })).toBe(`${base}/courses?page=3`);
  });

  it.each([
    'https://evil.example.net/sandbox/v1/courses',
    '//evil.example.net/sandbox/v1/courses',
    'http://api.example.com/sandbox/v1/courses',
    '/production/v1/courses',
    '/sandbox/v1/../../admin',
    '/sandbox/v10/courses',
  ])('refuses the link %s', (link) => {
    expect(() => resolveRequestUrl(base, { method: 'GET', link })).toThrow(ApplicationError);
  });

  it('refuses a path that escapes the base or is malformed', () => {
    expect(() => resolveRequestUrl(base, { method: 'GET', path: '/../../admin' })).toThrow(ConfigurationError);
    expect(() => resolveRequestUrl(base, { method: 'GET', path: 'courses' })).toThrow(ConfigurationError);
    expect(() => resolveRequestUrl(base, { method: 'GET', path: '//evil.example.net/x' })).toThrow(ConfigurationError);
    expect(() => resolveRequestUrl(base, { method: 'GET' })).toThrow(ConfigurationError);
  });
});
