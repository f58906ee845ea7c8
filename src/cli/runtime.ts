// What running a command needs, in one module: src/cli/main.ts loads it with one dynamic
// import when a command's action starts (or an error is to be reported), never for --help or
// --version. The bundle keeps everything this module reaches in one chunk (scripts/bundle.mjs,
// group "core"), so a command's start-up reads one file here rather than a chunk per module.
// The API clients are not here: Context loads them when a command first asks for one.
export { Context } from '../run/context.js';
export { systemClock } from '../core/clock.js';
export { inquirerPrompter } from '../run/prompter.js';
export { errorOutput, IO } from '../run/io.js';
export { chooseOutput } from '../run/output/choice.js';
export { configDir } from '../config/paths.js';
export { CliError, ExitCode, errorJson, InterruptedError, SilentExit, UsageError } from '../core/errors.js';
export { forTerminal, forTerminalLines } from '../core/sanitize.js';
export { DiskError, isDiskProblem } from '../fs/append-whole.js';
export { errorWords } from './error-text.js';
