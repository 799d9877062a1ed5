import { defineConfig } from 'tsup';

// partner-learning-emulator: ESM for Node (the CLI and startEmulatorServer) and for workerd/Deno (the in-process
// app in index.js, which imports nothing from node:). Dependencies stay external.
export default defineConfig({
  entry: { index: 'index.ts', server: 'server.ts', cli: 'cli.ts' },
  format: ['esm'],
  dts: { entry: { index: 'index.ts', server: 'server.ts' } },
  sourcemap: true,
  clean: true,
  keepNames: true,
  target: 'es2022',
  platform: 'node',
  tsconfig: '../tsconfig.json',
});
