import { describe, it, expect } from 'vitest';
import * as entry from './index.ts';

describe('the package entry', () => {
  it('exports what users call, and not the error factory, the transport or the zod schemas', () => {
    expect(Object.keys(entry).sort()).toEqual(
      [
        'ApiKeyError',
        'ApplicationError',
        'AuthenticationError',
        'ConfigurationError',
        'ConflictError',
        'DeadlineError',
        'ErrorCode',
        'InactiveLearnerError',
        'InvalidResponseError',
        'MemoryTokenStore',
        'MissingScopeError',
        'NetworkError',
        'NotFoundError',
        'PartnerLearningError',
        'QuotaExceededError',
        'RedirectError',
        'ServerError',
        'ThrottledError',
        'TimeoutError',
        'TokenEndpointError',
        'ValidationError',
        'createClient',
        'createLimiter',
        'createLimiterHost',
        'createSharedLimiter',
        'fileNameFromDisposition',
        'isPartnerLearningError',
      ].sort(),
    );
  });
});
