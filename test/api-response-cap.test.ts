// The cap on an API answer (src/api/http.ts MAX_RESPONSE_MIB, issue 10 item 5): a hostile or
// broken service cannot make mailctl hold an endless answer in memory. An answer that declares
// its size is refused from its header (test/hostile-downloads.test.ts); this one sends no
// Content-Length (chunked), so the cap must hold while reading.
import { describe, expect, it } from 'vitest';
import { MAX_RESPONSE_MIB } from '../src/api/http.js';
import { runCli } from './helpers/cli.js';
import { reply, useHostileServer } from './helpers/hostile-server.js';

const hs = useHostileServer();
const MiB = 1024 * 1024;

describe('an API answer without a Content-Length that goes past the cap', () => {
  it('groups list: reading stops soon after the cap, and the answer is said to be too large (exit 1)', async () => {
    const total = 96 * MiB;
    let done: { sent: number; clientLeft: boolean } | undefined;
    hs.get().on('GET', '/campaign/v1/contacts/lists', reply.huge(total, 'application/json', 'x', { chunked: true, onDone: (sent, clientLeft) => (done = { sent, clientLeft }) }));
    const r = await runCli(['groups', 'list'], { env: hs.get().env });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`answered GET /v1/contacts/lists with more than ${MAX_RESPONSE_MIB} MiB`);
    expect(r.stderr).not.toMatch(/Cannot reach|unexpected failure/);
    expect(r.stdout).toBe('');
    // The client hung up: what the server could hand over is the cap plus socket buffers, far from all of it.
    await expect.poll(() => done).toBeDefined();
    expect(done!.clientLeft).toBe(true);
    expect(done!.sent).toBeLessThan(total / 2);
    expect(hs.get().requests).toHaveLength(1); // not retried: the answer will not get smaller
  });
});
