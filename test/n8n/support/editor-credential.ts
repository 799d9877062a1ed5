/**
 * The credential form as a user meets it: "Connect to Partner Learning" in the node's panel opens n8n's credential
 * modal; each Save runs the credential's test and the modal shows its answer. Broken settings first (the modal stays
 * open on a failed test), then the right ones (n8n closes the modal on success; reopening it re-runs the test and
 * shows the success tag).
 */
import type { Editor } from './editor-browser.ts';

export interface CredentialFields {
  tokenUrl: string;
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  apiKey: string;
}

interface Attempt {
  name: string;
  shot: string;
  fields: CredentialFields;
  /** The sentence the modal must show. */
  sentence: RegExp;
  /** What n8n 1.x shows instead, and why (the line then says so rather than passing quietly). */
  onLine1?: { sentence: RegExp; why: string };
}

function attempts(good: CredentialFields): Attempt[] {
  return [
    {
      name: 'API key and client secret swapped', shot: 'editor-credential-swapped',
      fields: { ...good, clientSecret: good.apiKey, apiKey: good.clientSecret },
      sentence: /API Key was not pasted into Client Secret/,
    },
    {
      name: 'wrong base URL (/v2)', shot: 'editor-credential-wrong-base-url',
      fields: { ...good, baseUrl: good.baseUrl.replace(/\/v1$/, '/v2') },
      sentence: /base URL does not lead to the API/i,
      // n8n 1.x drops the HTTP answer the credential's 404 rule reads, and shows its own 404 text.
      // (Not just "could not be found": the form's notice quotes those words.)
      onLine1: { sentence: /The resource you are requesting could not be found/, why: "known 1.x limit: n8n 1.x shows its own 404 text, not the rule's sentence" },
    },
  ];
}

async function fill(editor: Editor, fields: CredentialFields): Promise<void> {
  const modal = editor.id('editCredential-modal');
  for (const [name, value] of Object.entries(fields)) {
    const input = editor.id(`parameter-input-${name}`, modal).locator('input, textarea').first();
    await input.fill(value);
  }
}

/**
 * Creates the credential from the open node panel and tests it three ways.
 *
 * @returns One line per case; throws on the first case whose answer is not the expected one, or when a secret
 * shows in the modal.
 */
export async function createAndTestCredential(editor: Editor, good: CredentialFields, line1 = false): Promise<string[]> {
  const { id } = editor;
  const modal = id('editCredential-modal');
  const lines: string[] = [];
  // A fresh n8n offers "Connect to Partner Learning"; once a credential of this type exists, the picker's "Create new".
  const connect = id('ndv').getByText('Connect to Partner Learning');
  const picker = id('node-credentials-select', id('ndv'));
  await connect.or(picker).first().waitFor();
  if (await connect.isVisible()) {
    await connect.click();
  } else {
    await picker.click();
    await id('node-credentials-select-item-new').filter({ visible: true }).click();
  }
  await modal.waitFor();
  // The form says up front what n8n 1.x's test shows for the two mistakes it cannot name.
  const notice = modal.getByText(/^On n8n 1\.x the test reads/);
  await notice.waitFor();
  lines.push(`notice in the form: "${(await notice.innerText()).trim().slice(0, 60)}…"`);
  for (const attempt of attempts(good)) {
    await fill(editor, attempt.fields);
    // Save stores the credential, then n8n runs its test: wait for that answer, not for a time.
    const tested = editor.page.waitForResponse((r) => r.url().includes('/rest/credentials/test'));
    await id('credential-save-button', modal).click();
    await tested;
    // n8n shows "Couldn't connect with these settings"; the sentence is behind its "More details" (which stays
    // open for the next test once clicked).
    const more = modal.getByText('More details', { exact: true });
    const expected = line1 && attempt.onLine1 ? attempt.onLine1 : undefined;
    const sentence = modal.getByText(expected?.sentence ?? attempt.sentence).first();
    await sentence.or(more).first().waitFor();
    if (!(await sentence.isVisible())) await more.click();
    await sentence.waitFor();
    const shown = (await sentence.innerText()).trim();
    const text = await modal.innerText();
    if ([good.clientSecret, good.apiKey].some((secret) => text.includes(secret))) {
      throw new Error(`credential form, ${attempt.name}: the modal shows a secret`);
    }
    await editor.shot(attempt.shot);
    lines.push(`${attempt.name}: "${shown}"${expected ? ` (${expected.why})` : ''}`);
  }
  await fill(editor, good);
  // n8n 2.x closes the modal on success and selects the credential in the node (reopening re-runs the test); n8n 1.x
  // keeps it open with the success tag.
  const tested = editor.page.waitForResponse((r) => r.url().includes('/rest/credentials/test'));
  await id('credential-save-button', modal).click();
  await tested;
  const successTag = id('credentials-config-container-test-success', modal);
  if (!line1) {
    await modal.waitFor({ state: 'hidden' });
    await id('credential-edit-button', id('ndv')).click();
  }
  await successTag.waitFor();
  await editor.shot('editor-credential-ok');
  // The tag holds the message and its "Retry" button: keep the message.
  const success = (await id('credentials-config-container-test-success', modal).innerText()).split('\n')[0]!.trim();
  lines.push(`right settings: "${success}"`);
  await modal.locator('.el-dialog__close').first().click();
  await modal.waitFor({ state: 'hidden' });
  return lines;
}
