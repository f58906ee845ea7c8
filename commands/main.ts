// mailctl: the CLI's main (src/cli/main.ts) with mailctl's nouns (./nouns.ts: each noun's
// registration loaded when it runs). The one module that puts the two together, at the top of
// the layers, so src/cli never imports the commands.
// bin/mailctl.js runs it (the bundle's entry, dist/cli/main.js); tests and the MCP server call it
// in-process.
import { main as cliMain, type RunOptions } from '../src/cli/main.js';
import { registerFor } from './nouns.js';

/** Argv and streams in, exit code out: the whole of mailctl as a function. */
export function main(o: RunOptions): Promise<number> {
  return cliMain(o, registerFor);
}
