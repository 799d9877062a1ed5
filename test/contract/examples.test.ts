// The README points newcomers at examples/quickstart.ts: run it as a user would, so it cannot rot.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

describe('examples/quickstart.ts against the in-process emulator', () => {
  it('walks ping, catalog, registration, content, completion, progress, PDFs and erasure', async () => {
    const env = { ...process.env };
    for (const name of Object.keys(env)) if (name.startsWith('PARTNER_LEARNING_')) delete env[name];
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'examples/quickstart.ts'], { env, timeout: 60_000 });
    expect(stdout).toMatch(/^ping: healthy$/m);
    expect(stdout).toMatch(/^registered: [0-9a-f-]{36} \(active\)$/m);
    expect(stdout).toMatch(/^progress: completed 100%$/m);
    expect(stdout).toMatch(/^transcript PDF: transcript-[0-9a-f-]{36}\.pdf, \d+ bytes, starts with %PDF-$/m);
    expect(stdout).toMatch(/^certificate: .+\.pdf$/m);
    expect(stdout).toMatch(/^after erase: not_found \(404\)$/m);
  });
});
