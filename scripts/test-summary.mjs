// Prints vitest's JSON report as one closing line, "tests: N passed, N failed, N skipped", and fails when the
// run executed no test at all (a green run that tested nothing must not pass CI).
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? 'test-results/vitest.json';
let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch (error) {
  console.error(`test-summary: no readable vitest report at ${file}: ${error.message}`);
  process.exit(1);
}
const passed = report.numPassedTests ?? 0;
const failed = report.numFailedTests ?? 0;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (passed + failed === 0) {
  console.error('test-summary: no test was executed');
  process.exit(1);
}
process.exit(failed > 0 ? 1 : 0);
