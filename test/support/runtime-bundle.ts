/**
 * Bundling for the runtime tests: esbuild turns a TypeScript entry (and everything it imports from the repository
 * and node_modules) into one ES module that workerd can load, resolving packages with the conditions a Worker
 * uses. Output goes to a fresh folder under `node_modules/.cache/pl-runtime/` so nothing lands in the source tree.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';

/** The repository root (this file lives in `test/support/`). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where runtime-test artefacts go; ignored by git because it is inside node_modules. */
export const cacheRoot = join(repoRoot, 'node_modules', '.cache', 'pl-runtime');

export interface Bundle {
  /** Absolute path of the bundled ES module. */
  outfile: string;
  /** The folder holding it; remove it with {@link removeBundle}. */
  dir: string;
  /** esbuild's metafile: every input file and every import left in the output. */
  metafile: Metafile;
  /** The bundled source text. */
  code: string;
}

export type BundleTarget = 'workerd' | 'neutral';

/**
 * Bundles one entry file into a single ES module.
 *
 * @param entry - Path of the entry, relative to the repository root (e.g. `test/support/runtime-worker-inprocess.ts`).
 * @param target - `workerd` resolves packages as a Worker does (`workerd`, `worker`, `browser` conditions);
 *   `neutral` uses only the standard `import` condition (what an unknown Web-standard runtime would get).
 * @param externalPackages - Leave npm packages as imports (to inspect the repository's own code alone).
 * @returns The output path, its folder, the metafile and the bundled code.
 * @throws When esbuild cannot resolve or compile something (for example a `node:` import on the workerd target).
 * @example
 * const bundle = await bundleEntry('test/support/runtime-worker-inprocess.ts', 'workerd');
 */
export async function bundleEntry(entry: string, target: BundleTarget, externalPackages = false): Promise<Bundle> {
  await mkdir(cacheRoot, { recursive: true });
  const dir = await mkdtemp(join(cacheRoot, `${target}-`));
  const outfile = join(dir, 'entry.mjs');
  const result = await build({
    absWorkingDir: repoRoot,
    entryPoints: [join(repoRoot, entry)],
    outfile,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    metafile: true,
    logLevel: 'silent',
    ...(externalPackages ? { packages: 'external' as const } : {}),
    ...(target === 'workerd'
      ? { platform: 'browser' as const, conditions: ['workerd', 'worker', 'browser'] }
      : { platform: 'neutral' as const, mainFields: ['module', 'main'], conditions: ['import'] }),
  });
  const code = await readFile(outfile, 'utf8');
  return { outfile, dir, metafile: result.metafile, code };
}

/**
 * Deletes a bundle's folder.
 *
 * @param bundle - A bundle from {@link bundleEntry}, or undefined (then nothing happens).
 */
export async function removeBundle(bundle: Bundle | undefined): Promise<void> {
  if (bundle) await rm(bundle.dir, { recursive: true, force: true });
}

/**
 * Lists every import that a bundle left unresolved or that points at a Node built-in: for a Web-standard bundle
 * this must be empty.
 *
 * @param metafile - From {@link bundleEntry}.
 * @returns Import paths such as `node:crypto`, each with the file that imports it.
 */
export function nodeImports(metafile: Metafile): string[] {
  const found: string[] = [];
  for (const [file, input] of Object.entries(metafile.inputs)) {
    for (const imp of input.imports) {
      if (imp.path.startsWith('node:') || imp.external) found.push(`${imp.path} (from ${file})`);
    }
  }
  for (const [file, output] of Object.entries(metafile.outputs)) {
    for (const imp of output.imports) found.push(`${imp.path} (left in ${file})`);
  }
  return found;
}
