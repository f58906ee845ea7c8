// The MCP server's standard input, passed on line by line only as valid UTF-8. The SDK decodes
// each line with Node's lenient decoder, so a byte that is not UTF-8 became U+FFFD inside a tool's
// arguments (a recipient's name, a subject) and the call ran with it. A line is cut at "\n" (a
// byte never inside a UTF-8 character), checked whole (src/core/utf8.ts), and one that is not
// UTF-8 is held back and handed to `refuse` (which answers it as a parse error) instead.
import { Transform, type Readable } from 'node:stream';
import { invalidUtf8At } from '../core/utf8.js';

/** `refuse(line, at)`: the 1-based line number and the offset of its first bad byte. */
export function utf8Lines(input: Readable, refuse: (line: number, at: number) => void): Readable {
  let held: Buffer[] = [];
  let line = 0;
  const pass = (self: Transform, bytes: Buffer, ending: boolean) => {
    line++;
    const at = invalidUtf8At(bytes);
    if (at >= 0) refuse(line, at);
    else self.push(ending ? Buffer.concat([bytes, NL]) : bytes);
  };
  const t = new Transform({
    transform(chunk: Buffer, _enc, done) {
      let start = 0;
      for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
        held.push(chunk.subarray(start, nl));
        pass(this, Buffer.concat(held), true);
        held = [];
        start = nl + 1;
      }
      if (start < chunk.length) held.push(chunk.subarray(start));
      done();
    },
    flush(done) {
      if (held.length) pass(this, Buffer.concat(held), false);
      done();
    },
  });
  input.on('error', (e) => t.destroy(e));
  return input.pipe(t);
}

const NL = Buffer.from('\n');
