// Builds the n8n community package files: one CommonJS bundle per node and credential, named after its class
// (n8n `require`s dist/nodes/<Name>/<Name>.node.js and instantiates the export named <Name>), with the codex and
// icons beside them. The core is bundled in; n8n-workflow (the peer) and zod stay external: n8n provides both at run
// time (its zod 3.25 has the v4 API at `zod/v4`, which is what the core is written against), and `crypto` is Node's.
// Nothing else may be required at run time: n8n installs community packages without their dependencies.
// The root package.json has no "type", so these `.js` files are CommonJS as n8n's `require` expects, with no nested
// package.json (n8n's verification lints every package.json of the tarball as a community package manifest). The
// repository's own ESM folders (scripts, bench, test, edge, examples) each say "type": "module" in a private
// package.json of their own; core/ and emulator/ are packages of their own.
import { build } from 'esbuild';
import { cp, mkdir, readdir, rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist');

/** Entry files: every `*.node.ts` under nodes/ and every `*.credentials.ts` under credentials/. */
async function entries() {
  const found = [];
  for (const dir of ['nodes', 'credentials']) {
    for (const entry of await readdir(join(root, dir), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      if (entry.name.endsWith('.node.ts') || entry.name.endsWith('.credentials.ts')) {
        found.push(join(entry.parentPath, entry.name));
      }
    }
  }
  return found;
}

/** `zod` → `zod/v4`, kept external (resolved from n8n's own node_modules). */
const zodV4 = {
  name: 'zod-v4-external',
  setup(b) {
    b.onResolve({ filter: /^zod(\/.*)?$/ }, () => ({ path: 'zod/v4', external: true }));
  },
};

async function copyStatics() {
  for (const dir of ['nodes', 'credentials']) {
    for (const entry of await readdir(join(root, dir), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !/\.(svg|png|node\.json)$/.test(entry.name)) continue;
      const from = join(entry.parentPath, entry.name);
      const to = join(out, relative(root, from));
      await mkdir(dirname(to), { recursive: true });
      await cp(from, to);
    }
  }
}

await rm(join(out, 'nodes'), { recursive: true, force: true });
await rm(join(out, 'credentials'), { recursive: true, force: true });
const entryPoints = await entries();
await build({
  entryPoints: entryPoints.map((file) => ({ in: file, out: relative(root, file).replace(/\.ts$/, '') })),
  outdir: out,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node22',
  external: ['n8n-workflow', 'crypto'],
  plugins: [zodV4],
  legalComments: 'none',
  logLevel: 'warning',
});
await copyStatics();
process.stdout.write(`n8n-build: ${entryPoints.length} entries → dist/nodes, dist/credentials\n`);
