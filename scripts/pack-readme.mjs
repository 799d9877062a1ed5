// `npm pack` / `npm publish` of the root package (the n8n community package) ship `nodes/README.md` as the
// package's README: the root README.md is the repository's map, not what an n8n user needs on the npm page.
// npm always takes the README from the package root, so `prepack` swaps the two files and `postpack` puts the map
// back. A pack that failed halfway leaves the backup behind; the next `prepack` (or `restore`) repairs that first.
import { copyFileSync, existsSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const readme = join(root, 'README.md');
const backup = join(root, '.README.repository.md');
const packageReadme = join(root, 'nodes', 'README.md');

function restore() {
  if (existsSync(backup)) renameSync(backup, readme);
}

const action = process.argv[2];
if (action === 'swap') {
  restore();
  renameSync(readme, backup);
  copyFileSync(packageReadme, readme);
} else if (action === 'restore') {
  restore();
} else {
  process.stderr.write('usage: node scripts/pack-readme.mjs swap|restore\n');
  process.exit(2);
}
