import { defineConfig } from 'tsup';

// ky, zod, jose and p-throttle are bundled (noExternal) so the published package has no runtime dependencies,
// as n8n community packages must not.
export default defineConfig([
  {
    entry: { 'core/index': 'core/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'es2022',
    platform: 'neutral',
    noExternal: [/.*/],
  },
  {
    entry: { 'emulator/index': 'emulator/index.ts' },
    format: ['esm'],
    dts: true,
    sourcemap: true,
    target: 'es2022',
    platform: 'neutral',
    noExternal: [/.*/],
  },
]);
