import { describe, expect, it } from 'vitest';
import { linkRewriter } from './links.ts';
import { createScrubber } from './scrub.ts';

describe('linkRewriter', () => {
  const rewrite = linkRewriter('https://api.example/sandbox/v1', 'https://relay.example/v1');

  it('points Hydra links and references under the base path at the relay, leaving everything else', () => {
    const page = {
      '@context': '/contexts/Course',
      '@id': '/sandbox/v1/courses',
      'hydra:member': [{ '@id': '/sandbox/v1/courses/1', category: 'https://api.example/sandbox/v1/categories/2', title: '/sandbox/v10' }],
      'hydra:view': { 'hydra:next': '/sandbox/v1/courses?itemsPerPage=2&page=2' },
      content_url: 'https://api.example/sandbox/content/1?sig=x',
      other: 'https://evil.example/sandbox/v1/courses',
      root: '/sandbox/v1',
    };
    // As the relay applies it: in the scrubber's one copy of the body.
    expect(createScrubber([], () => []).json(page, rewrite)).toEqual({
      '@context': '/contexts/Course',
      '@id': 'https://relay.example/v1/courses',
      'hydra:member': [{ '@id': 'https://relay.example/v1/courses/1', category: 'https://relay.example/v1/categories/2', title: '/sandbox/v10' }],
      'hydra:view': { 'hydra:next': 'https://relay.example/v1/courses?itemsPerPage=2&page=2' },
      content_url: 'https://api.example/sandbox/content/1?sig=x',
      other: 'https://evil.example/sandbox/v1/courses',
      root: 'https://relay.example/v1',
    });
  });

  it('rewrites before scrubbing: a secret in a link is still removed', () => {
    const secret = 'a-relay-secret-0123456789';
    const scrubbed = createScrubber([secret], () => []).json({ '@id': `/sandbox/v1/users?k=${secret}` }, rewrite);
    expect(scrubbed).toEqual({ '@id': 'https://relay.example/v1/users?k=[REDACTED]' });
  });
});
