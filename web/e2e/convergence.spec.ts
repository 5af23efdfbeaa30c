// Seeded randomized convergence test: the real server binary and the real web sync
// engine (LocalDb + saveEntry/deleteEntry + SyncEngine) on simulated devices with a faulty
// network. The simulation itself lives in ./convergence.ts and runs in worker threads.
//
// Per schedule: one guest user, 3–5 devices, random creates / edits / deletes (also of
// records pulled from other devices), random offline periods, requests delivered out of
// order across devices, duplicated, dropped, answered 503 or applied with the answer lost.
// Then every device gets a clean network and syncs until nothing changes, and we assert:
//   1. every device holds exactly the server's records (tombstones included, content of
//      live ones, the server version it remembers for Discard), all synced, status "synced";
//   2. 0 lost acknowledged writes: every acknowledged put / delete is reflected; a live
//      record's content is one of the puts written for it and not one that a later write
//      superseded (same device, or written over it after it had reached the server); every
//      write was acknowledged in the end;
//   3. 0 duplicates: one server record per id a device created and none other, at most one
//      server change per distinct write, nothing rejected, nothing left parked.
//
// Env: CONVERGENCE_SEED (default random; printed), CONVERGENCE_SCHEDULES (default 200),
// CONVERGENCE_ONLY=<index> to rerun one schedule of a seed, CONVERGENCE_WORKERS (default: cores - 1, at most 4),
// CONVERGENCE_CONCURRENCY (schedules at once per worker, default 4), CONVERGENCE_VERBOSE=1
// to print every schedule's trace.
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import type { ConvergenceJob, ConvergenceReport, Delivery, Outcome, Stats } from './convergence';
import { startServer, type RunningServer } from './harness';

function envInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got '${raw}'`);
  return value;
}

const SEED = envInt('CONVERGENCE_SEED', Math.floor(Math.random() * 2 ** 32)) >>> 0;
const SCHEDULES = Math.max(1, envInt('CONVERGENCE_SCHEDULES', 200));
const ONLY = process.env.CONVERGENCE_ONLY ? envInt('CONVERGENCE_ONLY', 0) : null;
// Leave a core to the server: on 2 cores one worker is faster than two.
const WORKERS = Math.max(1, envInt('CONVERGENCE_WORKERS', Math.min(4, availableParallelism() - 1)));
const CONCURRENCY = Math.max(1, envInt('CONVERGENCE_CONCURRENCY', 4));
const VERBOSE = process.env.CONVERGENCE_VERBOSE === '1';

/** Runs part of the schedules in a worker thread that loads TypeScript through tsx. */
function runWorker(job: ConvergenceJob): Promise<ConvergenceReport> {
  const simulation = new URL('./convergence.ts', import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const code = `import(${JSON.stringify(tsx)}).then((m) => m.tsImport(${JSON.stringify(simulation)}, ${JSON.stringify(simulation)}))`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true, workerData: { convergenceJob: job } });
    worker.once('message', (message: { report?: ConvergenceReport; error?: string }) => {
      void worker.terminate();
      if (message.report) resolve(message.report);
      else reject(new Error(`convergence worker failed (seed ${SEED}): ${message.error}`));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`convergence worker exited with ${code} (seed ${SEED})`)));
  });
}

function addStats(total: Stats, part: Stats): void {
  for (const key of ['schedules', 'devices', 'steps', 'puts', 'deletes', 'pushes', 'pulls', 'offlinePeriods', 'timersFired', 'bigOutboxes'] as const) {
    total[key] += part[key];
  }
  for (const key of Object.keys(part.deliveries) as (Delivery | 'orphan')[]) {
    total.deliveries[key] = (total.deliveries[key] ?? 0) + part.deliveries[key];
  }
}

let server: RunningServer;

before(async () => {
  // One guest per schedule: lift the per-IP limit on sign-ins.
  server = await startServer({ AUTH_RATE_LIMIT_PER_MINUTE: '100000' });
});

after(async () => {
  await server?.stop();
});

describe('sync convergence', () => {
  it(`devices converge with the server under randomized schedules (seed ${SEED})`, async () => {
    console.log('convergence seed', SEED);
    const indexes = ONLY === null ? Array.from({ length: SCHEDULES }, (_, i) => i) : [ONLY];
    const workers = Math.min(WORKERS, indexes.length);
    const started = Date.now();
    const reports = await Promise.all(
      Array.from({ length: workers }, (_, w) =>
        runWorker({
          url: server.url,
          seed: SEED,
          indexes: indexes.filter((_, i) => i % workers === w),
          concurrency: CONCURRENCY,
          verbose: VERBOSE,
        }),
      ),
    );
    const seconds = (Date.now() - started) / 1000;

    const stats = reports.map((r) => r.stats).reduce((total, part) => (addStats(total, part), total));
    for (const log of reports.flatMap((r) => r.logs)) console.log(log);
    console.log(
      `convergence: ${stats.schedules} schedules in ${seconds.toFixed(1)} s (${(stats.schedules / seconds).toFixed(1)}/s); ` +
        `${stats.devices} devices, ${stats.steps} steps, ${stats.puts} puts, ${stats.deletes} deletes, ` +
        `${stats.pushes} pushes, ${stats.pulls} pulls, ${stats.offlinePeriods} offline periods, ${stats.timersFired} timers fired, ${stats.bigOutboxes} outboxes over one push batch; ` +
        `deliveries ${JSON.stringify(stats.deliveries)}`,
    );

    const failures: Outcome[] = reports.flatMap((r) => r.failures).sort((a, b) => a.index - b.index);
    if (failures.length > 0) {
      const first = failures[0]!;
      const reproduce = `CONVERGENCE_SEED=${SEED} CONVERGENCE_ONLY=${first.index}`;
      console.log(`convergence FAILED: seed ${SEED}, schedule ${first.index} (rerun with ${reproduce})`);
      console.log(first.log.slice(-150).join('\n'));
      assert.fail(
        `convergence seed ${SEED}, schedule ${first.index} (rerun: ${reproduce}):\n  ` + first.problems.slice(0, 25).join('\n  '),
      );
    }
    assert.equal(stats.schedules, indexes.length, 'every schedule ran');
    if (indexes.length >= 20) {
      // Guard against the simulation quietly losing its teeth.
      for (const [kind, count] of Object.entries(stats.deliveries)) assert.ok(count > 0, `no '${kind}' delivery happened`);
      for (const key of ['puts', 'deletes', 'offlinePeriods', 'timersFired'] as const) assert.ok(stats[key] > 0, `no ${key}`);
    }
  });
});
