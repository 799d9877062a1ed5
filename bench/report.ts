/**
 * The benchmark report: machine facts and a Markdown table, written to `bench/results/latest.md` and `.json`.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, platform, arch } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchResult } from './support.ts';

export interface Machine {
  date: string;
  cpu: string;
  cores: number;
  node: string;
  os: string;
}

/** The CPU model as /proc/cpuinfo names it (falls back to os.cpus()). */
function cpuModel(): string {
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('model name'));
    if (line) return line.split(':').slice(1).join(':').trim();
  } catch {
    // Not Linux: os.cpus() below.
  }
  return cpus()[0]?.model.trim() ?? 'unknown';
}

/**
 * Facts about where the benchmarks ran.
 *
 * @returns Date (ISO), CPU model, cores, Node version and OS.
 */
export function machine(): Machine {
  return { date: new Date().toISOString(), cpu: cpuModel(), cores: availableParallelism(), node: process.version, os: `${platform()} ${arch()}` };
}

/**
 * Renders the report as Markdown.
 *
 * @param m - From {@link machine}.
 * @param results - Table rows.
 * @param totalMs - Wall time of the whole run.
 * @returns Markdown text.
 */
export function toMarkdown(m: Machine, results: BenchResult[], totalMs: number): string {
  const met = (r: BenchResult): string => (r.met === null ? '–' : r.met ? 'met' : 'NOT met');
  const cell = (s: string): string => s.replace(/\|/g, '\\|');
  return [
    '## Benchmarks',
    '',
    `- Date: ${m.date}`,
    `- Machine: ${m.cpu}, ${m.cores} cores, ${m.os}, Node ${m.node}`,
    `- Command: \`npm run bench\` (${(totalMs / 1000).toFixed(0)} s in all)`,
    '',
    '| # | Benchmark | Result | Target | Status |',
    '|---|---|---|---|---|',
    ...results.map((r) => `| ${r.id} | ${cell(r.name)} | ${cell(r.result)} | ${cell(r.target)} | ${met(r)} |`),
    '',
  ].join('\n');
}

/**
 * Writes `bench/results/latest.md` and `bench/results/latest.json`.
 *
 * @param markdown - From {@link toMarkdown}.
 * @param json - The machine and raw results.
 * @returns The folder written to.
 */
export async function writeResults(markdown: string, json: unknown): Promise<string> {
  const dir = join(dirname(fileURLToPath(import.meta.url)), 'results');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'latest.md'), markdown);
  await writeFile(join(dir, 'latest.json'), `${JSON.stringify(json, null, 2)}\n`);
  return dir;
}
