/**
 * Issue 18: the relay's interactive API reference (Scalar, over /v1/openapi.json) as `npm start` serves it, in
 * real Chromium. The page loads Scalar's pinned browser bundle from jsDelivr; this machine has no network beyond
 * the npm registry, so the test answers that one URL with the same file from the npm tarball of the same version
 * (`npm pack`, cached), and lets nothing else leave the machine.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCALAR_SCRIPT } from '../../edge/reference.ts';
import { cacheRoot } from '../support/runtime-bundle.ts';
import { chromiumArgs, chromiumPath, emulatorEnv, repoRoot, runStart, type RunningStack } from './stack-process.ts';

let stack: RunningStack;
let browser: Browser;

/** @returns Scalar's standalone bundle at the pinned version, from its npm tarball. */
async function scalarBundle(): Promise<Buffer> {
  const version = /@scalar\/api-reference@([\d.]+)\//.exec(SCALAR_SCRIPT)![1]!;
  const dir = join(cacheRoot, `scalar-api-reference-${version}`);
  const file = join(dir, 'package', 'dist', 'browser', 'standalone.js');
  if (!existsSync(file)) {
    await mkdir(dir, { recursive: true });
    const tarball = execFileSync('npm', ['pack', `@scalar/api-reference@${version}`, '--silent', '--pack-destination', dir], { cwd: dir, encoding: 'utf8' }).trim().split('\n').at(-1)!;
    execFileSync('tar', ['xzf', join(dir, tarball), '-C', dir, 'package/dist/browser/standalone.js']);
  }
  return readFile(file);
}

beforeAll(async () => {
  stack = await runStart(['--port', '0'], emulatorEnv());
  if (!stack.origin('API reference')) throw new Error(`npm start printed no API reference:\n${stack.stdout()}\n${stack.stderr()}`);
  browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: chromiumArgs });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  expect(await stack?.interrupt()).toBe(0);
});

describe('the relay\'s API reference page', () => {
  it('npm start prints its URL; it renders every operation of the document, under its own content security policy', async () => {
    const url = stack.origin('API reference')!;
    expect(url).toBe(`${stack.origin('relay')}/v1/reference`);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const bundle = await scalarBundle();
    const outside: string[] = [];
    await page.route('**/*', async (route) => {
      const target = route.request().url();
      if (target === SCALAR_SCRIPT) return route.fulfill({ status: 200, contentType: 'application/javascript', body: bundle });
      if (target.startsWith('http://127.0.0.1')) return route.continue();
      outside.push(target);
      return route.abort();
    });
    const cspViolations: string[] = [];
    page.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text()); });
    await page.goto(url);
    await page.getByText('Mint a learner token').first().waitFor({ timeout: 60_000 });
    const text = await page.locator('body').innerText();
    const doc = (await (await fetch(`${stack.origin('relay')}/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, { summary: string }>> };
    const summaries = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.summary));
    const missing = summaries.filter((s) => !text.includes(s));
    expect(missing, 'operations the page does not show').toEqual([]);
    expect(cspViolations).toEqual([]);
    expect(outside).toEqual([]);
    // docs/relay-api-reference.png (edge/README.md) is a copy of this one.
    await mkdir(join(repoRoot, 'test-results', 'browser'), { recursive: true });
    await page.screenshot({ path: join(repoRoot, 'test-results', 'browser', 'relay-api-reference.png') });
  }, 120_000);
});
