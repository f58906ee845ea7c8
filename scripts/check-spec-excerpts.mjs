// Checks that the spec excerpts and decisions kept in docs/spec/ still stand, line for line, in
// the service contracts. Run it where the contracts are at hand, naming their folder:
// `node scripts/check-spec-excerpts.mjs SPEC_DIR`. Nothing outside this repository is assumed;
// tests never need the contracts.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (!process.argv[2]) {
  console.error('Name the folder that holds the service contracts (000_…, 001_…, GAPS.md, VENDOR.md): node scripts/check-spec-excerpts.mjs SPEC_DIR');
  process.exit(2);
}
const specDir = path.resolve(process.argv[2]);
if (!fs.existsSync(specDir)) {
  console.error(`No contracts at ${specDir}; give their folder as the first argument.`);
  process.exit(2);
}
const contract = (prefix) => fs.readFileSync(path.join(specDir, fs.readdirSync(specDir).find((f) => f.startsWith(prefix))), 'utf8');
const pairs = [
  ['campaign-excerpts.txt', contract('000_')],
  ['notify-excerpts.txt', contract('001_')],
  ['decisions.md', fs.readFileSync(path.join(specDir, 'GAPS.md'), 'utf8')],
  ['vendor-excerpts.txt', fs.readFileSync(path.join(specDir, 'VENDOR.md'), 'utf8')],
];
let bad = 0;
for (const [name, text] of pairs) {
  const lines = fs.readFileSync(path.join(root, 'docs', 'spec', name), 'utf8').split('\n');
  for (const line of lines) {
    // Below this marker decisions.md holds mailctl's own decisions, which GAPS.md does not have.
    if (line.startsWith('<!-- mailctl-decisions')) break;
    if (!line.trim() || line.startsWith('# ') || line.startsWith('<!--') || line.startsWith('     ')) continue;
    if (!text.includes(line)) {
      bad++;
      console.error(`${name}: no longer in the contract: ${line.slice(0, 100)}`);
    }
  }
}
console.log(bad ? `${bad} line(s) differ from the contracts` : 'docs/spec matches the contracts');
process.exit(bad ? 1 : 0);
