// What the benchmarks drive: the built CLI (bin/) and the sandbox from dist/ (`npm run build` first).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const bin = path.join(root, 'bin', 'mailctl.js');
const serverJs = path.join(root, 'dist', 'src', 'sandbox', 'server.js');
if (!fs.existsSync(serverJs)) throw new Error('dist/ is missing: run `npm run build` first.');
export const { startSandboxServer } = await import(serverJs);
export const { SANDBOX_KEYS } = await import(path.join(root, 'dist', 'src', 'sandbox', 'constants.js'));
