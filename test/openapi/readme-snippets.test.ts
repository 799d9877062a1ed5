/**
 * Issue 18: the edge/README.md "From any language" snippets (curl, Python's standard library, TypeScript with
 * openapi-fetch), extracted from the README itself so they cannot drift, each run against a relay in Node in front
 * of the emulator with RELAY_URL and RELAY_KEY set as `npm start` prints them.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/runtime-bundle.ts';
import { RELAY_KEY, startStack, type Stack } from './support/stack.ts';

const run = promisify(execFile);
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/** The fenced blocks of the README's "From any language" section, by language. */
function snippets(): Record<string, string> {
  const readme = readFileSync(join(repoRoot, 'edge', 'README.md'), 'utf8');
  const section = readme.split('\n## From any language\n')[1]!.split('\n## ')[0]!;
  const blocks: Record<string, string> = {};
  for (const match of section.matchAll(/```(\w+)\n([\s\S]*?)```/g)) blocks[match[1]!] = match[2]!;
  return blocks;
}

let stack: Stack;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  stack = await startStack();
  env = { ...process.env, RELAY_URL: stack.relay.origin, RELAY_KEY };
}, 120_000);
afterAll(async () => stack?.stop());

describe('edge/README.md "From any language"', () => {
  const blocks = snippets();

  it('has the three snippets', () => {
    expect(Object.keys(blocks).sort()).toEqual(['python', 'sh', 'ts']);
  });

  it('curl: registers and mints a learner token', async () => {
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', blocks['sh']!], { env });
    const minted = JSON.parse(stdout) as { token: string; userId: string };
    expect(minted.userId).toMatch(UUID);
    expect(minted.token.split('.')).toHaveLength(3);
  });

  it('Python (standard library): registers, mints and reads the learner\'s progress', async () => {
    const { stdout } = await run('python3', ['-c', blocks['python']!], { env });
    expect(stdout.trim()).toMatch(new RegExp(`^${UUID.source} \\d{4}-\\d\\d-\\d\\dT\\S+ \\d+$`));
  });

  it('Python reports a refusal by its problem code', async () => {
    const broken = blocks['python']!.replace('"organizationId": 1', '"organizationId": -1');
    const failed = await run('python3', ['-c', broken], { env }).then(() => undefined, (error: { code: number; stderr: string }) => error);
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(/^validation_failed: /);
  });

  it('TypeScript (openapi-fetch, generated types): registers and mints', async () => {
    // Beside test/openapi/relay-api.d.ts, the types the snippet imports.
    const file = join(import.meta.dirname, 'readme-snippet.tmp.mts');
    await writeFile(file, blocks['ts']!);
    try {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', file], { env, cwd: repoRoot });
      expect(stdout.trim()).toMatch(new RegExp(`^${UUID.source} \\d{4}-\\d\\d-\\d\\dT\\S+$`));
    } finally {
      await rm(file, { force: true });
    }
  });
});
