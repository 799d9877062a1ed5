/** A small deterministic pseudo-random generator, so seed data and credentials repeat for a given seed. */
export interface Prng {
  /** @returns a float in [0, 1). */
  next(): number;
  /** @returns an integer in [min, max] (inclusive). */
  int(min: number, max: number): number;
  /** @returns `length` characters drawn from `alphabet`. */
  string(length: number, alphabet: string): string;
  /** @returns a version 4 UUID (lowercase, 36 characters). */
  uuid(): string;
}

/** Lowercase letters and digits (Cognito-style client ids). */
export const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** Mixed-case letters and digits (API keys, secrets). */
export const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ' + LOWER_ALNUM;

/**
 * Creates a mulberry32 generator.
 * @param seed any integer; equal seeds give equal sequences.
 * @returns the generator.
 * @example createPrng(1).uuid() // always the same value
 */
export function createPrng(seed: number): Prng {
  let state = (seed | 0) ^ 0x9e3779b9;
  const next = (): number => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    string(length, alphabet) {
      let out = '';
      for (let i = 0; i < length; i++) out += alphabet[Math.floor(next() * alphabet.length)];
      return out;
    },
    uuid() {
      const bytes = Array.from({ length: 16 }, () => int(0, 255));
      bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
      bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
      const hex = bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    },
  };
}

/**
 * Derives a seed for a named sub-sequence, so adding data in one place does not shift another.
 * @param seed the emulator seed.
 * @param label a stable name for the sub-sequence.
 * @returns a 32-bit integer seed.
 */
export function deriveSeed(seed: number, label: string): number {
  let h = (seed | 0) ^ 0x811c9dc5;
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193);
  return h | 0;
}
