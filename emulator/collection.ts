import { contextIri } from './api-docs.ts';
import { hydraError, jsonLd } from './hydra.ts';
import type { EnvName } from './types.ts';

/** How a collection's items can be filtered and ordered. */
export interface CollectionSpec<T> {
  /** JSON-LD type of the items, e.g. `Course` (gives `@context: /{env}/v1/contexts/Course`). */
  type: string;
  /** The environment, for the `@context` IRI. */
  env: EnvName;
  /** `updatedAt` of an item, epoch ms; omit for collections without date filters. */
  updatedAt?: (item: T) => number;
  id: (item: T) => number;
  serialize: (item: T) => object;
}

const DEFAULT_PER_PAGE = 30;
const MAX_PER_PAGE = 100;
const OPERATORS = ['after', 'strictly_after', 'before', 'strictly_before'] as const;
type Operator = (typeof OPERATORS)[number];
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * Parses an ISO 8601 date; a value without offset is taken as UTC (the service's time zone).
 * @returns epoch ms, or null when the value is not ISO 8601.
 */
export function parseIsoDate(value: string): number | null {
  // An unencoded `+` in a query string arrives as a space (form decoding), so `...T10:00:00+01:00` written
  // straight into a URL reads `...T10:00:00 01:00`; take that space back as the `+` it was.
  const restored = value.replace(/(T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?) (\d{2}:?\d{2})$/i, '$1+$2');
  if (!ISO_8601.test(restored)) return null;
  let text = restored.replace(' ', 'T');
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) text += 'T00:00:00Z';
  else if (!/(Z|[+-]\d{2}:?\d{2})$/i.test(text)) text += 'Z';
  // Sub-millisecond digits are cut: the emulator's timestamps have milliseconds.
  text = text.replace(/(\.\d{3})\d+/, '$1');
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * Answers a collection request API Platform style: `page` (1-based), `itemsPerPage` (default 30, clamped to 100),
 * `updatedAt[after|strictly_after|before|strictly_before]`, `order[id|updatedAt]=asc|desc`, the contract's Hydra
 * envelope (first, last, next when there is one) whose links are origin-relative paths keeping the other query parameters.
 * @param url the request URL.
 * @param items every item visible to the caller.
 * @param spec how to filter, order and serialize.
 * @returns 200 hydra:Collection, or 400 hydra:Error for a bad page, page size or date.
 */
export function collectionResponse<T>(url: URL, items: readonly T[], spec: CollectionSpec<T>): Response {
  const params = url.searchParams;
  const page = parsePositiveInt(params.get('page'), 1);
  if (page === null) return hydraError(400, 'Page should not be less than 1 and must be an integer.');
  const perPageRaw = parsePositiveInt(params.get('itemsPerPage'), DEFAULT_PER_PAGE);
  if (perPageRaw === null) return hydraError(400, 'itemsPerPage must be an integer greater than 0.');
  const perPage = Math.min(perPageRaw, MAX_PER_PAGE);

  let selected: readonly T[] = items;
  if (spec.updatedAt) {
    const updatedAt = spec.updatedAt;
    for (const op of OPERATORS) {
      const raw = params.get(`updatedAt[${op}]`);
      if (raw === null) continue;
      const bound = parseIsoDate(raw);
      if (bound === null) return hydraError(400, `The filter "updatedAt[${op}]" must be an ISO 8601 date, got "${raw}".`);
      selected = selected.filter((item) => matches(op, updatedAt(item), bound));
    }
  }
  selected = ordered(selected, params, spec);

  const total = selected.length;
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const member = selected.slice((page - 1) * perPage, page * perPage).map(spec.serialize);
  const link = (n: number) => pageLink(url, n);
  const view: Record<string, unknown> = {
    '@id': link(page),
    '@type': 'hydra:PartialCollectionView',
    'hydra:first': link(1),
    'hydra:last': link(lastPage),
  };
  // The view carries exactly the keys the emulator contract lists (no hydra:previous), so a client cannot come
  // to depend on a link the contract does not promise.
  if (page < lastPage) view['hydra:next'] = link(page + 1);
  return jsonLd({
    '@context': contextIri(spec.env, spec.type),
    '@id': url.pathname,
    '@type': 'hydra:Collection',
    'hydra:member': member,
    'hydra:totalItems': total,
    'hydra:view': view,
  });
}

function parsePositiveInt(raw: string | null, fallback: number): number | null {
  if (raw === null) return fallback;
  if (!/^\d+$/.test(raw)) return null;
  const n = Number(raw);
  return n >= 1 && Number.isSafeInteger(n) ? n : null;
}

function matches(op: Operator, value: number, bound: number): boolean {
  switch (op) {
    case 'after':
      return value >= bound;
    case 'strictly_after':
      return value > bound;
    case 'before':
      return value <= bound;
    case 'strictly_before':
      return value < bound;
  }
}

function ordered<T>(items: readonly T[], params: URLSearchParams, spec: CollectionSpec<T>): readonly T[] {
  const keys: { get: (item: T) => number; dir: number }[] = [];
  for (const [name, value] of params) {
    const m = /^order\[(id|updatedAt)\]$/.exec(name);
    const dir = value.toLowerCase() === 'desc' ? -1 : value.toLowerCase() === 'asc' ? 1 : 0;
    if (!m || dir === 0) continue;
    if (m[1] === 'id') keys.push({ get: spec.id, dir });
    else if (spec.updatedAt) keys.push({ get: spec.updatedAt, dir });
  }
  // Items arrive in id order already; sorting only when asked keeps 100,000-record collections cheap.
  if (keys.length === 0) return items;
  keys.push({ get: spec.id, dir: 1 });
  return [...items].sort((a, b) => {
    for (const key of keys) {
      const d = key.get(a) - key.get(b);
      if (d !== 0) return d * key.dir;
    }
    return 0;
  });
}

function pageLink(url: URL, page: number): string {
  const params = new URLSearchParams(url.searchParams);
  params.set('page', String(page));
  return `${url.pathname}?${params.toString().replace(/%5B/gi, '[').replace(/%5D/gi, ']')}`;
}
