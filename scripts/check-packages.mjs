#!/usr/bin/env node
// Packs the three published packages and checks each the way its users' tools will see it:
// - partner-learning-client: `attw` (ESM and CommonJS each with their own types), then installed from the tarball
//   into a scratch project where it is imported, required and type-checked as a user would;
// - partner-learning-emulator: installed from the tarball; its `bin` starts and prints its origin;
// - n8n-nodes-partner-learning (the root): n8n's verification scanner, lint stage, over the tarball's `**/*.js`
//   and `.json` with its default patterns (exactly as n8n runs it before verifying a package) and over the source;
//   and that its README is the n8n package's own (nodes/README.md, swapped in by scripts/pack-readme.mjs).
// Each tarball must carry its README.
// Run after `npm run build`. Exits non-zero on the first failing check, with the tool's own report.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'pl-packages-'));
const cache = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'partner-learning');
const SCANNER_VERSION = '0.32.0';

const run = (cmd, args, options = {}) =>
  execFileSync(cmd, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });
const npm = (args, options) => run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], options);
const step = (message) => process.stdout.write(`check-packages: ${message}\n`);

function pack(workspace) {
  const args = ['pack', '--json', '--pack-destination', work, ...(workspace ? ['--workspace', workspace] : [])];
  const [info] = JSON.parse(npm(args));
  const files = info.files.map((f) => f.path);
  // npm shows a package's README on its page: every published package carries its own.
  if (!files.includes('README.md')) throw new Error(`${info.name} would publish no README.md`);
  return { file: join(work, info.filename), files };
}

function scratchProject(name, tarball) {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  npm(['install', '--prefer-offline', tarball], { cwd: dir });
  return dir;
}

function checkClient() {
  const { file, files } = pack('core');
  step(`partner-learning-client packs ${files.length} files`);
  const stray = files.filter((f) => !/^(dist\/|package\.json$|README\.md$|LICENSE$)/.test(f));
  if (stray.length > 0) throw new Error(`partner-learning-client would publish files outside dist/: ${stray.join(', ')}`);
  run(join(root, 'node_modules/.bin/attw'), [file, '--format', 'table-flipped'], { stdio: 'inherit' });
  step('attw: no problems (ESM and CommonJS types resolve for node10, node16 and bundler)');

  const dir = scratchProject('client-user', file);
  writeFileSync(join(dir, 'esm.mts'), [
    "import { createClient, ValidationError, type PartnerLearningClient } from 'partner-learning-client';",
    "const c: PartnerLearningClient | undefined = typeof createClient === 'function' ? undefined : undefined;",
    "console.log(typeof createClient, ValidationError.name, c);",
  ].join('\n'));
  writeFileSync(join(dir, 'cjs.cts'), [
    "import client = require('partner-learning-client');",
    "const e: client.ValidationError | undefined = undefined;",
    "console.log(typeof client.createClient, client.ValidationError.name, e);",
  ].join('\n'));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { module: 'node16', moduleResolution: 'node16', target: 'es2022', strict: true, noEmit: true, lib: ['es2022', 'dom'], types: [] },
    files: ['esm.mts', 'cjs.cts'],
  }));
  run(join(root, 'node_modules/.bin/tsc'), ['-p', dir]);
  // Each build makes a call (ping, API key only) through its own ky and limiter, answered by a stub fetch.
  const call = (m) => `const c = ${m}.createClient({ tokenUrl: 'https://auth.example.test/oauth2/token', ` +
    "baseUrl: 'https://api.example.test/sandbox/v1', clientId: 'a'.repeat(26), clientSecret: 's'.repeat(40), " +
    "apiKey: 'k'.repeat(40), fetch: async () => Response.json({ status: 'ok' }) }); " +
    `c.ping().then((h) => console.log(typeof ${m}.createClient, ${m}.NetworkError.name, JSON.stringify(h)));`;
  const esm = run('node', ['--input-type=module', '-e', `import * as m from 'partner-learning-client'; ${call('m')}`], { cwd: dir });
  const cjs = run('node', ['-e', `const m = require('partner-learning-client'); ${call('m')}`], { cwd: dir });
  for (const [kind, out] of [['import', esm], ['require', cjs]]) {
    if (out.trim() !== 'function NetworkError {"status":"ok"}') throw new Error(`partner-learning-client by ${kind} printed "${out.trim()}"`);
  }
  step('partner-learning-client installs from its tarball, type-checks (node16 ESM and CJS), and calls by import and by require');
}

async function checkEmulator() {
  const { file, files } = pack('emulator');
  step(`partner-learning-emulator packs ${files.length} files`);
  const dir = scratchProject('emulator-user', file);
  const child = spawn(join(dir, 'node_modules/.bin/partner-learning-emulator'), ['--port', '0'], { cwd: dir });
  const origin = await new Promise((ok, fail) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
      if (match) ok(match[0]);
    });
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => fail(new Error(`partner-learning-emulator exited ${code} before listening:\n${out}`)));
  });
  const answer = await fetch(`${origin}/_emulator/partners`);
  child.kill('SIGTERM');
  if (!answer.ok) throw new Error(`the packed emulator answered ${answer.status} to GET /_emulator/partners`);
  step(`npx partner-learning-emulator --port 0 serves ${origin}`);
}

function scanner() {
  const dir = join(cache, `n8n-scanner-${SCANNER_VERSION}`);
  const entry = join(dir, 'node_modules/@n8n/scan-community-package/scanner/scanner.mjs');
  if (!existsSync(entry)) {
    step(`installing @n8n/scan-community-package@${SCANNER_VERSION} into ${dir}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{"private":true}');
    // Its preinstall insists on pnpm; the lint stage needs none of what that script sets up.
    npm(['install', '--ignore-scripts', `@n8n/scan-community-package@${SCANNER_VERSION}`], { cwd: dir });
  }
  return import(entry);
}

async function checkN8nPackage() {
  const { file, files } = pack();
  const dir = join(work, 'n8n-package');
  mkdirSync(dir);
  run('tar', ['-xzf', file, '-C', dir, '--strip-components=1']);
  step(`n8n-nodes-partner-learning packs ${files.length} files`);
  const readme = readFileSync(join(dir, 'README.md'), 'utf8');
  if (!readme.startsWith('# n8n-nodes-partner-learning')) throw new Error('the n8n tarball does not carry nodes/README.md as its README');
  const { analyzePackage, SOURCE_FILE_PATTERNS } = await scanner();
  // Exactly n8n's call: every .js and .json of the extracted tarball, with the scanner's default patterns.
  const results = [
    ['tarball', await analyzePackage(dir)],
    ['source', await analyzePackage(root, SOURCE_FILE_PATTERNS)],
  ];
  for (const [what, result] of results) {
    if (!result.passed) throw new Error(`n8n scanner (${what}): ${result.message}\n${result.details ?? ''}`);
  }
  step('n8n scanner lint stage: no errors over the tarball and the source');
}

try {
  checkClient();
  await checkEmulator();
  await checkN8nPackage();
  step('all packages pass');
} catch (error) {
  process.stderr.write(`check-packages: FAILED\n${error.stderr ?? ''}${error.stdout ?? ''}${error.message}\n`);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
