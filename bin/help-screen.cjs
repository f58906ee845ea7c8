// `mailctl [words…] --help` (or -h, or `mailctl help words…`) with stdout not a terminal: the
// screen main() prints for that line, rendered when mailctl was built (commands/help-screens.ts,
// scripts/bundle.mjs: dist/cli/help-screens.json and .txt), written without loading commander,
// the registrations or any ES module (issue 24.6: a help screen within 1.25× of bare node; on
// Node 20 an ES module alone costs a fifth of that). Anything else — another flag on the line,
// a word that names no command, a terminal, screens missing or unreadable — is left to main().
// test/help-screens.test.ts holds every screen served here equal to main()'s.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const DIR = path.join(__dirname, '..', 'dist', 'cli');

/** The words naming the command whose help the line asks for, or undefined when it is not such a line. */
function helpWords(argv) {
  const last = argv[argv.length - 1];
  let words;
  if (last === '--help' || last === '-h') words = argv.slice(0, -1);
  else if (argv[0] === 'help' && argv.length > 1) words = argv.slice(1);
  else return undefined;
  return words.every((w) => w !== '' && !w.startsWith('-')) ? words : undefined;
}

/** The screen for this line as bytes, or undefined when main() must answer it. */
function screenFor(argv, dir = DIR) {
  const words = helpWords(argv);
  if (!words) return undefined;
  let index;
  try {
    index = JSON.parse(fs.readFileSync(path.join(dir, 'help-screens.json'), 'utf8'));
  } catch {
    return undefined;
  }
  if (index.version !== 1 || !Object.hasOwn(index.screens, words.join(' '))) return undefined;
  const [start, end] = index.screens[words.join(' ')];
  const fd = fs.openSync(path.join(dir, 'help-screens.txt'), 'r');
  try {
    const bytes = Buffer.alloc(end - start);
    if (fs.readSync(fd, bytes, 0, bytes.length, start) !== bytes.length) return undefined;
    return bytes;
  } finally {
    fs.closeSync(fd);
  }
}

/** Whether fd 1 is certainly not a terminal: a pipe, a file or a socket (a character device may be one). */
function notTerminal() {
  try {
    const st = fs.fstatSync(1);
    if (!st.isCharacterDevice()) return true;
    // /dev/null or a terminal: node:tty tells them apart (it loads net, so only here).
    return !require('node:tty').isatty(1);
  } catch {
    return false;
  }
}

/**
 * Writes the screen for argv and returns true, or returns false (nothing written) when main()
 * must answer.
 */
function serveHelp(argv) {
  let bytes;
  try {
    bytes = screenFor(argv);
  } catch {
    return false;
  }
  if (!bytes || !notTerminal()) return false;
  writeStdout(bytes);
  return true;
}

/**
 * Writes to stdout as process.stdout writes to a pipe or a file (whole, synchronously), without
 * creating that stream (net, streams: ~2.5 ms). A reader gone (EPIPE) ends the run quietly, as
 * the bin's guard on process.stdout does; a pipe another process left non-blocking (EAGAIN) gets
 * the rest through process.stdout.
 */
function writeStdout(bytes) {
  let at = 0;
  try {
    while (at < bytes.length) at += fs.writeSync(1, bytes, at, bytes.length - at);
  } catch (e) {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    if (e.code !== 'EAGAIN') {
      // A full disk under `> file`, /dev/full, EIO: said in one line (as the bin says it), exit 1.
      try {
        fs.writeSync(2, `error: mailctl could not write its output to standard output (${e.code ?? e.message}); that output is lost.\n`);
      } catch {
        // stderr is gone as well.
      }
      process.exit(1);
    }
    process.stdout.write(bytes.subarray(at));
  }
}

module.exports = { helpWords, screenFor, serveHelp, writeStdout };
