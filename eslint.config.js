import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { builtinModules } from 'node:module';

export default tseslint.config(
  { ignores: ['**/dist/', 'node_modules/', '.tools/', 'coverage/', '.wrangler/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Type-aware checks where a mistake is silent at run time: a floating promise is cancelled when a Worker's
    // request ends, a promise passed where a callback returns void swallows its rejection, and a switch over a union
    // that misses a member falls through unnoticed.
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  {
    // The core runs on Node, workerd and Deno: Web standards only. No node: modules, no process, no Buffer.
    // The emulator's app and the relay run in workerd too; only their Node entries and tests may use Node.
    files: ['core/**/*.ts', 'emulator/**/*.ts', 'edge/**/*.ts'],
    ignores: ['**/*.test.ts', '**/tsup.config.ts', 'emulator/cli.ts', 'emulator/server.ts', 'emulator/test-support.ts', 'edge/node.ts', 'edge/deno.ts'],
    languageOptions: { globals: { ...globals['shared-node-browser'] } },
    rules: {
      // Exact names for Node's bare built-ins: a pattern such as 'http' would also match our own `../http/` folder.
      'no-restricted-imports': ['error', {
        // Every Node built-in by its exact bare name (node: ones are caught by the pattern below).
        paths: builtinModules.filter((name) => !name.startsWith('_') && !name.includes(':'))
          .map((name) => ({ name, message: 'this code must use Web standards only (it runs in workerd and Deno).' })),
        patterns: [{ group: ['node:*'], message: 'this code must use Web standards only (it runs in workerd and Deno).' }],
      }],
      'no-restricted-globals': ['error',
        { name: 'process', message: 'this code must not use process (workerd, Deno).' },
        { name: 'Buffer', message: 'this code must not use Buffer; use Uint8Array/TextEncoder.' },
        { name: 'Deno', message: 'this code must not use Deno globals.' },
        { name: '__dirname', message: 'this code must be runtime-agnostic.' },
        { name: 'require', message: 'this code is ESM.' },
      ],
    },
  },
);
