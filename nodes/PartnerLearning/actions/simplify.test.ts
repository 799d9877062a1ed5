import { describe, expect, it } from 'vitest';
import { simplifyItems, withoutJsonLd } from './simplify.ts';

describe('Simplify Output', () => {
  it('drops @context, @id and @type at any depth and keeps every other field as sent', () => {
    const record = {
      '@context': '/contexts/Course', '@id': '/courses/7', '@type': 'Course', id: 7, title: 'Safety',
      modules: [{ '@id': '/modules/1', '@type': 'Module', id: 1, created_at: '2026-01-01' }], tags: ['a'], note: null,
    };
    expect(withoutJsonLd(record)).toEqual({ id: 7, title: 'Safety', modules: [{ id: 1, created_at: '2026-01-01' }], tags: ['a'], note: null });
  });

  it('leaves binary data and pairing alone', () => {
    const binary = { data: { data: 'JVBERi0=', mimeType: 'application/pdf' } };
    const [out] = simplifyItems([{ json: { '@id': '/x', fileName: 'a.pdf' }, binary, pairedItem: { item: 2 } }]);
    expect(out).toEqual({ json: { fileName: 'a.pdf' }, binary, pairedItem: { item: 2 } });
  });
});
