import { describe, it, expect } from 'vitest';
import { ValidationError } from '../errors/index.ts';
import {
  isoDateTimeSchema,
  pageSizeSchema,
  registerUserSchema,
  userPatchSchema,
  uuidSchema,
  watermarkSchema,
} from './schemas.ts';
import { checkAll, parseInput } from './validate.ts';

function failure(run: () => unknown): ValidationError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error('expected a ValidationError');
}

describe('uuidSchema', () => {
  it.each([
    '3f2504e0-4f89-41d3-9a0c-0305e82c3301',
    '00000000-0000-0000-0000-000000000000',
    'AAAAAAAA-BBBB-7CCC-8DDD-EEEEEEEEEEEE',
  ])('accepts %s (any version)', (value) => {
    expect(uuidSchema.safeParse(value).success).toBe(true);
  });

  it.each([
    '3f2504e04f8941d39a0c0305e82c3301',
    '3f2504e0-4f89-41d3-9a0c-0305e82c330',
    '3f2504e0-4f89-41d3-9a0c-0305e82c3301x',
    'g f2504e0-4f89-41d3-9a0c-0305e82c330',
    '../../users/3f2504e0-4f89-41d3-9a0c',
    42,
    undefined,
  ])('rejects %s', (value) => {
    expect(uuidSchema.safeParse(value).success).toBe(false);
  });
});

describe('parseInput', () => {
  it('throws a client ValidationError naming the property and the fix', () => {
    const error = failure(() => parseInput(uuidSchema, 'nope', 'userId'));
    expect(error.origin).toBe('client');
    expect(error.code).toBe('validation_failed');
    expect(error.violations).toHaveLength(1);
    expect(error.violations[0]!.propertyPath).toBe('userId');
    expect(error.violations[0]!.message).toMatch(/36-character UUID/);
    expect(error.message).toMatch(/no request was sent/);
  });

  it('returns the parsed value when valid', () => {
    expect(parseInput(pageSizeSchema, 100, 'pageSize')).toBe(100);
  });
});

describe('registerUserSchema', () => {
  const valid = { email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', organizationId: 3 };

  it('accepts the four required fields and optional writable fields', () => {
    expect(registerUserSchema.safeParse(valid).success).toBe(true);
    expect(registerUserSchema.safeParse({ ...valid, countryCode: 'GB', city: 'London', phone: '+44' }).success).toBe(
      true,
    );
  });

  it('reports every bad field at once with its path', () => {
    const error = failure(() =>
      parseInput(registerUserSchema, { email: 'nope', firstName: '  ', lastName: 'L', organizationId: 0 }, ''),
    );
    const paths = error.violations.map((v) => v.propertyPath).sort();
    expect(paths).toEqual(['email', 'firstName', 'organizationId']);
  });

  it.each([1.5, -1, '3'])('rejects organizationId %s', (organizationId) => {
    expect(registerUserSchema.safeParse({ ...valid, organizationId }).success).toBe(false);
  });

  it('rejects a missing last name and a lowercase country code', () => {
    const { lastName: _drop, ...rest } = valid;
    expect(registerUserSchema.safeParse(rest).success).toBe(false);
    expect(registerUserSchema.safeParse({ ...valid, countryCode: 'gb' }).success).toBe(false);
  });

  it('refuses read-only and unknown fields', () => {
    const error = failure(() => parseInput(registerUserSchema, { ...valid, uuid: 'x', nickname: 'A' }, ''));
    expect(error.violations).toEqual([
      { propertyPath: 'uuid', message: expect.stringMatching(/read-only/) },
      { propertyPath: 'nickname', message: expect.stringMatching(/not a writable profile field/) },
    ]);
  });
});

describe('userPatchSchema', () => {
  it('accepts a partial patch, null to clear an optional field, and a status', () => {
    expect(userPatchSchema.safeParse({ city: null }).success).toBe(true);
    expect(userPatchSchema.safeParse({ status: 'inactive', countryCode: 'DE' }).success).toBe(true);
  });

  it.each(['uuid', 'createdAt', 'updatedAt'])('tells that %s is read-only', (field) => {
    const error = failure(() => parseInput(userPatchSchema, { [field]: 'x', city: 'Paris' }, ''));
    expect(error.violations[0]).toEqual({ propertyPath: field, message: expect.stringMatching(/read-only/) });
  });

  it('refuses an empty patch', () => {
    const error = failure(() => parseInput(userPatchSchema, {}, ''));
    expect(error.violations[0]!.message).toMatch(/at least one/);
  });

  it('checks status, email and countryCode', () => {
    expect(userPatchSchema.safeParse({ status: 'deleted' }).success).toBe(false);
    expect(userPatchSchema.safeParse({ email: 'a@' }).success).toBe(false);
    expect(userPatchSchema.safeParse({ countryCode: 'DEU' }).success).toBe(false);
    expect(userPatchSchema.safeParse({ firstName: null }).success).toBe(false);
  });
});

describe('pageSize, updatedAfter, watermark', () => {
  it.each([[0, false], [1, true], [100, true], [101, false], [2.5, false]])('pageSize %s -> %s', (value, ok) => {
    expect(pageSizeSchema.safeParse(value).success).toBe(ok);
  });

  it.each([
    ['2025-01-31T00:00:00Z', true],
    ['2025-01-31T02:00:00.123+02:00', true],
    ['2025-01-31T00:00:00', false],
    ['yesterday', false],
  ])('updatedAfter %s -> %s', (value, ok) => {
    expect(isoDateTimeSchema.safeParse(value).success).toBe(ok);
  });

  it('accepts a persisted watermark and rejects a broken one', () => {
    expect(watermarkSchema.safeParse({ updatedAt: '2025-01-01T00:00:00+00:00', seenIds: ['1'] }).success).toBe(true);
    expect(watermarkSchema.safeParse({ updatedAt: 'soon', seenIds: [] }).success).toBe(false);
    expect(watermarkSchema.safeParse({ updatedAt: '2025-01-01T00:00:00Z', seenIds: [1] }).success).toBe(false);
  });
});

describe('checkAll', () => {
  it('collects the violations of every check', () => {
    const error = failure(() =>
      checkAll([
        [uuidSchema, 'x', 'userId'],
        [pageSizeSchema, 500, 'pageSize'],
        [pageSizeSchema, 5, 'ok'],
      ]),
    );
    expect(error.violations.map((v) => v.propertyPath)).toEqual(['userId', 'pageSize']);
  });

  it('does nothing when all pass', () => {
    expect(() => checkAll([[uuidSchema, '3f2504e0-4f89-41d3-9a0c-0305e82c3301', 'userId']])).not.toThrow();
  });
});
