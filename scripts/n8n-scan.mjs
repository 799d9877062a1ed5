// n8n's verification lint stage (@n8n/scan-community-package's analyzePackage) over a packed tarball: every .js
// file and the package.json, with n8n's rule sets and inline disables ignored. Fails on any error in the files
// this package builds (dist/nodes, dist/credentials). Problems in the root package.json are printed too; the
// workspace root is also the published package, so those are for packaging to settle (see the report).
// Usage: node scripts/n8n-scan.mjs <package.tgz>
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzePackage } from '@n8n/scan-community-package/scanner/scanner.mjs';

const tarball = process.argv[2];
if (!tarball) {
  process.stderr.write('usage: node scripts/n8n-scan.mjs <package.tgz>\n');
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'pl-n8n-scan-'));
try {
  execFileSync('tar', ['xzf', tarball, '-C', dir]);
  const result = await analyzePackage(join(dir, 'package'));
  const details = String(result.details ?? '');
  // ESLint's stylish output: a file name line, then its problems.
  const errorsByFile = new Map();
  let file = '';
  for (const line of details.split('\n')) {
    if (line.startsWith('/')) file = line.slice(join(dir, 'package').length + 1);
    else if (/^\s+\d+:\d+\s+error\s/.test(line)) errorsByFile.set(file, [...(errorsByFile.get(file) ?? []), line.trim()]);
  }
  const ours = [...errorsByFile].filter(([name]) => /^dist\/(nodes|credentials)\/.*\.js$/.test(name));
  const packaging = [...errorsByFile].filter(([name]) => !/^dist\/(nodes|credentials)\/.*\.js$/.test(name));
  for (const [name, lines] of packaging) process.stdout.write(`n8n-scan: packaging (${name}): ${lines.length} error(s)\n  ${lines.join('\n  ')}\n`);
  if (ours.length > 0) {
    for (const [name, lines] of ours) process.stderr.write(`n8n-scan: ${name}\n  ${lines.join('\n  ')}\n`);
    process.exit(1);
  }
  process.stdout.write(`n8n-scan: node and credential files pass n8n's scanner lint stage (${result.passed ? 'package passes' : 'package.json problems above'})\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
