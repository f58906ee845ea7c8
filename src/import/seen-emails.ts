// Remembers which email addresses a file has already used, case-insensitively, in memory that
// does not grow with the length of rows or addresses: each address becomes a 64-bit hash kept,
// with the line it was first seen on, in flat typed arrays (open addressing, linear probing).
// 12 bytes per slot at 37–75 % load: 1M addresses ≈ 24 MiB, 10M ≈ 200 MiB. A Set of strings or
// BigInts would cost 50–100 bytes per entry plus garbage-collector work.
//
// The table is split into 256 shards by hash that grow one at a time, so growing never needs
// the old and the new copy of the whole table at once (that alone would add 50 % at the peak).
// Each slot's three numbers sit side by side: one cache miss per probe, not three.
//
// Two different addresses share a 64-bit hash with probability about n²/2⁶⁵ (10M rows: 1 in
// 300,000). Such a row would be reported as a duplicate in the rejects file, never dropped silently.
//
// A table of a million addresses is far larger than the processor's caches, so nearly every look
// misses: one wait for memory per row, a tenth of a 1M-row check when each row's wait came alone,
// between the parsing of two rows (issue 24.7). The check can therefore take addresses in batches:
// stage() hashes each one, prefetch() starts the loads of all their slots, so they wait for memory
// together, and firstLineStaged() then decides them in order, as firstLine() would.

const SHARD_BITS = 8;
const SHARDS = 1 << SHARD_BITS;
/** Enough loads in flight to cover a wait for memory, few enough that their lines stay in the cache until decided. */
const BATCH = 512;

export class SeenEmails {
  /** Per shard: [lo, hi, line] × slots. line 0 marks an empty slot (data lines start at 2). */
  private readonly tables: Uint32Array[] = [];
  private readonly masks = new Int32Array(SHARDS);
  private readonly counts = new Int32Array(SHARDS);
  private total = 0;
  /** Hashes of the staged batch, by position. */
  private readonly staged1 = new Uint32Array(BATCH);
  private readonly staged2 = new Uint32Array(BATCH);
  /** What the staging loads add up to: kept, so that the loads are not optimised away. */
  private sink = 0;

  /** The most addresses staged at once. */
  static readonly BATCH = BATCH;

  constructor(slotsPerShard = 256) {
    let n = 16;
    while (n < slotsPerShard) n <<= 1;
    for (let s = 0; s < SHARDS; s++) {
      this.tables.push(new Uint32Array(n * 3));
      this.masks[s] = n - 1;
    }
  }

  get size(): number {
    return this.total;
  }

  /** Records the address at `line` and returns 0, or returns the line where it was first seen. */
  firstLine(email: string, line: number): number {
    hash(email);
    return this.place(H1, H2, line);
  }

  /** Hashes `email` as batch position `k` (0 ≤ k < BATCH). Nothing is recorded until firstLineStaged(k). */
  stage(k: number, email: string): void {
    hash(email);
    this.staged1[k] = H1;
    this.staged2[k] = H2;
  }

  /**
   * Starts loading the slot where the look of each of the first `n` staged addresses begins. A
   * loop of loads alone, apart from the hashing: only then can the processor have many of them
   * waiting for memory at once (a hash between two loads filled its window with work).
   */
  prefetch(n: number): void {
    let sink = this.sink;
    for (let k = 0; k < n; k++) {
      const h2 = this.staged2[k];
      const s = h2 >>> (32 - SHARD_BITS);
      sink ^= this.tables[s][(this.staged1[k] & this.masks[s]) * 3 + 2];
    }
    this.sink = sink;
  }

  /** firstLine() for the address staged at `k`. Staged addresses are decided in the order they appear in the file. */
  firstLineStaged(k: number, line: number): number {
    return this.place(this.staged1[k], this.staged2[k], line);
  }

  private place(h1: number, h2: number, line: number): number {
    const s = h2 >>> (32 - SHARD_BITS);
    const t = this.tables[s];
    const mask = this.masks[s];
    let i = h1 & mask;
    for (;;) {
      const b = i * 3;
      const l = t[b + 2];
      if (l === 0) {
        t[b] = h1;
        t[b + 1] = h2;
        t[b + 2] = line;
        this.total++;
        if (++this.counts[s] * 4 > mask * 3) this.grow(s);
        return 0;
      }
      if (t[b] === h1 && t[b + 1] === h2) return l;
      i = (i + 1) & mask;
    }
  }

  private grow(s: number): void {
    const old = this.tables[s];
    const n = (this.masks[s] + 1) * 2;
    const mask = n - 1;
    const t = new Uint32Array(n * 3);
    for (let b = 0; b < old.length; b += 3) {
      if (old[b + 2] === 0) continue;
      let i = old[b] & mask;
      while (t[i * 3 + 2] !== 0) i = (i + 1) & mask;
      t[i * 3] = old[b];
      t[i * 3 + 1] = old[b + 1];
      t[i * 3 + 2] = old[b + 2];
    }
    this.tables[s] = t;
    this.masks[s] = mask;
  }
}

// The last hash, returned through module variables so the hot loop allocates nothing.
let H1 = 0;
let H2 = 0;

/**
 * Two independent 32-bit hashes of the lower-cased address, in one pass over its characters.
 * The runtime lower-cases (a string without capitals comes back as it is, from a scan far
 * quicker than a JavaScript one): folding A–Z in the hashing loop itself, with a branch per
 * character, took the loop nearly twice as long for the same hashes (issue 24.7).
 */
function hash(email: string): void {
  const s = email.toLowerCase();
  let a = 0x811c9dc5; // FNV-1a
  let b = 0x9747b28c; // murmur-style multiply/rotate
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
