import { defineConfig, type Options } from 'tsup';

// partner-learning-client: ESM and CommonJS, each with its own declarations (index.d.ts / index.d.cts), so
// neither kind of user gets the other's typings. keepNames: error classes keep their own names (`NetworkError`,
// not the bundler's `NetworkError2`).
const common: Options = {
  entry: { index: 'index.ts' },
  dts: true,
  sourcemap: true,
  keepNames: true,
  target: 'es2022',
  platform: 'neutral',
  tsconfig: '../tsconfig.json',
};

export default defineConfig([
  // ESM: ky, jose and zod stay external, real dependencies shared with the user's own copies.
  { ...common, format: ['esm'], clean: true },
  // CommonJS: ky and jose publish ESM only, and `require()` of an ES module hands back its namespace, which the
  // bundler's interop then wraps once more (`ky.default.create is not a function`). So the CommonJS build carries its
  // own ky and jose (only `decodeJwt` of it is reachable); zod ships CommonJS and stays external.
  { ...common, format: ['cjs'], noExternal: ['ky', 'jose'] },
]);
