// Writing CSV to disk from the validation loop: fields quoted only when they must be (RFC 4180),
// lines gathered into large writes, and the loop paused while the disk catches up, so memory
// stays flat however large the file.
import fs from 'node:fs';
import { once } from 'node:events';

const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

export function csvField(s: string): string {
  return NEEDS_QUOTES.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvLine(fields: readonly string[]): string {
  let out = '';
  for (let i = 0; i < fields.length; i++) out += (i ? ',' : '') + csvField(fields[i]);
  return out + '\n';
}

const FLUSH_AT = 1 << 20;

export class CsvFile {
  private readonly stream: fs.WriteStream;
  private buf = '';
  private failed?: Error;
  bytes = 0;
  lines = 0;

  constructor(readonly path: string) {
    this.stream = fs.createWriteStream(path, { mode: 0o600 });
    this.stream.on('error', (e) => (this.failed = e));
  }

  /** Appends one row (already CSV, ending in a newline). */
  write(line: string): void {
    this.buf += line;
    this.lines++;
  }

  /** Call between input chunks: hands gathered lines to the disk, waiting if it is behind. */
  async drain(force = false): Promise<void> {
    if (this.failed) throw this.failed;
    if (!force && this.buf.length < FLUSH_AT) return;
    if (this.buf) {
      const chunk = Buffer.from(this.buf, 'utf8');
      this.buf = '';
      this.bytes += chunk.length;
      // events.once rejects when the stream emits 'error' instead.
      if (!this.stream.write(chunk)) await once(this.stream, 'drain');
    }
    if (this.failed) throw this.failed;
  }

  async close(): Promise<void> {
    await this.drain(true);
    await new Promise<void>((resolve, reject) => this.stream.end((e?: Error | null) => (e ? reject(e) : resolve())));
    if (this.failed) throw this.failed;
  }

  /** Stops writing and removes the file (a refused import leaves nothing half-written behind). */
  async discard(): Promise<void> {
    this.buf = '';
    await new Promise<void>((r) => this.stream.end(() => r()));
    await fs.promises.rm(this.path, { force: true });
  }
}
