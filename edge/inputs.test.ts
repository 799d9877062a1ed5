import { describe, expect, it } from 'vitest';
import { listQuerySchemas, pathParamSchemas, wholeUpTo } from './inputs.ts';

describe('relay input schemas', () => {
  it('wholeUpTo matches exactly the whole numbers 1 to max, written plainly', () => {
    for (const max of [1, 9, 10, 30, 99, 100, 250, 1000]) {
      const pattern = new RegExp(wholeUpTo(max));
      for (let n = 0; n <= max + 20; n++) expect(pattern.test(String(n)), `${n} against ${max}`).toBe(n >= 1 && n <= max);
      for (const text of ['01', '+1', '1.0', ' 1', '1e1', '']) expect(pattern.test(text), text).toBe(false);
    }
  });

  it('path ids are safe integers the core accepts', () => {
    expect(pathParamSchemas.id.safeParse('999999999999999').success).toBe(true);
    expect(Number.isSafeInteger(Number('999999999999999'))).toBe(true);
    expect(pathParamSchemas.id.safeParse('9999999999999999').success).toBe(false);
    expect(listQuerySchemas['itemsPerPage']!.safeParse('101').success).toBe(false);
  });
});
