/**
 * End to end in n8n's editor, in Debian's Chromium driven by playwright-core: a running `n8n start` (the packed package
 * installed in the caller's user folder), the emulator on loopback. The owner signs in, finds the node by typing
 * "partner" then "learning", creates the credential through its form and tests it (swapped API key and secret, wrong
 * base URL, right settings), then runs Register (organization from the list), Course Get (course from the list),
 * Content Get (module from the list) and Transcript Download PDF with "Execute step", reading each output panel.
 * One screenshot per step (1280x800) goes to `shotsDir`. Called by scripts/n8n-e2e.ts.
 */
import type { EnvironmentInfo } from './e2e-credential-test.ts';
import { openEditor, type Editor } from './support/editor-browser.ts';
import { createAndTestCredential } from './support/editor-credential.ts';
import { startN8n } from './support/editor-n8n.ts';
import { addNodeFromPanel, choose, executeStep, learnerUuid, pickFromList, type } from './support/editor-node.ts';

interface CatalogCourse { title: string; published: boolean; modules: Array<{ title: string; published: boolean }> }

/** The whole test must end within this (the brief's bound); each element wait has its own 30 s bound too. */
const BUDGET_MS = 4 * 60_000;

export async function runNode(editor: Editor, catalog: CatalogCourse[]): Promise<string[]> {
  const lines: string[] = [];
  const published = catalog.filter((course) => course.published);
  const course = published[0]!;
  const module = course.modules.find((m) => m.published)!;

  await type(editor, 'email', `editor.learner.${Date.now()}@example.test`);
  await type(editor, 'firstName', 'Editor');
  await type(editor, 'lastName', 'Learner');
  await pickFromList(editor, 'organizationId', [], '');
  const registered = await executeStep(editor, /"uuid"/, 'editor-register');
  const uuid = learnerUuid(await editor.id('output-panel').innerText());
  lines.push(`Register: output shows ${registered} ${uuid}`);

  await choose(editor, 'resource', 'Course');
  await choose(editor, 'operation', 'Get');
  await pickFromList(editor, 'courseId', published.map((c) => c.title), course.title, 'editor-course-list');
  lines.push(`Course list shows the emulator's ${published.length} published courses`);
  lines.push(`Course Get: output shows ${await executeStep(editor, new RegExp(`"${course.title}"`), 'editor-course-get')}`);

  await choose(editor, 'resource', 'Content');
  await choose(editor, 'operation', 'Get');
  await pickFromList(editor, 'moduleId', [module.title], module.title);
  await type(editor, 'userId', uuid);
  lines.push(`Content Get: output shows ${await executeStep(editor, /"content_url"/, 'editor-content-get')}`);

  await choose(editor, 'resource', 'Transcript');
  await choose(editor, 'operation', 'Download PDF');
  await type(editor, 'userId', uuid);
  const file = await executeStep(editor, /\.pdf/, 'editor-transcript-pdf', 'Binary');
  const binary = editor.id('ndv-binary-data_0', editor.id('output-panel'));
  const text = await binary.innerText();
  if (!/\bdata\b/.test(text) || !/application\/pdf/.test(text)) throw new Error(`Transcript PDF: the output's binary item is not a "data" PDF: ${text}`);
  lines.push(`Transcript Download PDF: binary "data" ${file}`);
  return lines;
}

/**
 * Starts n8n, runs the editor test, stops n8n.
 *
 * @returns One line per checked step; throws naming the step that failed (its screenshot is `editor-failed.png`).
 */
export async function runEditorTest(init: {
  n8nBin: string; env: NodeJS.ProcessEnv; cwd: string; emulatorOrigin: string; sandbox: EnvironmentInfo; shotsDir: string;
  /** The n8n version under test (`1.x` shows its own text where the credential cases say so). */
  version: string;
}): Promise<string[]> {
  const readWrite = init.sandbox.clients.find((c) => c.scopes.some((s) => s.endsWith('/write')))!;
  const good = {
    tokenUrl: init.sandbox.tokenUrl, baseUrl: init.sandbox.baseUrl, clientId: readWrite.clientId,
    clientSecret: readWrite.clientSecret, apiKey: init.sandbox.apiKey,
  };
  const catalog = (await (await fetch(`${init.emulatorOrigin}/_emulator/catalog?env=sandbox`)).json()) as CatalogCourse[];
  const n8n = await startN8n(init);
  let editor: Editor | undefined;
  let timer: NodeJS.Timeout | undefined;
  const lines: string[] = [];
  let step = 'sign in';
  try {
    const started = Date.now();
    const work = (async () => {
      editor = await openEditor(n8n.origin, init.shotsDir);
      step = 'nodes panel';
      lines.push(...await addNodeFromPanel(editor));
      step = 'credential form';
      lines.push(...(await createAndTestCredential(editor, good, init.version.startsWith('1.'))).map((line) => `credential form, ${line}`));
      step = 'node steps';
      lines.push(...await runNode(editor, catalog));
    })();
    const overrun = new Promise<never>((_, fail) => {
      timer = setTimeout(() => { fail(new Error(`did not finish within ${BUDGET_MS / 60_000} minutes`)); }, BUDGET_MS);
    });
    await Promise.race([work, overrun]);
    // Reported, not asserted (the bound above is the only limit): how long the browser part took on this machine.
    lines.push(`done in ${Math.round((Date.now() - started) / 1000)} s in the browser (n8n start not counted)`);
    return lines.map((line) => `✓ editor, ${line}`);
  } catch (error) {
    await editor?.shot('editor-failed').catch(() => undefined);
    const done = lines.map((line) => `✓ editor, ${line}`).join('\n');
    throw new Error(`editor test failed at ${step}: ${error instanceof Error ? error.message : String(error)}\n${done}`);
  } finally {
    clearTimeout(timer);
    await editor?.close();
    await n8n.stop();
  }
}
