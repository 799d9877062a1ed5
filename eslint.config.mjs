import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { builtinModules } from 'node:module';
import { loadN8nLintPlugins } from './scripts/n8n-lint-plugins.mjs';

const { communityNodes: n8nCommunityNodesPlugin, nodesBase: n8nNodesBase } = await loadN8nLintPlugins();

// n8n's verification rule sets (what `n8n-node lint` and the scanner apply), scoped to the n8n package's files:
// `n8n-node lint --strict` would lint every .ts file of the repository with its own fixed config.
const n8nSources = ['nodes/**/*.ts', 'credentials/**/*.ts'];
const n8nTests = ['nodes/**/*.test.ts', 'credentials/**/*.test.ts'];
const n8nConfigs = [
  ...[n8nCommunityNodesPlugin.configs.recommended].flat().map((config) => ({ ...config, files: n8nSources, ignores: n8nTests })),
  { files: n8nSources, ignores: n8nTests, rules: { 'no-console': 'error' } },
  { plugins: { 'n8n-nodes-base': n8nNodesBase } },
  {
    files: ['credentials/**/*.ts'],
    ignores: n8nTests,
    rules: {
      ...n8nNodesBase.configs.credentials.rules,
      // Switched off exactly as the scanner does (not valid for community nodes / a more accurate rule exists).
      'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
      'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
    },
  },
  {
    files: ['nodes/**/*.ts'],
    ignores: n8nTests,
    rules: {
      ...n8nNodesBase.configs.nodes.rules,
      // Switched off exactly as the scanner does (enum inputs/outputs, service-side maximums).
      'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
      'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
      'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
    },
  },
  {
    files: ['package.json'],
    languageOptions: { parser: tseslint.parser },
    plugins: { '@n8n/community-nodes': n8nCommunityNodesPlugin },
    rules: {
      ...n8nNodesBase.configs.community.rules,
      ...[n8nCommunityNodesPlugin.configs.recommended].flat().reduce((all, config) => ({ ...all, ...(config.rules ?? {}) }), {}),
      '@typescript-eslint/no-unused-expressions': 'off',
    },
  },
];

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
  ...n8nConfigs,
);
