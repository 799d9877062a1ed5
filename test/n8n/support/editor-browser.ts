/**
 * Debian's Chromium driven by playwright-core, pointed at a running n8n, with the owner signed in. Selectors are the
 * `data-test-id` attributes n8n's own Playwright tests use (packages/testing/playwright in n8n's repository).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { chromiumArgs, chromiumPath } from '../../browser/stack-process.ts';
import { OWNER } from './editor-n8n.ts';

export interface Editor {
  page: Page;
  /** `getByTestId` for n8n's `data-test-id` attribute. */
  id(testId: string, within?: Locator): Locator;
  /** Saves a 1280x800 PNG of the viewport as `<dir>/<name>.png`. */
  shot(name: string): Promise<void>;
  close(): Promise<void>;
}

export async function openEditor(origin: string, shotsDir: string): Promise<Editor> {
  await mkdir(shotsDir, { recursive: true });
  const browser: Browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: chromiumArgs });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, baseURL: origin });
    const page = await context.newPage();
    // Every wait is on an element; this bounds each one (n8n's first page load compiles nothing, but the machine is slow).
    page.setDefaultTimeout(30_000);
    const id = (testId: string, within?: Locator) => (within ?? page).locator(`[data-test-id="${testId}"]`);
    await page.goto('/signin');
    await id('emailOrLdapLoginId').locator('input').fill(OWNER.email);
    await id('password').locator('input').fill(OWNER.password);
    await id('form-submit-button').click();
    await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
    return {
      page,
      id,
      shot: async (name) => { await page.screenshot({ path: join(shotsDir, `${name}.png`) }); },
      close: () => browser.close(),
    };
  } catch (error) {
    await browser.close();
    throw error;
  }
}
