import { describe, expect, it } from 'vitest';
import { CutTail } from './cut-tail.ts';

describe('CutTail', () => {
  it('counts the cut\'s calls in flight first, then the calls sent while their answers were due, then new ones', () => {
    const due = new CutTail();
    expect(due.answered()).toBe('new');
    due.cut(2);
    due.sent();
    due.sent();
    expect([due.answered(), due.answered(), due.answered(), due.answered(), due.answered()]).toEqual(['old', 'old', 'tail', 'tail', 'new']);
  });

  it('a call sent once the cut\'s answers are all in is no tail; a new cut starts the count again', () => {
    const due = new CutTail();
    due.cut(1);
    expect(due.answered()).toBe('old');
    due.sent();
    expect(due.answered()).toBe('new');
    due.cut(1);
    due.sent();
    due.cut(0);
    expect(due.answered()).toBe('new');
  });
});
