/**
 * What the OpenAPI journeys run against, all over loopback sockets: the emulator, the relay in Node in front of it,
 * the relay's documents written to files, and optionally Prism's validating proxy (`prism proxy --errors`) in front
 * of the relay, so that every request and answer of a journey is checked against the document by a tool others wrote.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RELAY_KEY, startUpstream, type Upstream } from '../../relay/support/fixture.ts';
import { startNode, type RelayTarget } from '../../relay/support/targets.ts';
import { repoRoot } from '../../support/runtime-bundle.ts';
import { freePort } from '../../support/free-port.ts';

export { RELAY_KEY };
/** Prism's CLI at a pinned version, fetched by npx like Redocly in scripts/openapi-check.sh. */
export const PRISM = '@stoplight/prism-cli@5.16.0';

export interface Stack {
  upstream: Upstream;
  relay: RelayTarget;
  /** Where a journey sends its requests: Prism's proxy when started with it, else the relay. */
  origin: string;
  /** The relay's 3.1 and 3.0 documents, as files. */
  documents: { '3.1': string; '3.0': string };
  /** Everything Prism printed (empty without Prism). */
  prismLines: string[];
  stop(): Promise<void>;
}

function startPrism(document: string, upstream: string, lines: string[]): Promise<{ child: ChildProcess; origin: string }> {
  return freePort().then((port) => new Promise((resolve, reject) => {
    const child = spawn('npx', ['--yes', PRISM, 'proxy', document, upstream, '--errors', '--host', '127.0.0.1', '--port', String(port)], {
      // A group of its own: npx does not always pass a SIGTERM on to Prism, which then outlived the run (found
      // listening 30 min after a CI run), so stop() signals the whole group.
      cwd: repoRoot, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
    });
    const timer = setTimeout(() => reject(new Error(`prism did not start within 120 s:\n${lines.join('\n')}`)), 120_000);
    const onData = (chunk: string): void => {
      for (const line of chunk.split('\n')) {
        if (line.trim() === '') continue;
        lines.push(line);
        if (/Prism is listening on/i.test(line)) {
          clearTimeout(timer);
          resolve({ child, origin: `http://127.0.0.1:${port}` });
        }
      }
    };
    child.stdout!.setEncoding('utf8').on('data', onData);
    child.stderr!.setEncoding('utf8').on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`prism exited with ${String(code)}:\n${lines.join('\n')}`));
    });
  }));
}

/**
 * @param options `prism`: put Prism's validating proxy in front of the relay.
 * @returns The running stack.
 */
export async function startStack(options: { prism?: boolean } = {}): Promise<Stack> {
  const upstream = await startUpstream();
  const relay = await startNode(upstream.settings);
  const dir = await mkdtemp(join(tmpdir(), 'pl-openapi-'));
  const documents = { '3.1': join(dir, 'relay-3.1.json'), '3.0': join(dir, 'relay-3.0.json') };
  for (const [version, file] of Object.entries(documents)) {
    const path = version === '3.1' ? '/v1/openapi.json' : '/v1/openapi-3.0.json';
    await writeFile(file, await (await fetch(`${relay.origin}${path}`)).text());
  }
  const prismLines: string[] = [];
  const prism = options.prism ? await startPrism(documents['3.1'], relay.origin, prismLines) : undefined;
  return {
    upstream, relay, documents, prismLines,
    origin: prism?.origin ?? relay.origin,
    async stop() {
      if (prism && prism.child.exitCode === null) {
        const exited = new Promise((resolve) => prism.child.once('exit', resolve));
        process.kill(-prism.child.pid!, 'SIGTERM');
        await exited;
      }
      await relay.stop();
      await upstream.server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Prism's complaints: any line naming a violation. */
export function prismViolations(lines: string[]): string[] {
  return lines.filter((line) => /violation|\[VALIDATOR\]|error/i.test(line) && !/Prism is listening/i.test(line));
}
