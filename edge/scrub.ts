/**
 * The relay treats everything from upstream as untrusted (relay contract, "Errors"): a service that echoes what it
 * received could put the API key, the Basic credential or the upstream bearer token into a successful body. Every
 * string of a JSON answer is scrubbed of the relay's secrets, in every spelling the core knows (as is,
 * percent-encoded, form-encoded, reversed), before it is sent. Only exact secrets are replaced: generic patterns
 * (anything shaped like a JWT) would also break legitimate values such as signed content URLs.
 */
import { REDACTED, secretSpellings } from '../core/protocol.ts';

/** Replaces known secrets in an answer. */
export interface Scrubber {
  /** @returns The text without any known secret. */
  text(value: string): string;
  /**
   * @param value A parsed JSON value.
   * @param map Applied to each string value before it is scrubbed (the relay's link rewriting), so an answer is
   *   copied once.
   * @returns A deep copy with every string (keys too) scrubbed.
   */
  json(value: unknown, map?: (text: string) => string): unknown;
}

/**
 * @param fixed The relay's configured secrets.
 * @param current The secrets that change (the upstream access tokens the token store holds).
 * @returns The scrubber; it reads `current()` on every answer.
 */
export function createScrubber(fixed: readonly string[], current: () => readonly string[]): Scrubber {
  const fixedForms = fixed.filter((s) => s.length >= 8).flatMap(secretSpellings);
  // Recomputed only when the upstream tokens change (once a token lifetime), not on every answer: the profile of the
  // relay under load showed the spellings' computation as its largest single cost.
  let cachedFor: readonly string[] = [];
  let cached = [...fixedForms].sort((a, b) => b.length - a.length);
  const forms = (): string[] => {
    const tokens = current();
    if (tokens.length !== cachedFor.length || tokens.some((t, i) => t !== cachedFor[i])) {
      cachedFor = [...tokens];
      cached = [...fixedForms, ...tokens.filter((s) => s.length >= 8).flatMap(secretSpellings)].sort((a, b) => b.length - a.length);
    }
    return cached;
  };
  const scrubText = (value: string, all: string[]): string => {
    let out = value;
    for (const form of all) if (out.includes(form)) out = out.split(form).join(REDACTED);
    return out;
  };
  const walk = (value: unknown, all: string[], map: (text: string) => string): unknown => {
    if (typeof value === 'string') return scrubText(map(value), all);
    if (Array.isArray(value)) return value.map((item) => walk(item, all, map));
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, inner] of Object.entries(value)) out[scrubText(key, all)] = walk(inner, all, map);
      return out;
    }
    return value;
  };
  const same = (text: string): string => text;
  return { text: (value) => scrubText(value, forms()), json: (value, map = same) => walk(value, forms(), map) };
}
