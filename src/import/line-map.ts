// Which line of the user's file each line of the cleaned upload came from. The service's failure
// file numbers the lines of what it received (the cleaned copy: rejected rows, blank lines and
// unnamed columns are gone), so its rows are mapped back through this before they join the local
// rejects in the one rejects file (src/import/service-rejects.ts).
//
// Compact by construction: the mapping is an offset that changes only where the two files part —
// after a rejected row, a blank line, a dropped column that held a line break — so only those
// breakpoints are kept, as pairs of uint32 (8 bytes each). A million-row file with a thousand
// rejects keeps 8 KB; even every other row rejected keeps 4 MB, never a number per line.

export class LineMap {
  /** [uploadLine, sourceLine] pairs, by upload line; `n` of them used. */
  private pairs: Uint32Array;
  private n = 0;

  constructor(pairs?: Uint32Array) {
    this.pairs = pairs ?? new Uint32Array(64);
    if (pairs) this.n = pairs.length / 2;
  }

  /**
   * The record that starts on `uploadLine` of the upload starts on `sourceLine` of the user's
   * file. Calls come in upload order; a record that keeps the last offset adds nothing.
   */
  add(uploadLine: number, sourceLine: number): void {
    if (this.n && sourceLine - uploadLine === this.pairs[2 * this.n - 1] - this.pairs[2 * this.n - 2]) return;
    if (2 * this.n + 2 > this.pairs.length) {
      const grown = new Uint32Array(this.pairs.length * 2);
      grown.set(this.pairs);
      this.pairs = grown;
    }
    this.pairs[2 * this.n] = uploadLine;
    this.pairs[2 * this.n + 1] = sourceLine;
    this.n++;
  }

  /** The user's line for a line of the upload, or undefined for one before the first (line 0, a negative, not a whole number). */
  sourceLineOf(uploadLine: number): number | undefined {
    if (!Number.isSafeInteger(uploadLine) || !this.n || uploadLine < this.pairs[0]) return undefined;
    // The last breakpoint at or before the line.
    let lo = 0;
    let hi = this.n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.pairs[2 * mid] <= uploadLine) lo = mid;
      else hi = mid - 1;
    }
    return this.pairs[2 * lo + 1] + (uploadLine - this.pairs[2 * lo]);
  }

  /** Breakpoints kept. */
  get size(): number {
    return this.n;
  }

  /** The breakpoints as bytes (uint32 little-endian pairs), to be kept on disk. */
  toBuffer(): Buffer {
    const out = Buffer.alloc(this.n * 8);
    for (let i = 0; i < this.n * 2; i++) out.writeUInt32LE(this.pairs[i], i * 4);
    return out;
  }

  /** The map toBuffer() wrote, or undefined when the bytes are not one (cut short, or lines going backwards). */
  static fromBuffer(b: Buffer): LineMap | undefined {
    if (b.length % 8 !== 0) return undefined;
    const pairs = new Uint32Array(b.length / 4);
    for (let i = 0; i < pairs.length; i++) pairs[i] = b.readUInt32LE(i * 4);
    for (let i = 2; i < pairs.length; i += 2) if (pairs[i] <= pairs[i - 2] || pairs[i + 1] <= pairs[i - 1]) return undefined;
    return new LineMap(pairs);
  }
}
