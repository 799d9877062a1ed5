/**
 * The node in the editor: found in the nodes panel by what a user types, configured through its fields and list
 * searches, run with "Execute step", its output read from the output panel.
 */
import type { Locator } from 'playwright-core';
import type { Editor } from './editor-browser.ts';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

function creatorItem(editor: Editor, text: string): Locator {
  return editor.id('item-iterator-item', editor.id('node-creator')).filter({ hasText: text }).first();
}

/** New workflow, a manual trigger, then the node found by typing "partner", then " learning"; its Register action. */
export async function addNodeFromPanel(editor: Editor): Promise<string[]> {
  const { page, id } = editor;
  await page.goto('/workflow/new');
  await id('canvas-add-button').click();
  await creatorItem(editor, 'Trigger manually').click();
  await id('canvas-node').first().waitFor();
  await id('node-creator-plus-button').click();
  const search = id('node-creator-search-bar');
  // Typed key by key, as a user does: the panel filters on each keystroke.
  await search.pressSequentially('partner');
  await creatorItem(editor, 'Partner Learning').waitFor();
  await editor.shot('editor-nodes-panel-partner');
  await search.pressSequentially(' learning');
  await creatorItem(editor, 'Partner Learning').click();
  await creatorItem(editor, 'Register a learner').waitFor();
  await editor.shot('editor-nodes-panel-actions');
  await creatorItem(editor, 'Register a learner').click();
  await id('ndv').waitFor();
  return ['found by "partner" and "partner learning"; its actions listed'];
}

/** Picks `option` in the dropdown parameter `name` of the open node panel. */
export async function choose(editor: Editor, name: string, option: string): Promise<void> {
  await editor.id(`parameter-input-${name}`, editor.id('ndv')).click();
  // An option shows its name and description: match the name exactly.
  const { page } = editor;
  await page.getByRole('option').filter({ visible: true, has: page.getByText(option, { exact: true }) }).first().click();
}

export async function type(editor: Editor, name: string, value: string): Promise<void> {
  const input = editor.id(`parameter-input-${name}`, editor.id('ndv')).locator('input, textarea').first();
  await input.fill(value);
}

/**
 * Opens the list search of the resource locator `name`, checks it shows every title in `expected`, then picks
 * `pick` (typing part of it into the list's search box first).
 */
export async function pickFromList(editor: Editor, name: string, expected: string[], pick: string, shot?: string): Promise<void> {
  const { id } = editor;
  await id('rlc-input', id(`resource-locator-${name}`, id('ndv'))).click();
  // The list is teleported out of the panel: only one is open at a time, so the visible items are its items.
  const items = id('rlc-item').filter({ visible: true });
  for (const title of expected) await items.filter({ hasText: title }).first().waitFor();
  await items.first().waitFor();
  if (shot) await editor.shot(shot);
  // The list's search box has the focus: type as a user does, then wait for the list to narrow to the pick.
  if (pick) await editor.page.keyboard.type(pick.slice(0, 8));
  const item = items.filter({ hasText: pick }).first();
  await item.click();
  await item.waitFor({ state: 'hidden' });
}

/** Runs the step and waits until the output panel shows `shows` in its JSON view; returns that text. */
export async function executeStep(editor: Editor, shows: RegExp, shot: string, view: 'JSON' | 'Binary' = 'JSON'): Promise<string> {
  const { id } = editor;
  const output = id('output-panel');
  await id('node-execute-button', id('ndv')).click();
  await output.getByRole('radio', { name: view }).click();
  const found = output.getByText(shows).first();
  await found.waitFor();
  await editor.shot(shot);
  return (await found.innerText()).trim();
}

/** The uuid of the learner the Register step output shows. */
export function learnerUuid(text: string): string {
  const uuid = UUID.exec(text)?.[0];
  if (!uuid) throw new Error(`no learner uuid in the output: ${text}`);
  return uuid;
}
