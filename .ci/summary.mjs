// Prints the closing line CI readers look for: "tests: N passed, N failed[, N skipped]".
import fs from 'node:fs';

const file = process.argv[2] ?? '.test-results/results.json';
const r = JSON.parse(fs.readFileSync(file, 'utf8'));
const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
console.log(`tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`);
if (!r.numTotalTests) {
  console.error('no test ran');
  process.exitCode = 1;
}
