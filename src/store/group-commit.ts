// Group commit: the events that arrive together are stored in one transaction — one commit, one
// fsync — instead of one each, which is what lets one listener store and acknowledge over a
// thousand events a second (issue 21). Each add() resolves only once its batch is committed
// ('stored', or 'duplicate' when the store already had that event), or rejects when the batch
// could not be (the caller answers 503, the sender retries). One batch is in flight at a time;
// what arrives meanwhile forms the next. Within a batch a repeated event is inserted once: its
// later copies share the first's fate as duplicates.
import { rowKey, type EventRow } from './row.js';
import type { EventStore } from './store.js';

export type Outcome = 'stored' | 'duplicate';

export interface GroupCommitOptions {
  /** Most events in one transaction. */
  maxBatch: number;
  /**
   * Inside the transaction, before COMMIT, with the rows that are new: writes their extra copy
   * (the --out file); throwing rolls the batch back. What it returns undoes that copy if the
   * COMMIT then fails.
   */
  beforeCommit?: (fresh: EventRow[]) => void | (() => void);
}

interface Waiting {
  row: EventRow;
  resolve: (o: Outcome) => void;
  reject: (e: unknown) => void;
}

export class GroupCommit {
  private pending: Waiting[] = [];
  private flushing: Promise<void> | undefined;
  /** Batches committed, and the events in them (for the benchmark and -v). */
  readonly counts = { batches: 0, rows: 0 };

  constructor(private readonly store: EventStore, private readonly o: GroupCommitOptions) {}

  add(row: EventRow): Promise<Outcome> {
    return new Promise<Outcome>((resolve, reject) => {
      this.pending.push({ row, resolve, reject });
      this.kick();
    });
  }

  /** Resolves once every event added so far is committed or refused. */
  async drain(): Promise<void> {
    while (this.flushing || this.pending.length) await (this.flushing ?? new Promise((r) => setImmediate(r)));
  }

  private kick(): void {
    if (this.flushing) return;
    // setImmediate: every request whose body ended in this turn of the event loop joins the batch.
    this.flushing = new Promise<void>((r) => setImmediate(r)).then(() => this.flush()).finally(() => {
      this.flushing = undefined;
      if (this.pending.length) this.kick();
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending.splice(0, this.o.maxBatch);
    if (!batch.length) return;
    // The first copy of each event in the batch is inserted; the others follow it.
    const leaders = new Map<string, { w: Waiting; followers: Waiting[] }>();
    for (const w of batch) {
      const k = rowKey(w.row);
      const l = leaders.get(k);
      if (l) l.followers.push(w);
      else leaders.set(k, { w, followers: [] });
    }
    const groups = [...leaders.values()];
    const rows = groups.map((g) => g.w.row);
    let inserted: boolean[];
    try {
      inserted = await this.store.insert(rows, this.o.beforeCommit ? (ins) => this.o.beforeCommit!(rows.filter((_, i) => ins[i])) : undefined);
    } catch (e) {
      for (const w of batch) w.reject(e);
      return;
    }
    this.counts.batches++;
    this.counts.rows += rows.length;
    groups.forEach((g, i) => {
      g.w.resolve(inserted[i] ? 'stored' : 'duplicate');
      for (const f of g.followers) f.resolve('duplicate');
    });
  }
}
