// Remembers which email addresses a file has already used, case-insensitively, in memory that
// does not grow with the length of rows or addresses: each address becomes a 64-bit hash kept in
// flat typed arrays (open addressing, linear probing), with the line it was first seen on.
// 12 bytes per slot at ≤ 75 % load: 1M addresses ≈ 24 MiB, 10M ≈ 192 MiB. A Set of strings or
// BigInts would cost 50–100 bytes per entry plus garbage-collector pressure.
//
// Two different addresses share a 64-bit hash with probability about n²/2⁶⁵ (10M rows: 1 in
// 300,000). Such a row would be reported as a duplicate in the rejects file, never dropped silently.

export class SeenEmails {
  private lo: Uint32Array;
  private hi: Uint32Array;
  /** 0 marks an empty slot; data lines start at 2. */
  private line: Uint32Array;
  private mask: number;
  private count = 0;

  constructor(initialSlots = 1 << 16) {
    let n = 1 << 4;
    while (n < initialSlots) n <<= 1;
    this.lo = new Uint32Array(n);
    this.hi = new Uint32Array(n);
    this.line = new Uint32Array(n);
    this.mask = n - 1;
  }

  get size(): number {
    return this.count;
  }

  /** Records the address at `line` and returns 0, or returns the line where it was first seen. */
  firstLine(email: string, line: number): number {
    hash(email);
    const h1 = H1;
    const h2 = H2;
    let i = h1 & this.mask;
    for (;;) {
      const l = this.line[i];
      if (l === 0) break;
      if (this.lo[i] === h1 && this.hi[i] === h2) return l;
      i = (i + 1) & this.mask;
    }
    this.lo[i] = h1;
    this.hi[i] = h2;
    this.line[i] = line;
    if (++this.count * 4 > this.mask * 3) this.grow();
    return 0;
  }

  private grow(): void {
    const { lo, hi, line } = this;
    const n = (this.mask + 1) * 2;
    this.lo = new Uint32Array(n);
    this.hi = new Uint32Array(n);
    this.line = new Uint32Array(n);
    this.mask = n - 1;
    for (let j = 0; j < line.length; j++) {
      if (line[j] === 0) continue;
      let i = lo[j] & this.mask;
      while (this.line[i] !== 0) i = (i + 1) & this.mask;
      this.lo[i] = lo[j];
      this.hi[i] = hi[j];
      this.line[i] = line[j];
    }
  }
}

// The last hash, returned through module variables so the hot loop allocates nothing.
let H1 = 0;
let H2 = 0;

/** Two independent 32-bit hashes of the lower-cased address, in one pass over its characters. */
function hash(s: string): void {
  let a = 0x811c9dc5; // FNV-1a
  let b = 0x9747b28c; // murmur-style multiply/rotate
  for (let k = 0; k < s.length; k++) {
    let c = s.charCodeAt(k);
    if (c >= 65 && c <= 90) c += 32;
    else if (c > 127) {
      // Non-ASCII: let the runtime fold case properly, then start over on the folded text.
      const folded = s.toLowerCase();
      if (folded !== s) return hashFolded(folded);
    }
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b = (b << 13) | (b >>> 19);
  }
  H1 = fmix(a ^ s.length) >>> 0;
  H2 = fmix(b ^ Math.imul(s.length, 0x27d4eb2d)) >>> 0;
}

function hashFolded(s: string): void {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b = (b << 13) | (b >>> 19);
  }
  H1 = fmix(a ^ s.length) >>> 0;
  H2 = fmix(b ^ Math.imul(s.length, 0x27d4eb2d)) >>> 0;
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
