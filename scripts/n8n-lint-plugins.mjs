// n8n's lint plugins for eslint.config.mjs, loaded from the scanner install in the cache outside the clone (the same
// folder scripts/check-packages.mjs uses), installed there first when missing. They cannot be devDependencies:
// eslint-plugin-n8n-nodes-base's preinstall refuses npm (`only-allow pnpm`) and @n8n/eslint-plugin-community-nodes
// pins eslint 9.29.0 as a peer. Loading them from the scanner's own install also means the repository lint applies
// exactly the rule versions n8n's verification scanner applies.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const SCANNER_VERSION = '0.32.0';

/**
 * @returns {Promise<{ communityNodes: any, nodesBase: any }>} `@n8n/eslint-plugin-community-nodes`'s plugin and
 *   `eslint-plugin-n8n-nodes-base`, as the scanner loads them.
 */
export async function loadN8nLintPlugins() {
  const cache = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'partner-learning');
  const dir = join(cache, `n8n-scanner-${SCANNER_VERSION}`);
  const scanner = join(dir, 'node_modules/@n8n/scan-community-package/package.json');
  if (!existsSync(scanner)) {
    mkdirSync(dir, { recursive: true });
    if (!existsSync(join(dir, 'package.json'))) writeFileSync(join(dir, 'package.json'), '{"private":true}\n');
    process.stderr.write(`n8n-lint-plugins: installing @n8n/scan-community-package@${SCANNER_VERSION} into ${dir}\n`);
    execFileSync('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error',
      `@n8n/scan-community-package@${SCANNER_VERSION}`], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  // Resolved as the scanner resolves them: from its own package.
  const require = createRequire(scanner);
  const load = async (name) => import(pathToFileURL(require.resolve(name)).href);
  const community = await load('@n8n/eslint-plugin-community-nodes');
  const nodesBase = await load('eslint-plugin-n8n-nodes-base');
  return { communityNodes: community.n8nCommunityNodesPlugin, nodesBase: nodesBase.default ?? nodesBase };
}
