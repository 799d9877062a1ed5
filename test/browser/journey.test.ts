/**
 * The whole learner journey on the demo page, in Debian's Chromium driven by playwright-core, against the stack that
 * `npm start` runs (emulator, relay in workerd, page): catalog, a course's modules, a video kept fresh across the
 * emulator's clock moving forward, completions, progress, transcript and certificate PDFs. Screenshots go to
 * test-results/browser/ (the README's screenshot is one of them).
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumArgs, chromiumPath, emulatorEnv, repoRoot, runStart } from './stack-process.ts';
import type { RunningStack } from './stack-process.ts';

const shots = join(repoRoot, 'test-results', 'browser');
let stack: RunningStack;
let browser: Browser;
let page: Page;
let emulator = '';

const shot = (name: string) => page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
const advanceEmulatorClock = async (seconds: number) => {
  const res = await fetch(`${emulator}/_emulator/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advanceSeconds: seconds }) });
  expect(res.status).toBe(200);
};

async function openModule(title: string): Promise<void> {
  await page.getByRole('button', { name: `Open module ${title}` }).click();
  await expect.poll(() => page.locator('#player-heading').textContent()).toBe(title);
}

async function completeOpenModule(): Promise<void> {
  await page.getByRole('button', { name: 'Mark as complete' }).click();
  await page.getByRole('button', { name: 'Completed' }).waitFor();
}

async function downloadPdf(buttonName: string, file: string): Promise<PDFDocument> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: buttonName }).click()]);
  const path = join(shots, file);
  await download.saveAs(path);
  const bytes = await readFile(path);
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  return PDFDocument.load(bytes);
}

describe('demo page in Chromium against the running stack', () => {
  beforeAll(async () => {
    await mkdir(shots, { recursive: true });
    stack = await runStart(['--port', '0'], emulatorEnv());
    emulator = stack.origin('emulator') ?? '';
    if (!emulator || !stack.origin('demo page')) throw new Error(`npm start did not come up:\n${stack.stdout()}\n${stack.stderr()}`);
    browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: chromiumArgs });
    // Phone width: the page must work there.
    page = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 });
  });
  afterAll(async () => {
    await browser?.close();
    expect(await stack?.interrupt()).toBe(0);
  });

  it('signs in with a learner token only and lists the catalog', async () => {
    const relay = stack.origin('relay')!;
    const relayCalls: Array<{ url: string; headers: Record<string, string> }> = [];
    page.on('request', (r) => {
      if (r.url().startsWith(relay)) relayCalls.push({ url: r.url(), headers: r.headers() });
    });
    await page.goto(`${stack.origin('demo page')}/`);
    await page.getByText('Ready.').waitFor();
    await expect.poll(() => page.locator('#learner').textContent()).toBe('Signed in as Zoë Ångström');
    await page.getByRole('heading', { name: 'Workplace Safety Essentials' }).waitFor();
    expect(await page.locator('#catalog li').count()).toBeGreaterThanOrEqual(3);
    // The browser talks to the relay with a bearer learner token, never a relay key.
    expect(relayCalls.length).toBeGreaterThan(0);
    for (const call of relayCalls.filter((c) => c.headers['authorization'])) expect(call.headers['authorization']).toMatch(/^Bearer ey/);
    expect(relayCalls.some((c) => 'x-relay-key' in c.headers)).toBe(false);
    // Nothing scrolls sideways at phone width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot('01-catalog');
  });

  it('plays a video from content_url and keeps the URL fresh when the service clock nears expires_at', async () => {
    await page.getByRole('button', { name: 'Open course Workplace Safety Essentials' }).click();
    await page.getByRole('button', { name: 'Open module Safety at work (video)' }).waitFor();
    await openModule('Safety at work (video)');
    const video = page.locator('#player-frame video');
    await video.waitFor();
    const first = await video.getAttribute('src');
    expect(first).toContain(`${emulator}/sandbox/content/`);
    expect((await fetch(first!)).status).toBe(200);
    await shot('02-video');

    // 59 min 10 s later on the service's clock the URL has 50 s left: the page must swap in a refreshed one.
    await advanceEmulatorClock(3550);
    await page.locator('#player-frame[data-refreshes="1"]').waitFor({ state: 'attached', timeout: 60_000 });
    const second = await video.getAttribute('src');
    expect(second).not.toBe(first);
    await advanceEmulatorClock(120);
    expect((await fetch(first!)).status).toBe(403);
    expect((await fetch(second!)).status).toBe(200);
    await expect.poll(() => page.locator('#url-status').textContent()).toContain('refreshed');
  });

  it('marks modules complete, moves course progress, and offers the certificate once the course is done', async () => {
    await completeOpenModule();
    await expect.poll(() => page.locator('#course-progress').getAttribute('value')).not.toBe('0');
    await openModule('Safety handbook');
    expect(await page.locator('#player-frame iframe').getAttribute('src')).toContain('/sandbox/content/');
    await completeOpenModule();
    await openModule('Safety checklist');
    await completeOpenModule();
    await expect.poll(() => page.locator('#course-progress-text').textContent()).toContain('100%');
    await page.getByRole('button', { name: 'Download certificate for Workplace Safety Essentials' }).waitFor();
    expect(await page.locator('#transcripts tbody tr').count()).toBe(4);
    await shot('03-completed');
  });

  it('downloads the certificate and transcript PDFs through the relay', async () => {
    const certificate = await downloadPdf('Download certificate for Workplace Safety Essentials', 'certificate.pdf');
    expect(certificate.getAuthor()).toBe('Zoë Ångström');
    expect(certificate.getSubject()).toBe('Workplace Safety Essentials');
    const transcript = await downloadPdf('Download transcript (PDF)', 'transcript.pdf');
    expect(transcript.getTitle()).toBe('Transcript of Zoë Ångström');
  });

  it('leaves completion of a SCORM module to the module itself', async () => {
    await page.getByRole('button', { name: 'Open course Data Protection Fundamentals' }).click();
    await openModule('Data protection quiz');
    expect(await page.getByRole('button', { name: 'Mark as complete' }).isVisible()).toBe(false);
    expect(await page.locator('#scorm-note').isVisible()).toBe(true);
    await shot('04-scorm');
    expect(await page.locator('#error').isVisible()).toBe(false);
    // A desktop view for the README (docs/demo-page.png is a copy of this one).
    await page.setViewportSize({ width: 1100, height: 1500 });
    await page.getByRole('button', { name: 'Open course Workplace Safety Essentials' }).click();
    const scormUrl = await page.locator('#player-frame iframe').getAttribute('src');
    await openModule('Safety handbook');
    // Another module gets its own frame: the SCORM page must not stay on screen under the document's title.
    expect(await page.locator('#player-frame iframe').getAttribute('title')).toBe('Safety handbook');
    expect(await page.locator('#player-frame iframe').getAttribute('src')).not.toBe(scormUrl);
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: join(shots, '05-desktop.png') });
  });
});
