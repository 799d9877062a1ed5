/**
 * Static check that the core stays Web-standard: bundled for workerd and for a neutral runtime it pulls in no Node
 * built-in, and its own code (dependencies left out) mentions no `process`, `Buffer`, `node:` or `Deno`.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { bundleEntry, nodeImports, removeBundle, type Bundle } from '../support/runtime-bundle.ts';

const bundles: Bundle[] = [];
afterAll(async () => {
  await Promise.all(bundles.map((b) => removeBundle(b)));
});

async function bundle(...args: Parameters<typeof bundleEntry>): Promise<Bundle> {
  const b = await bundleEntry(...args);
  bundles.push(b);
  return b;
}

/** The runtime dependencies DESIGN.md allows the core. */
const allowedPackages = ['ky', 'zod', 'jose'];

describe('core bundle', () => {
  it.each(['workerd', 'neutral'] as const)('bundles for %s with no node: import and nothing left unresolved', async (target) => {
    const b = await bundle('core/index.ts', target);
    expect(Object.keys(b.metafile.inputs).some((f) => f.startsWith('core/'))).toBe(true);
    expect(nodeImports(b.metafile)).toEqual([]);
    expect(b.code).not.toMatch(/\bfrom\s*["']node:|\brequire\(\s*["']node:/);
  });

  it('has core code free of process, Buffer, node: and Deno, importing only the allowed packages', async () => {
    const b = await bundle('core/index.ts', 'neutral', true);
    const imported = Object.values(b.metafile.outputs).flatMap((o) => o.imports.map((i) => i.path));
    const packages = [...new Set(imported.map((p) => (p.startsWith('@') ? p.split('/').slice(0, 2) : p.split('/').slice(0, 1)).join('/')))];
    expect(packages.filter((p) => !allowedPackages.includes(p))).toEqual([]);
    // esbuild drops comments, so only code is scanned.
    const offending = b.code.split('\n').filter((line) => /\bprocess\.|\bBuffer\b|["']node:|\bDeno\./.test(line));
    expect(offending).toEqual([]);
  });
});
