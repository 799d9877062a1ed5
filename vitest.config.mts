import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The workspace packages resolve to their source, as in tsconfig.json's paths: tests need no build first.
const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^partner-learning-client$/, replacement: source('./core/index.ts') },
      { find: /^partner-learning-emulator$/, replacement: source('./emulator/index.ts') },
      { find: /^partner-learning-emulator\/server$/, replacement: source('./emulator/server.ts') },
    ],
  },
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['core/**/*.test.ts', 'emulator/**/*.test.ts', 'edge/**/*.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'contract', include: ['test/contract/**/*.test.ts'], testTimeout: 60_000 },
      },
      {
        extends: true,
        test: { name: 'runtime', include: ['test/runtime/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 120_000 },
      },
      {
        extends: true,
        test: {
          name: 'n8n',
          include: ['nodes/**/*.test.ts', 'credentials/**/*.test.ts', 'test/n8n/**/*.test.ts'],
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: { name: 'openapi', include: ['test/openapi/**/*.test.ts'], testTimeout: 60_000 },
      },
      {
        extends: true,
        test: { name: 'relay', include: ['test/relay/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 120_000 },
      },
      {
        extends: true,
        test: { name: 'browser', include: ['test/browser/**/*.test.ts'], testTimeout: 180_000, hookTimeout: 180_000 },
      },
    ],
  },
});
