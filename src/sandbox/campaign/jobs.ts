// Work that takes real time (parsing an uploaded file, counting a once-campaign list) runs in
// the background while requests keep being answered; advance() picks the result up when it is
// both done and due. Jobs live in memory only, keyed by the state object (several sandboxes can
// share a process). If the process ends first (--sandbox runs one command per process), the
// persisted state still says PROCESSING and the next process simply starts the job again:
// jobs only read files and compute; their result is applied in one step by advance().
import type { CampaignState } from './state.js';

interface Job<T> {
  done: boolean;
  result?: T;
  error?: Error;
}

const registry = new WeakMap<CampaignState, Map<string, Job<unknown>>>();

/** Starts `work` once per id; returns the job (check `done`). */
export function runJob<T>(state: CampaignState, id: string, work: () => Promise<T>): Job<T> {
  let jobs = registry.get(state);
  if (!jobs) registry.set(state, (jobs = new Map()));
  let job = jobs.get(id) as Job<T> | undefined;
  if (!job) {
    const j: Job<T> = { done: false };
    job = j;
    jobs.set(id, j);
    work().then(
      (r) => Object.assign(j, { done: true, result: r }),
      (e: Error) => Object.assign(j, { done: true, error: e }),
    );
  }
  return job;
}

export function forgetJob(state: CampaignState, id: string): void {
  registry.get(state)?.delete(id);
}
