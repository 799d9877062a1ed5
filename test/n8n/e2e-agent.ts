/**
 * End to end: n8n's AI Agent with a chat model pointed at a scripted OpenAI-compatible server (support/
 * scripted-openai.ts) and the Partner Learning node as two tools (Register, Get learner), run with `n8n execute`.
 * The script registers a learner through $fromAI parameters, reads it back by UUID, tries a bad User ID, then ends.
 * Asserts what n8n sent the model: tool names and descriptions, every parameter described, ids typed; the tool's
 * answer reaching the model without JSON-LD keys; the validation error naming the tool's parameter.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startScriptedOpenAi, type ChatRequest } from './support/scripted-openai.ts';

const WORKFLOW = join(import.meta.dirname, 'agent', 'agent-tools.json');

function toolMessages(request: ChatRequest): string[] {
  return request.messages.filter((m) => m.role === 'tool').map((m) => typeof m.content === 'string' ? m.content : JSON.stringify(m.content));
}

/**
 * @param n8n Runs the n8n CLI in the e2e user folder (package and Partner Learning credential already there).
 * @returns One line per check; throws listing every failed check.
 */
export async function runAgentTest(init: { n8n: (args: string[]) => Promise<string>; userFolder: string }): Promise<string[]> {
  let uuid = '';
  const model = await startScriptedOpenAi([
    () => ({ tool: 'Register', args: { Email: 'ada.agent@example.com', First_Name: 'Ada', Last_Name: 'Lovelace', Organization: 1 } }),
    (request) => {
      uuid = /"uuid":"([0-9a-f-]{36})"/.exec(toolMessages(request).at(-1) ?? '')?.[1] ?? '';
      return { tool: 'Get_learner', args: { User_ID: uuid } };
    },
    () => ({ tool: 'Get_learner', args: { User_ID: 'ada.agent@example.com' } }),
    () => ({ text: 'Registered Ada Lovelace.' }),
  ]);
  const lines: string[] = [];
  const failed: string[] = [];
  const check = (name: string, ok: boolean, detail: string) => {
    lines.push(`${ok ? '✓' : '✗'} agent: ${name}${ok ? '' : ` (${detail})`}`);
    if (!ok) failed.push(name);
  };
  try {
    const credentialsFile = join(init.userFolder, 'openai-credential.json');
    await writeFile(credentialsFile, JSON.stringify([{
      id: 'plScriptedOpenAi1', name: 'Scripted OpenAI', type: 'openAiApi', data: { apiKey: 'sk-scripted-test', url: model.baseUrl },
    }]));
    await init.n8n(['import:credentials', `--input=${credentialsFile}`]);
    await init.n8n(['import:workflow', `--input=${WORKFLOW}`]);
    const id = (JSON.parse(await readFile(WORKFLOW, 'utf8')) as { id: string }).id;
    let output = '';
    try {
      output = await init.n8n(['execute', `--id=${id}`, '--rawOutput']);
    } catch (error) {
      output = (error as { stdout?: string }).stdout ?? String(error);
    }
    // n8n 1.x ends the run on a tool's error instead of handing it to the model: 3 model calls, the error in its output.
    const line1 = (process.env['N8N_E2E_VERSION'] ?? '2').startsWith('1.');
    const calls = line1 ? 3 : 4;
    check(`the agent ran and asked the model ${calls} times`, model.requests.length === calls, `${model.requests.length} requests; n8n said: ${output.slice(-1500)}`);
    const first = model.requests[0];
    const tools = first?.tools ?? [];
    const register = tools.find((t) => t.function.name === 'Register')?.function;
    const get = tools.find((t) => t.function.name === 'Get_learner')?.function;
    check('tools named Register and Get_learner', Boolean(register && get), JSON.stringify(tools.map((t) => t.function.name)));
    check('Register described with the operation\'s text and its parameters, not "Register a learner in Partner Learning"',
      /by e-mail/i.test(register?.description ?? '') && /Organization \(numeric ID\).*Get Many/.test(register?.description ?? ''), JSON.stringify(register?.description));
    check('Get_learner described: a learner by UUID, where the UUID comes from',
      /UUID/.test(get?.description ?? '') && /Register/.test(get?.description ?? ''), JSON.stringify(get?.description));
    for (const tool of [register, get]) {
      for (const [key, schema] of Object.entries(tool?.parameters?.properties ?? {})) {
        check(`${tool?.name}.${key} has a description`, Boolean(schema.description?.trim()), JSON.stringify(schema));
      }
    }
    const organization = register?.parameters?.properties?.['Organization'];
    check('Organization typed as a number and says where to find it',
      organization?.type === 'number' && /Get Many|organization/i.test(organization.description ?? ''), JSON.stringify(organization));
    const answer = toolMessages(model.requests[1] ?? { messages: [] }).at(-1) ?? '';
    check('the Register answer reaches the model with the uuid', uuid !== '' && answer.includes(uuid), answer.slice(0, 300));
    const got = toolMessages(model.requests[2] ?? { messages: [] }).at(-1) ?? '';
    check('the Get answer carries the uuid and no @context/@id/@type', uuid !== '' && got.includes(uuid) && !/@context|"@id"|"@type"/.test(got), got.slice(0, 300));
    const bad = line1
      ? /^.*User_ID.*$/m.exec(output)?.[0] ?? ''
      : toolMessages(model.requests[3] ?? { messages: [] }).at(-1) ?? '';
    check(`a bad User ID comes back naming User_ID, not uuid${line1 ? ' (n8n 1.x: in the failed run, not to the model)' : ''}`, /User_ID/.test(bad) && !/\buuid\b/.test(bad), bad);
    check('no API key in what n8n printed', !output.includes('sk-scripted-test'), 'the key appears');
  } finally {
    await model.close();
  }
  if (failed.length > 0) throw Object.assign(new Error(`agent test: ${failed.length} check(s) failed:\n${lines.join('\n')}`), { lines });
  return lines;
}
