#!/usr/bin/env node
// Built output lives in dist/ (npm ci runs the build through `prepare`).
import { runFromProcess } from '../dist/cli/process.js';

await runFromProcess();
