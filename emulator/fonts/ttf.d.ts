/** A TrueType font imported with `with { type: 'bytes' }` (see bundled.ts). */
declare module '*.ttf' {
  const bytes: Uint8Array;
  export default bytes;
}
