import { describe, expect, it } from 'vitest';
import { identifyCaller, RelayKeyRing } from './caller.ts';
import { mintLearnerToken } from './learner-token.ts';

const KEYS = ['first-relay-key-0123456789abcdefghijklmnop', 'second-relay-key-0123456789abcdefghijklmno'];
const SECRET = new TextEncoder().encode('learner-secret-0123456789abcdefghijklmnop');
const UUID = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';

describe('RelayKeyRing', () => {
  it('accepts each configured key exactly, nothing else', async () => {
    const ring = new RelayKeyRing(KEYS);
    for (const key of KEYS) expect(await ring.matches(key)).toBe(true);
    for (const key of ['', KEYS[0]!.slice(0, -1), `${KEYS[0]}x`, KEYS[1]!.toUpperCase()]) expect(await ring.matches(key)).toBe(false);
  });
});

describe('identifyCaller', () => {
  const ring = new RelayKeyRing(KEYS);
  const now = Date.UTC(2026, 10, 23);

  it('a relay key makes a backend; a valid learner token a learner; a relay key wins over a token', async () => {
    const { token } = await mintLearnerToken(SECRET, UUID, 900, now);
    expect(await identifyCaller(new Headers({ 'x-relay-key': KEYS[1]! }), ring, SECRET, now)).toEqual({ kind: 'backend' });
    expect(await identifyCaller(new Headers({ authorization: `Bearer ${token}` }), ring, SECRET, now)).toEqual({ kind: 'learner', userId: UUID });
    expect(await identifyCaller(new Headers({ authorization: `bearer ${token}` }), ring, SECRET, now)).toEqual({ kind: 'learner', userId: UUID });
  });

  it('no credential or another scheme is unauthenticated; a bad or expired token is invalid_token', async () => {
    const { token } = await mintLearnerToken(SECRET, UUID, 60, now);
    expect(await identifyCaller(new Headers(), ring, SECRET, now)).toEqual({ failure: 'unauthenticated' });
    expect(await identifyCaller(new Headers({ authorization: 'Basic YTpi' }), ring, SECRET, now)).toEqual({ failure: 'unauthenticated' });
    expect(await identifyCaller(new Headers({ 'x-relay-key': 'nope' }), ring, SECRET, now)).toEqual({ failure: 'unauthenticated' });
    expect(await identifyCaller(new Headers({ authorization: `Bearer ${token}` }), ring, SECRET, now + 91_000)).toEqual({ failure: 'invalid_token' });
    expect(await identifyCaller(new Headers({ authorization: `Bearer ${token}` }), ring, SECRET, now + 89_000)).toMatchObject({ kind: 'learner' });
  });
});
