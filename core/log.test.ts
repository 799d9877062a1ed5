import { describe, it, expect } from 'vitest';
import { createLog } from './log.ts';
import { createRedactor, REDACTED, type Redactor } from './redact.ts';
import type { LogLevel } from './types/options.ts';

const secret = 'the-client-secret-0123456789abcdef';

function counting(redactor: Redactor): { redactor: Redactor; calls: () => number } {
  let calls = 0;
  return {
    redactor: {
      ...redactor,
      text: (value) => { calls += 1; return redactor.text(value); },
      value: (value) => { calls += 1; return redactor.value(value); },
    },
    calls: () => calls,
  };
}

describe('createLog', () => {
  it('passes every level on by default, redacted', () => {
    const lines: [LogLevel, string, unknown][] = [];
    const log = createLog((level, message, fields) => lines.push([level, message, fields]), createRedactor([secret]));
    log.debug(`sent ${secret}`, { key: secret });
    log.error('failed');
    expect(lines).toEqual([['debug', `sent ${REDACTED}`, { key: REDACTED }], ['error', 'failed', undefined]]);
  });

  it('drops lines below the minimum before redacting them', () => {
    const lines: LogLevel[] = [];
    const spy = counting(createRedactor([secret]));
    const log = createLog((level) => lines.push(level), spy.redactor, 'warn');
    log.debug('request', { url: `https://x.example/${secret}` });
    log.info('token');
    expect(spy.calls()).toBe(0);
    log.warn('retrying');
    log.error('failed');
    expect(lines).toEqual(['warn', 'error']);
    expect(spy.calls()).toBeGreaterThan(0);
  });

  it('keeps a request going when the logger throws', () => {
    const log = createLog(() => { throw new Error('broken logger'); }, createRedactor([]));
    expect(() => log.error('failed')).not.toThrow();
  });
});
