#!/usr/bin/env node
// The only code that touches the real process: its streams and TTY flags, Ctrl-C, SIGTERM and
// SIGHUP, and the exit code. Everything else is main() in commands/main.ts (src/cli/main.ts with
// mailctl's nouns; built into dist/ by `npm ci` through `prepare`), which tests call in-process.
// CommonJS (bin/package.json), as the bundle is: the lines answered here — --version, and a help
// screen for a pipe or a file (./help-screen.cjs) — load no ES module (on Node 20 the ES module
// loader alone costs a fifth of bare node's start-up, issue 24.6), and the others load the
// bundle with require().
'use strict';

const argv = process.argv.slice(2);
// Only a line that may ask for help loads ./help-screen.cjs (compiling it is 0.4 ms of every
// command on Node 24, 1 ms on Node 20); helpWords there accepts no other.
const last = argv[argv.length - 1];
const mayAskHelp = last === '--help' || last === '-h' || argv[0] === 'help';
if (argv.length === 1 && argv[0] === '--version') {
  // Answered before the CLI loads: scripts probe for mailctl with it.
  const fs = require('node:fs');
  const pkg = JSON.parse(fs.readFileSync(require('node:path').join(__dirname, '..', 'package.json'), 'utf8'));
  require('./help-screen.cjs').writeStdout(Buffer.from(`${pkg.version}\n`));
} else if (!(mayAskHelp && require('./help-screen.cjs').serveHelp(argv))) {
  run();
}

async function run() {
  // The compile cache on before main.js loads, which then comes with the code V8 compiled for it
  // in earlier runs (Node ≥ 22.1; src/config/paths.ts, src/config/code-cache.ts). The bundle is
  // CommonJS (scripts/bundle.mjs says why).
  const start = require('../dist/cli/paths.js');
  const { main } = start.requireBundle(require('node:path').join(__dirname, '..', 'dist', 'cli', 'main.js'), start.enableCompileCache(process.env));
  const controller = new AbortController();
  let interrupts = 0;
  // SIGTERM (systemd, Docker, CI) and SIGHUP (a closed terminal) end a run exactly as Ctrl-C does
  // (issue 19 item 4): the command stops cleanly, records what it must, says how to resume.
  const interrupt = () => {
    interrupts += 1;
    // First signal: the command stops cleanly and says how to resume. Second: leave now.
    if (interrupts > 1) process.exit(130);
    controller.abort();
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, interrupt);

  // `mailctl … | head` (or `2>&1 | head`) closes the pipe early: that ends the run quietly
  // rather than with an unhandled stream error. Handlers are attached when a stream is first
  // used, so streams a run never uses are never created (each costs net/tty/streams).
  // Any other failure to write (a full disk under `> file`, /dev/full, EIO) is not a bug and not
  // a reason to stop the command half-way (a send already made must still be journalled): what
  // could not be written is said once the command has ended, with its own exit code.
  const ready = new Set();
  /** @type {Map<string, NodeJS.ErrnoException>} */
  const lost = new Map();
  /** @param {'stdout' | 'stderr'} name @param {() => NodeJS.WriteStream} stream */
  const guarded = (name, stream) => () => {
    const s = stream();
    if (!ready.has(s)) {
      ready.add(s);
      s.on('error', (e) => {
        if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
        if (!lost.has(name)) lost.set(name, e);
      });
    }
    return s;
  };
  const stdout = guarded('stdout', () => process.stdout);
  const stderr = guarded('stderr', () => process.stderr);

  const code = await main({
    argv,
    env: process.env,
    get stdin() {
      return process.stdin;
    },
    get stdinTTY() {
      return !!process.stdin.isTTY;
    },
    get stdout() {
      return stdout();
    },
    get stderr() {
      return stderr();
    },
    get stdoutTTY() {
      return !!stdout().isTTY;
    },
    get stderrTTY() {
      return !!stderr().isTTY;
    },
    signal: controller.signal,
  });
  process.exitCode = code;
  // A failed write is reported by an 'error' event a tick later: let the last one arrive.
  await new Promise((resolve) => setImmediate(resolve));
  const out = lost.get('stdout');
  if (out) {
    // Straight to fd 2: the stderr stream may be the one that failed too (then nobody can be told).
    const why = out.code ? `${out.code}${out.code === 'ENOSPC' ? ': no space left on the device' : ''}` : String(out.message);
    const ran = code === 0
      ? 'The command itself ran to its end: what it did is done (do not run it again for its output; where it keeps a journal or a ledger, that holds the result).'
      : `The command itself ended with exit code ${code}.`;
    try {
      require('node:fs').writeSync(2, `error: mailctl could not write its output to standard output (${why}); that output is lost. ${ran}\n`);
    } catch {
      // stderr is gone as well.
    }
    if (code === 0) process.exitCode = 1;
  }
}
