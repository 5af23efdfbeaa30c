/**
 * Slows the page's dedicated workers as CDP's CPU throttling slows its main thread (issue 30).
 *
 * `Emulation.setCPUThrottlingRate` slows only a page's main thread: in Chromium 156 a busy loop
 * in a dedicated worker took 1.4–1.6× its unthrottled time at rate 4 (the main thread's 4×
 * throttling spins on the same two cores), not 4×, and the same command sent to the worker's own
 * target is refused ("Operation is only supported for pages, not workers"). Work moved into a
 * worker would then look about 2.5× cheaper than on a phone, whose every core is slow. So each
 * dedicated worker thread (Linux names them "DedicatedWorker") of this process's Chromium goes
 * into a cgroup (v1 cpu controller) whose CFS quota is 1/rate of one CPU: at rate 4, 2.5 ms of
 * every 10 ms. A thread the machine already starves gets less slowing than the main thread
 * (a quota caps, CDP's throttling divides), so a loaded machine flatters a worker a little.
 *
 * Needs a writable /sys/fs/cgroup/cpu (root); without it, says so and throttles nothing.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { report } from './report';

const CGROUP_ROOT = '/sys/fs/cgroup/cpu';
const PERIOD_US = 10_000;
/** How often new worker threads are looked for (each is moved within this of starting). */
const SCAN_MS = 5;

const read = (path: string) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

/** The parent of a process, or null when it is gone. */
function parentOf(pid: string): string | null {
  const stat = read(`/proc/${pid}/stat`);
  return stat ? (stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] ?? null) : null;
}

/** Whether `pid` descends from this process (the browser the bench launched, not another's). */
function ours(pid: string): boolean {
  let at: string | null = pid;
  for (let depth = 0; at && at !== '0' && depth < 8; depth += 1) {
    if (at === String(process.pid)) return true;
    at = parentOf(at);
  }
  return false;
}

export interface WorkerThrottle {
  /** Worker threads moved into the cgroup so far. */
  readonly moved: number;
  stop(): void;
}

export function throttleWorkers(rate: number): WorkerThrottle {
  if (rate <= 1) return { moved: 0, stop: () => undefined };
  const group = `${CGROUP_ROOT}/device-bench-${process.pid}`;
  try {
    if (!existsSync(group)) mkdirSync(group);
    writeFileSync(`${group}/cpu.cfs_period_us`, String(PERIOD_US));
    writeFileSync(`${group}/cpu.cfs_quota_us`, String(Math.round(PERIOD_US / rate)));
  } catch (error) {
    report(`dedicated workers NOT throttled (${String(error)}): a worker's work counts about 2.5× cheaper than on a phone`);
    return { moved: 0, stop: () => undefined };
  }
  const done = new Set<string>();
  /** Threads already named something else (a new thread is "chromium" until it names itself). */
  const others = new Set<string>();
  const renderers = new Map<string, boolean>();
  const scan = () => {
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      let renderer = renderers.get(pid);
      if (renderer === undefined) {
        const command = read(`/proc/${pid}/cmdline`) ?? '';
        renderer = command.includes('--type=renderer') && ours(pid);
        // A renderer starts as a fork of the zygote and renames itself after: asked again.
        if (renderer || !command.includes('zygote')) renderers.set(pid, renderer);
      }
      if (!renderer) continue;
      let tasks: string[];
      try {
        tasks = readdirSync(`/proc/${pid}/task`);
      } catch {
        renderers.delete(pid);
        continue;
      }
      for (const tid of tasks) {
        if (done.has(tid) || others.has(tid)) continue;
        const name = (read(`/proc/${pid}/task/${tid}/comm`) ?? '').trim();
        if (!name.startsWith('DedicatedWorker')) {
          if (name !== 'chromium') others.add(tid);
          continue;
        }
        try {
          writeFileSync(`${group}/tasks`, tid);
          done.add(tid);
        } catch {
          // Ended meanwhile.
        }
      }
    }
  };
  const timer = setInterval(scan, SCAN_MS);
  return {
    get moved() {
      return done.size;
    },
    stop() {
      clearInterval(timer);
      // Threads still alive go back to the root group, so the bench's own group can go.
      for (const tid of (read(`${group}/tasks`) ?? '').split('\n').filter(Boolean)) {
        try {
          writeFileSync(`${CGROUP_ROOT}/tasks`, tid);
        } catch {
          // Ended meanwhile.
        }
      }
      try {
        rmdirSync(group);
      } catch {
        // A thread is still in it: the group stays, empty once it ends.
      }
    },
  };
}
