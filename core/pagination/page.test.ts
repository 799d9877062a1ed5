import { describe, it, expect } from 'vitest';
import { ApplicationError } from '../errors/index.ts';
import { hydraPage } from '../../test/support/fake-transport.ts';
import { parsePage } from './page.ts';

const context = { method: 'GET', url: 'https://api.example.test/v1/courses' };

describe('parsePage', () => {
  it('reads the hydra: prefixed envelope', () => {
    const page = parsePage(hydraPage([{ id: 1 }], '/v1/courses?page=2'), context);
    expect(page).toEqual({ items: [{ id: 1 }], totalItems: 999, next: '/v1/courses?page=2' });
  });

  it('reads the unprefixed envelope of API Platform 4', () => {
    const page = parsePage(hydraPage([{ id: 2 }], '/v1/courses?page=3', false), context);
    expect(page).toEqual({ items: [{ id: 2 }], totalItems: 999, next: '/v1/courses?page=3' });
  });

  it('has no next link on the last page', () => {
    expect(parsePage(hydraPage([{ id: 1 }]), context).next).toBeUndefined();
  });

  it('treats a plain array as one page', () => {
    expect(parsePage([{ id: 1 }, { id: 2 }], context)).toEqual({ items: [{ id: 1 }, { id: 2 }] });
  });

  it.each([null, 'text', { message: 'hello' }])('refuses %s with an ApplicationError', (data) => {
    expect(() => parsePage(data, context)).toThrow(ApplicationError);
  });
});
