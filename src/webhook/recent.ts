// The (message id, event) pairs the listener stored last, so that a repeat — the service retrying,
// or anyone replaying a captured request — is answered 200 without being stored (or forwarded)
// twice. The signature covers only the id and the event name (spec 001 section 5, decisions row
// 14), so those two are the event's identity: a copy with other payload fields is still a repeat.
// Bounded: only the last `limit` pairs are kept (insertion order, oldest dropped first).

export class RecentEvents {
  private readonly keys = new Set<string>();

  constructor(readonly limit: number) {}

  private static key(id: string, event: string): string {
    return JSON.stringify([id, event]);
  }

  has(id: string, event: string): boolean {
    return this.keys.has(RecentEvents.key(id, event));
  }

  add(id: string, event: string): void {
    const k = RecentEvents.key(id, event);
    this.keys.delete(k);
    this.keys.add(k);
    while (this.keys.size > this.limit) this.keys.delete(this.keys.values().next().value as string);
  }

  get size(): number {
    return this.keys.size;
  }
}
