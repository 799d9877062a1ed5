// `npm run check:imports`: the import graph stays a tree a newcomer can read.
// 1. No import circle anywhere in the shipped folders (dpdm, type-only imports included: a circle through a types
//    file is still a circle to a reader).
// 2. No file under a shipped folder is imported only by tests: every non-test file there is reachable from a
//    non-test file (a package entry, a runtime entry, a script, an example or a benchmark). Test-only code belongs
//    in test/support/.
import { parseDependencyTree, parseCircular } from 'dpdm';
import { readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SHIPPED = ['core', 'edge', 'nodes', 'credentials', 'emulator'];
const USERS = ['scripts', 'examples', 'bench'];
const isTest = (file) => /\.test\.ts$/.test(file) || file.startsWith('test/');

function tsFiles(dir) {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|mts)$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .filter((f) => !f.split('/').includes('node_modules') && !f.includes('/dist/') && !isTest(f));
}

const shipped = SHIPPED.flatMap(tsFiles);
const users = USERS.flatMap(tsFiles);
const tree = await parseDependencyTree([...shipped, ...users], {
  context: root,
  transform: false,
  skipDynamicImports: false,
  tsconfig: join(root, 'tsconfig.json'),
});

let failed = false;
const circles = parseCircular(tree).filter((c) => c.some((f) => SHIPPED.some((d) => f.startsWith(`${d}/`))));
for (const circle of circles) {
  failed = true;
  process.stderr.write(`check-imports: import circle: ${[...circle, circle[0]].join(' -> ')}\n`);
}

const imported = new Set();
for (const [issuer, deps] of Object.entries(tree)) {
  if (isTest(issuer) || !deps) continue;
  for (const dep of deps) if (dep.id) imported.add(dep.id);
}
// Entry files are used by being loaded, not imported: package and runtime entries, n8n's node and credential files.
const ENTRY = /^(core\/(index|protocol)|emulator\/(index|server|cli|worker)|edge\/(workers|deno|node)|nodes\/.*\.node|credentials\/.*\.credentials)\.ts$|tsup\.config\.ts$/;
for (const file of shipped) {
  if (ENTRY.test(file) || imported.has(file)) continue;
  failed = true;
  process.stderr.write(`check-imports: ${file} is imported only by tests (or by nothing): move it to test/support/\n`);
}

process.stdout.write(`check-imports: ${shipped.length} shipped files, ${circles.length} circle(s)\n`);
process.exit(failed ? 1 : 0);
