// Work that takes real time (parsing an uploaded file, counting a once-campaign list, writing
// report files) starts in the background as soon as a request sees it pending, so a long-running
// sandbox (`sandbox serve`) keeps answering while it runs. Its result is applied by advance()
// once it is due by the clock — and from then on the request that finds it due waits for the
// work to finish (`finished`) instead of passing it over. The sandbox keeps time, not
// processes: --sandbox runs one command per process, and a job started by one process dies with
// it, so if being due were not enough an import started with `--no-wait` would stay PROCESSING
// for every later `import status` (each would start the job afresh and exit before it ended).
// Jobs live in memory only, keyed by the state object (several sandboxes can share a process);
// they only read files and compute, so starting one again in another process is safe.
import type { CampaignState } from './state.js';

interface Job<T> {
  done: boolean;
  result?: T;
  error?: Error;
  /** Settles when the work has (never rejects). */
  settled: Promise<void>;
}

const registry = new WeakMap<CampaignState, Map<string, Job<unknown>>>();

/** Starts `work` once per id; returns the job (check `done`, or await `finished`). */
export function runJob<T>(state: CampaignState, id: string, work: () => Promise<T>): Job<T> {
  let jobs = registry.get(state);
  if (!jobs) registry.set(state, (jobs = new Map()));
  let job = jobs.get(id) as Job<T> | undefined;
  if (!job) {
    const j = { done: false } as Job<T>;
    j.settled = work().then(
      (r) => void Object.assign(j, { done: true, result: r }),
      (e: Error) => void Object.assign(j, { done: true, error: e }),
    );
    job = j;
    jobs.set(id, j);
  }
  return job;
}

/** The job, finished: started now if it was not (another process started it, or none did). */
export async function finished<T>(state: CampaignState, id: string, work: () => Promise<T>): Promise<Job<T>> {
  const job = runJob(state, id, work);
  await job.settled;
  return job;
}

export function forgetJob(state: CampaignState, id: string): void {
  registry.get(state)?.delete(id);
}
