import { defineConfig } from 'tsup';

// partner-learning-client: ESM and CommonJS, each with its own declarations (index.d.ts / index.d.cts), so
// neither kind of user gets the other's typings. ky, zod and p-throttle are real dependencies, left external.
// keepNames: error classes keep their own names (`NetworkError`, not the bundler's `NetworkError2`).
export default defineConfig({
  entry: { index: 'index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  keepNames: true,
  target: 'es2022',
  platform: 'neutral',
  tsconfig: '../tsconfig.json',
});
