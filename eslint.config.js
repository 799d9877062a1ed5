import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

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
    // The core runs on Node, workerd and Deno: Web standards only. No node: modules, no process, no Buffer.
    files: ['core/**/*.ts'],
    ignores: ['core/**/*.test.ts'],
    languageOptions: { globals: { ...globals['shared-node-browser'] } },
    rules: {
      // Exact names for Node's bare built-ins: a pattern such as 'http' would also match our own `../http/` folder.
      'no-restricted-imports': ['error', {
        paths: ['fs', 'path', 'http', 'https', 'crypto', 'buffer', 'stream', 'os', 'util', 'events', 'child_process', 'net', 'tls', 'url', 'zlib']
          .map((name) => ({ name, message: 'core/ must use Web standards only (it runs in workerd and Deno).' })),
        patterns: [{ group: ['node:*'], message: 'core/ must use Web standards only (it runs in workerd and Deno).' }],
      }],
      'no-restricted-globals': ['error',
        { name: 'process', message: 'core/ must not use process (workerd, Deno).' },
        { name: 'Buffer', message: 'core/ must not use Buffer; use Uint8Array/TextEncoder.' },
        { name: 'Deno', message: 'core/ must not use Deno globals.' },
        { name: '__dirname', message: 'core/ must be runtime-agnostic.' },
        { name: 'require', message: 'core/ is ESM.' },
      ],
    },
  },
);
