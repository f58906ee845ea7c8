// Seen-addresses set for in-file duplicate detection that stays small for huge uploads: a
// 500 MB file holds ~10 million rows, and a Set of 10 million strings would need gigabytes.
// This keeps a 52-bit hash per address in an open-addressing Float64Array (8 bytes a slot).
// Two different addresses share a hash with odds ~n²/2^53 (≈1% at 10 million rows); such a
// row would be reported as a duplicate. Acceptable for an emulator, and documented here.
import { hash32 } from './common.js';

export class EmailSet {
  private slots = new Float64Array(1 << 12);
  private count = 0;

  /** Adds the (already normalised) address; returns false when it was present. */
  add(email: string): boolean {
    if (this.count * 4 >= this.slots.length * 3) this.grow();
    return insert(this.slots, key(email)) && ++this.count > 0;
  }

  has(email: string): boolean {
    const k = key(email);
    const mask = this.slots.length - 1;
    for (let i = k % this.slots.length; ; i = (i + 1) & mask) {
      if (this.slots[i] === 0) return false;
      if (this.slots[i] === k) return true;
    }
  }

  get size(): number {
    return this.count;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Float64Array(old.length * 2);
    for (const k of old) if (k !== 0) insert(this.slots, k);
  }
}

function key(email: string): number {
  const hi = hash32(email, 0x9747b28c) & 0xfffff;
  const k = hi * 2 ** 32 + hash32(email);
  return k === 0 ? 1 : k;
}

function insert(slots: Float64Array, k: number): boolean {
  const mask = slots.length - 1;
  for (let i = k % slots.length; ; i = (i + 1) & mask) {
    if (slots[i] === 0) {
      slots[i] = k;
      return true;
    }
    if (slots[i] === k) return false;
  }
}
