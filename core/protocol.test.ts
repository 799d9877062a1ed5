/**
 * The protocol entry must bundle without ky, p-throttle, timers or globals: n8n's community-package scanner lints
 * every `.js` file of the n8n package, bundled third-party code included, and refuses those words.
 */
import { describe, it, expect } from 'vitest';
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { clientOnTransport, errorFromResponse, parseTokenResponse, retryDelay, singlePage } from './protocol.ts';
import { fakeTransport, hydraPage } from '../test/support/fake-transport.ts';

/** What the scanner's `no-restricted-globals` rule refuses, as whole words. */
const FORBIDDEN = /\b(setTimeout|setInterval|clearTimeout|clearInterval|globalThis|process)\b/g;

async function bundle(entry: string): Promise<{ code: string; inputs: string[] }> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(entry, import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    external: ['zod'],
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return { code: result.outputFiles[0]!.text, inputs: Object.keys(result.metafile.inputs) };
}

/** Module specifiers the bundle still imports at run time (each once: esbuild keeps one import per import style). */
function imports(code: string): string[] {
  return [...new Set([...code.matchAll(/^\s*import\s[^'"]*['"]([^'"]+)['"]/gm)].map((m) => m[1]!))];
}

describe('core/protocol.ts', () => {
  it('bundles with no timer, no global, no ky and no p-throttle; only zod stays external', async () => {
    const { code, inputs } = await bundle('./protocol.ts');
    expect(code.match(FORBIDDEN) ?? []).toEqual([]);
    expect(imports(code)).toEqual(['zod']);
    // What ships is what counts: token-endpoint.ts (which also sends the token request) reaches ky in the module
    // graph, and ky declares itself free of side effects, so nothing of it is left in the output.
    expect(code).not.toMatch(/\bky\b|p-throttle|pThrottle/);
    expect(inputs.filter((file) => /core\/(http\/(ky-transport|key-limiters|adaptive-rate)|auth\/token-provider|options)\.ts$/.test(file))).toEqual([]);
  });

  it('the check can fail: the ky driver entry bundles ky, timers and globals', async () => {
    const { code, inputs } = await bundle('./client.ts');
    expect(code.match(FORBIDDEN)?.length ?? 0).toBeGreaterThan(0);
    expect(inputs.some((file) => file.includes('node_modules/ky/'))).toBe(true);
  });

  it('exports what a driver needs, and the resource groups run on any Transport', async () => {
    expect([errorFromResponse, parseTokenResponse, retryDelay].every((f) => typeof f === 'function')).toBe(true);
    const transport = fakeTransport(() => ({ data: hydraPage([{ id: 1 }]) }));
    const client = clientOnTransport(transport, 'sandbox');
    expect((await client.courses.page()).items).toEqual([{ id: 1 }]);
    expect((await singlePage(transport, { method: 'GET', path: '/x' })).items).toEqual([{ id: 1 }]);
  });
});
