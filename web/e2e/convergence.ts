// The simulation behind convergence.spec.ts (read that file first). It runs in worker threads:
// node:test tracks every promise of the test process with an async hook, which makes the
// promise-heavy Dexie/IndexedDB code several times slower; a worker has no such hook.
//
// One schedule = one guest user with 3–5 simulated devices. A device is its own IndexedDB
// database (fake-indexeddb) with the real `LocalDb`, `saveEntry` / `deleteEntry` and
// `SyncEngine`; only its network is simulated. Every request a device makes is held in a
// queue, and the schedule decides when and how it is delivered: in any order across devices,
// duplicated (concurrently, before, or long after the original), dropped before it reaches
// the server, answered with a 503, handled by the server at once with the answer arriving
// many steps later, or applied by the server with the answer lost on the way back (so the
// engine retries and the server must replay). Devices also go offline and come
// back, edit and delete records they learned from other devices, and fire their retry and
// periodic timers when the schedule says so. Between two steps the simulation waits until
// every device is idle or blocked on a held request, so a schedule follows from its seed
// (apart from the random UUIDs, which no decision depends on).
import 'fake-indexeddb/auto';
import assert from 'node:assert/strict';
import http from 'node:http';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { httpSyncApi, type SyncApi } from '../src/sync/api';
import { deleteEntry, saveEntry } from '../src/sync/commands';
import { LocalDb } from '../src/sync/db';
import { entryFieldsBeforeCouriers } from '../src/sync/default-courier';
import { SyncEngine } from '../src/sync/engine';
import { serverCopyOf, serverVersionOf } from '../src/sync/records';
import type { SyncStatus } from '../src/sync/status';
import type { EntryChange, EntryContent, LocalEntry, PullPage } from '../src/sync/types';

// ---------------------------------------------------------------------------------------
// The job a worker runs, its report, and the seeded PRNG
// ---------------------------------------------------------------------------------------

export interface ConvergenceJob {
  url: string;
  /** The run's seed; schedule i uses a seed derived from it and i. */
  seed: number;
  indexes: number[];
  /** Schedules this worker runs at once. */
  concurrency: number;
  verbose: boolean;
}

export interface Outcome {
  index: number;
  problems: string[];
  log: string[];
}

export interface ConvergenceReport {
  stats: Stats;
  failures: Outcome[];
  logs: string[];
}

/**
 * The engine parks an item after MAX_ATTEMPTS (5) failed pushes, whatever the cause (by design:
 * DESIGN.md §5). The network here never fails more pushes of one device in a row than this, so
 * a parked item can only mean the server refused valid data.
 */
const MAX_PUSH_FAILURES_IN_A_ROW = 3;

type Rng = () => number;

/** mulberry32: small, fast, good enough to drive a simulation. */
function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Derives independent seeds (one per schedule, per device...) from a parent seed. */
function mix(seed: number, salt: number): number {
  let h = (seed ^ Math.imul(salt + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const int = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));
const chance = (rng: Rng, p: number) => rng() < p;
function pick<T>(rng: Rng, items: readonly T[]): T {
  if (items.length === 0) throw new Error('pick from an empty list');
  return items[Math.floor(rng() * items.length)] as T;
}
function weighted<T extends string>(rng: Rng, table: readonly (readonly [T, number])[]): T {
  const total = table.reduce((sum, [, w]) => sum + w, 0);
  let roll = rng() * total;
  for (const [value, w] of table) {
    roll -= w;
    if (roll < 0) return value;
  }
  return table[table.length - 1]![0];
}

// ---------------------------------------------------------------------------------------
// Valid entries (crates/domain/src/entry.rs), each with a unique marker in its notes
// ---------------------------------------------------------------------------------------

const DAY_MS = 86_400_000;
/** The courier and first rate card every new account holds (crates/domain/src/defaults.rs). */
const STARTER_RECORDS = 2;
const FIRST_DAY = Date.UTC(2000, 0, 1);
const DAYS = (Date.UTC(2100, 11, 31) - FIRST_DAY) / DAY_MS;
const NOTE_CHARS = ['a', 'b', 'k', 'z', ' ', ' ', '.', ',', 'é', 'ß', '£', '€', '🚚', '📦', '\n', '"', '\\', '<'];

function markerOf(notes: string): string | null {
  return /^#(s\d+d\d+w\d+)#/.exec(notes)?.[1] ?? null;
}

function randomContent(rng: Rng, marker: string, userId: string): EntryContent {
  const date = new Date(FIRST_DAY + int(rng, 0, DAYS) * DAY_MS).toISOString().slice(0, 10);
  const stops = chance(rng, 0.05) ? pick(rng, [0, 1000]) : int(rng, 0, 1000);
  const extra = chance(rng, 0.4) ? 0 : chance(rng, 0.05) ? 1_000_000 : int(rng, 0, 1_000_000);
  const pay = chance(rng, 0.05) ? 10_000_000 : int(rng, 0, stops * 10_000);
  const total = extra + pay; // total >= extra, total <= 1000 * 10_000 + 1_000_000
  const head = `#${marker}#`;
  const length = chance(rng, 0.08) ? 1000 : chance(rng, 0.3) ? 0 : int(rng, 0, 40);
  const chars = [...head];
  while (chars.length < length) chars.push(pick(rng, NOTE_CHARS));
  return { date, stops, extra, notes: chars.join(''), total, ...entryFieldsBeforeCouriers(userId) };
}

// ---------------------------------------------------------------------------------------
// The simulated network
// ---------------------------------------------------------------------------------------

interface WireRequest {
  path: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

interface Held {
  device: Device;
  req: WireRequest;
  isPush: boolean;
  /** A duplicate copy: delivered to the server, nobody waits for its answer. */
  orphan: boolean;
  /** Set once the server has answered and the answer is on its way back (slow response). */
  answer?: Promise<Response>;
  resolve: (response: Response | Promise<Response>) => void;
  reject: (error: unknown) => void;
}

export type Delivery = 'ok' | 'dup-concurrent' | 'dup-later' | 'dup-before' | 'slow' | 'drop' | 'lost' | '503';

const DELIVERIES: readonly (readonly [Delivery, number])[] = [
  ['ok', 50],
  ['dup-concurrent', 8],
  ['dup-later', 8],
  ['dup-before', 6],
  ['slow', 10],
  ['drop', 8],
  ['lost', 14],
  ['503', 6],
];

const simulatedFailure = () => new TypeError('fetch failed (simulated network failure)');

export interface Stats {
  schedules: number;
  devices: number;
  steps: number;
  puts: number;
  deletes: number;
  pushes: number;
  pulls: number;
  deliveries: Record<Delivery | 'orphan', number>;
  offlinePeriods: number;
  timersFired: number;
  bigOutboxes: number;
}

export function emptyStats(): Stats {
  return {
    schedules: 0,
    devices: 0,
    steps: 0,
    puts: 0,
    deletes: 0,
    pushes: 0,
    pulls: 0,
    deliveries: { ok: 0, 'dup-concurrent': 0, 'dup-later': 0, 'dup-before': 0, slow: 0, drop: 0, lost: 0, '503': 0, orphan: 0 },
    offlinePeriods: 0,
    timersFired: 0,
    bigOutboxes: 0,
  };
}

const stats = emptyStats();

// ---------------------------------------------------------------------------------------
// Devices and schedules
// ---------------------------------------------------------------------------------------

type Timer = ReturnType<typeof setTimeout>;

interface Device {
  index: number;
  name: string;
  db: LocalDb;
  engine: SyncEngine;
  online: boolean;
  status: SyncStatus;
  /** Sync calls (from the schedule or the engine itself) not yet settled. */
  activeSyncs: number;
  timers: Map<number, { fn: () => void; ms: number }>;
  pushFailuresInARow: number;
}

interface PutWrite {
  kind: 'put';
  device: number;
  recordId: string;
  marker: string;
  content: EntryContent;
  /** Markers of puts on this record known to have reached the server before this write. */
  after: string[];
}

interface DeleteWrite {
  kind: 'delete';
  device: number;
  recordId: string;
}

class Schedule {
  readonly rng: Rng;
  readonly devices: Device[] = [];
  readonly held: Held[] = [];
  readonly inflight = new Set<Promise<unknown>>();
  readonly log: string[] = [];
  readonly puts: PutWrite[] = [];
  readonly deletes: DeleteWrite[] = [];
  /** Record id -> marker of the put that created it (a stable, seed-determined label). */
  readonly labels = new Map<string, string>();
  readonly createdIds = new Set<string>();
  readonly ackedPuts = new Set<string>(); // markers
  readonly ackedDeletes = new Set<string>(); // `${device}:${recordId}`
  readonly rejected: string[] = [];
  clean = false;
  cookie = '';
  /** The guest's id: its default courier and first rate card have it too. */
  userId = '';
  private writeCounter = 0;

  constructor(
    readonly index: number,
    readonly seed: number,
    readonly job: ConvergenceJob,
  ) {
    this.rng = mulberry32(seed);
  }

  say(line: string): void {
    this.log.push(line);
  }

  // -- network ---------------------------------------------------------------------------

  /** Really sends a request to the server; the answer is read in full before it is returned. */
  transmit(req: WireRequest): Promise<Response> {
    const sent = httpRequest(this.job.url + req.path, req).then(
      ({ status, contentType, text }) => new Response(text, { status, headers: { 'content-type': contentType } }),
    );
    this.inflight.add(sent);
    const done = () => this.inflight.delete(sent);
    sent.then(done, done);
    return sent;
  }

  fetchFor(device: Device): typeof fetch {
    return async (input, init) => {
      const headers: Record<string, string> = { cookie: this.cookie };
      new Headers(init?.headers).forEach((value, key) => (headers[key] = value));
      const req: WireRequest = {
        path: String(input),
        method: init?.method ?? 'GET',
        headers,
        body: typeof init?.body === 'string' ? init.body : undefined,
      };
      const isPush = req.path.startsWith('/api/v1/sync/push');
      if (isPush) stats.pushes += 1;
      else stats.pulls += 1;
      if (this.clean) return this.transmit(req);
      return new Promise<Response>((resolve, reject) => {
        this.held.push({ device, req, isPush, orphan: false, resolve, reject });
      });
    };
  }

  /** Delivers one held request in the given way. */
  deliver(held: Held, requested: Delivery): void {
    this.held.splice(this.held.indexOf(held), 1);
    const what = `${held.isPush ? 'push' : 'pull'} of d${held.device.index}`;
    if (held.orphan) {
      stats.deliveries.orphan += 1;
      this.say(`  deliver late duplicate ${what}`);
      this.transmit(held.req).catch(() => undefined);
      return;
    }
    let mode = requested;
    if (held.answer && mode !== 'lost') mode = 'ok'; // the server has already answered
    const failing = mode === 'drop' || mode === 'lost' || mode === '503';
    if (held.isPush && failing && held.device.pushFailuresInARow >= MAX_PUSH_FAILURES_IN_A_ROW) mode = 'ok';
    if (held.isPush && mode !== 'dup-before' && mode !== 'slow') {
      // What the engine sees: a failure adds one attempt to every item of the batch.
      held.device.pushFailuresInARow = failing && mode !== 'ok' ? held.device.pushFailuresInARow + 1 : 0;
    }
    stats.deliveries[mode] += 1;
    this.say(`  deliver ${what}${held.answer ? ' (answered earlier)' : ''}: ${mode}`);
    if (held.answer) {
      if (mode === 'lost') held.reject(simulatedFailure());
      else held.resolve(held.answer);
      return;
    }
    switch (mode) {
      case 'ok':
        held.resolve(this.transmit(held.req));
        return;
      case 'slow': {
        // The server handles it now; the answer waits in the queue and arrives later.
        const answer = this.transmit(held.req);
        answer.catch(() => undefined);
        this.held.push({ ...held, answer });
        return;
      }
      case 'dup-concurrent': {
        const first = this.transmit(held.req);
        const second = this.transmit(held.req);
        const [shown, ignored] = chance(this.rng, 0.5) ? [first, second] : [second, first];
        ignored.catch(() => undefined);
        held.resolve(shown);
        return;
      }
      case 'dup-later':
        held.resolve(this.transmit(held.req));
        this.held.push({ ...held, orphan: true });
        return;
      case 'dup-before':
        // A copy reaches the server now; the device's own request stays queued.
        this.transmit(held.req).catch(() => undefined);
        this.held.push(held);
        return;
      case 'drop':
        held.reject(simulatedFailure());
        return;
      case 'lost':
        this.transmit(held.req).then(
          () => held.reject(simulatedFailure()),
          () => held.reject(simulatedFailure()),
        );
        return;
      case '503':
        held.resolve(new Response('Service Unavailable', { status: 503 }));
        return;
    }
  }

  // -- devices ---------------------------------------------------------------------------

  async addDevice(index: number): Promise<Device> {
    const name = `convergence-${this.job.seed}-${this.index}-d${index}-${Math.random().toString(36).slice(2)}`;
    const db = new LocalDb(name, this.userId);
    const deviceRng = mulberry32(mix(this.seed, 1000 + index));
    let timerIds = 0;
    const device = {
      index,
      name,
      db,
      online: true,
      status: { state: 'synced', lastSyncAt: null },
      activeSyncs: 0,
      timers: new Map(),
      pushFailuresInARow: 0,
    } as Omit<Device, 'engine'> as Device;
    const api = this.observedApi(device, httpSyncApi(this.fetchFor(device)));
    const engine = new SyncEngine({
      db,
      api,
      isOnline: () => device.online,
      random: deviceRng,
      now: () => 1_700_000_000_000, // lastSyncAt only: a fixed clock keeps runs alike
      setTimer: (fn, ms) => {
        timerIds += 1;
        device.timers.set(timerIds, { fn, ms });
        return timerIds as unknown as Timer;
      },
      clearTimer: (timer) => void device.timers.delete(timer as unknown as number),
      onUnauthenticated: () => this.say(`  d${index} was told its session is gone`),
    });
    // Count every sync call, including the ones the engine makes itself (reruns, timers,
    // setOnline), so the simulation knows when a device is idle.
    const sync = engine.sync.bind(engine);
    engine.sync = () => {
      device.activeSyncs += 1;
      const running = sync();
      const done = () => void (device.activeSyncs -= 1);
      running.then(done, done);
      return running;
    };
    engine.subscribe((status) => (device.status = status));
    device.engine = engine;
    this.devices.push(device);
    return device;
  }

  /** Records which writes the engine saw acknowledged, and any refusal. */
  observedApi(device: Device, inner: SyncApi): SyncApi {
    return {
      push: async (clientId, items) => {
        const results = await inner.push(clientId, items);
        const byId = new Map(items.map((i) => [i.mutationId, i]));
        for (const result of results) {
          const item = byId.get(result.id);
          if (!item) continue;
          if (result.status !== 'applied') {
            this.rejected.push(`d${device.index} ${item.name} ${item.recordId}: ${result.code} ${result.message}`);
            continue;
          }
          if (item.name === 'entry.put') {
            const marker = markerOf(String((item.args as { notes?: unknown }).notes ?? ''));
            if (marker) this.ackedPuts.add(marker);
          } else {
            this.ackedDeletes.add(`${device.index}:${item.recordId}`);
          }
        }
        return results;
      },
      pull: (cursor, limit) => inner.pull(cursor, limit),
    };
  }

  /** True when no device has work it could do without the schedule delivering something. */
  private idle(): boolean {
    if (this.inflight.size > 0) return false;
    return this.devices.every((d) => d.activeSyncs === 0 || this.held.some((h) => h.device === d && !h.orphan));
  }

  /** Waits until every device is idle or blocked on a held request. */
  async settle(): Promise<void> {
    const deadline = Date.now() + 20_000;
    for (let confirmations = 0; confirmations < 2; ) {
      if (Date.now() > deadline) throw new Error('the simulation did not settle in 20 s');
      if (this.inflight.size > 0) {
        await Promise.race([...this.inflight]).catch(() => undefined);
        confirmations = 0;
        continue;
      }
      await new Promise((done) => setImmediate(done));
      confirmations = this.idle() ? confirmations + 1 : 0;
    }
  }

  // -- user actions ----------------------------------------------------------------------

  nextMarker(device: Device): string {
    this.writeCounter += 1;
    return `s${this.index}d${device.index}w${this.writeCounter}`;
  }

  async liveRecords(device: Device): Promise<LocalEntry[]> {
    const live = await device.db.entries.filter((e) => e.deleted === 0).toArray();
    const label = (e: LocalEntry) => this.labels.get(e.id) ?? e.id;
    return live.sort((a, b) => (label(a) < label(b) ? -1 : label(a) > label(b) ? 1 : 0));
  }

  async write(device: Device): Promise<void> {
    const live = await this.liveRecords(device);
    const roll = this.rng();
    if (live.length === 0 || roll < 0.35) {
      const marker = this.nextMarker(device);
      const content = randomContent(this.rng, marker, device.db.userId);
      const entry = await saveEntry(device.db, content);
      this.labels.set(entry.id, marker);
      this.createdIds.add(entry.id);
      this.puts.push({ kind: 'put', device: device.index, recordId: entry.id, marker, content, after: [] });
      stats.puts += 1;
      this.say(`d${device.index} creates ${marker}`);
    } else if (roll < 0.8) {
      const target = pick(this.rng, live);
      const marker = this.nextMarker(device);
      const content = randomContent(this.rng, marker, device.db.userId);
      const server = serverCopyOf('entry', target);
      const confirmed = server ? markerOf(server.notes) : null;
      const earlier = this.puts.filter((p) => p.device === device.index && p.recordId === target.id).map((p) => p.marker);
      await saveEntry(device.db, content, target.id);
      this.puts.push({
        kind: 'put',
        device: device.index,
        recordId: target.id,
        marker,
        content,
        after: confirmed ? [...earlier, confirmed] : earlier,
      });
      stats.puts += 1;
      this.say(`d${device.index} edits ${this.labels.get(target.id)} -> ${marker}`);
    } else {
      const target = pick(this.rng, live);
      await deleteEntry(device.db, target.id);
      this.deletes.push({ kind: 'delete', device: device.index, recordId: target.id });
      stats.deletes += 1;
      this.say(`d${device.index} deletes ${this.labels.get(target.id)}`);
    }
    if (chance(this.rng, 0.7)) void device.engine.sync(); // the app nudges the engine after a write
  }

  async step(): Promise<void> {
    const device = pick(this.rng, this.devices);
    const withTimers = this.devices.filter((d) => d.timers.size > 0);
    const action = weighted(this.rng, [
      ['write', 36],
      ['deliver', this.held.length > 0 ? 34 : 0],
      ['sync', 8],
      ['poke', 4],
      ['offline', device.online ? 5 : 0],
      ['online', device.online ? 0 : 9],
      ['timer', withTimers.length > 0 ? 4 : 0],
    ]);
    switch (action) {
      case 'write':
        await this.write(device);
        break;
      case 'deliver':
        this.deliver(pick(this.rng, this.held), weighted(this.rng, DELIVERIES));
        break;
      case 'sync':
        this.say(`d${device.index} syncs`);
        void device.engine.sync();
        break;
      case 'poke':
        this.say('poke: every online device pulls');
        for (const d of this.devices) if (d.online) void d.engine.sync();
        break;
      case 'offline':
        stats.offlinePeriods += 1;
        this.say(`d${device.index} goes offline`);
        device.online = false;
        device.engine.setOnline(false);
        break;
      case 'online':
        this.say(`d${device.index} comes back online`);
        device.online = true;
        device.engine.setOnline(true);
        break;
      case 'timer': {
        const d = pick(this.rng, withTimers);
        const [id, timer] = pick(this.rng, [...d.timers.entries()]);
        d.timers.delete(id);
        stats.timersFired += 1;
        this.say(`d${d.index} timer fires (${timer.ms} ms)`);
        timer.fn();
        break;
      }
    }
    await this.settle();
  }

  // -- the end: clean network, drain, compare ---------------------------------------------

  async serverState(): Promise<{ changes: EntryChange[]; cursor: number }> {
    const changes: EntryChange[] = [];
    let cursor = 0;
    for (;;) {
      const res = await httpRequest(`${this.job.url}/api/v1/sync/pull?cursor=${cursor}&limit=1000`, {
        path: '',
        method: 'GET',
        headers: { cookie: this.cookie },
        body: undefined,
      });
      assert.equal(res.status, 200, `server pull failed: ${res.status} ${res.text}`);
      const page = JSON.parse(res.text) as PullPage;
      // The simulated devices only write entries; the rest are the account's starter records.
      changes.push(...page.changes.filter((c): c is EntryChange => c.kind === 'entry'));
      cursor = page.cursor;
      if (!page.hasMore) return { changes, cursor };
    }
  }

  async drain(): Promise<{ changes: EntryChange[]; cursor: number }> {
    this.say('-- clean network, every device online');
    this.clean = true;
    for (const held of [...this.held]) this.deliver(held, 'ok');
    for (const d of this.devices) {
      if (!d.online) {
        d.online = true;
        d.engine.setOnline(true);
      }
    }
    await this.settle();
    let previous = -1;
    for (let round = 0; round < 8; round += 1) {
      for (const d of this.devices) await d.engine.sync();
      await this.settle();
      const state = await this.serverState();
      const cursors = await Promise.all(this.devices.map((d) => d.db.getMeta<number>('cursor', 0)));
      const outboxes = await Promise.all(this.devices.map((d) => d.db.outbox.where('parked').equals(0).count()));
      const quiet = cursors.every((c) => c === state.cursor) && outboxes.every((n) => n === 0);
      if (quiet && state.cursor === previous) return state;
      previous = quiet ? state.cursor : -1;
    }
    throw new Error('devices did not converge within 8 clean sync rounds');
  }

  async check(state: { changes: EntryChange[]; cursor: number }): Promise<string[]> {
    const problems: string[] = [];
    const fail = (message: string) => problems.push(message);
    const label = (id: string) => this.labels.get(id) ?? `unknown record ${id}`;

    // The server's records, each once.
    const server = new Map<string, EntryChange>();
    for (const change of state.changes) {
      if (server.has(change.id)) fail(`server returned ${label(change.id)} twice in a full pull`);
      server.set(change.id, change);
    }

    // (3) 0 duplicates: exactly the records devices created, one change per distinct write at most.
    for (const id of server.keys()) if (!this.createdIds.has(id)) fail(`server holds ${id}, which no device created`);
    for (const id of this.createdIds) if (!server.has(id)) fail(`server lost ${label(id)} (created on a device)`);
    // Every account starts with two records of its own: its courier and that courier's first card.
    const writes = STARTER_RECORDS + this.puts.length + this.deletes.length;
    if (state.cursor > writes) fail(`server made ${state.cursor} changes for ${writes} distinct writes: something applied twice`);
    for (const message of this.rejected) fail(`server rejected valid data: ${message}`);

    // (1) every device equals the server.
    for (const d of this.devices) {
      if (d.status.state !== 'synced') fail(`d${d.index} ended in state ${JSON.stringify(d.status)}`);
      const outbox = await d.db.outbox.toArray();
      for (const item of outbox) {
        fail(`d${d.index} outbox still holds ${item.name} ${label(item.recordId)} (parked=${item.parked}, attempts=${item.attempts}, ${item.lastError})`);
      }
      const entries = await d.db.entries.toArray();
      const local = new Map(entries.map((e) => [e.id, e]));
      for (const id of server.keys()) if (!local.has(id)) fail(`d${d.index} is missing ${label(id)}`);
      for (const entry of entries) {
        const remote = server.get(entry.id);
        if (!remote) {
          fail(`d${d.index} holds ${label(entry.id)}, which the server does not`);
          continue;
        }
        if (entry.syncState !== 'synced') fail(`d${d.index} ${label(entry.id)} is ${entry.syncState}`);
        if (Boolean(entry.deleted) !== remote.deleted) {
          fail(`d${d.index} ${label(entry.id)}: deleted=${Boolean(entry.deleted)}, server deleted=${remote.deleted}`);
          continue;
        }
        if (remote.deleted || !remote.data) continue;
        const mine = { date: entry.date, stops: entry.stops, extra: entry.extra, notes: entry.notes, total: entry.total };
        const theirs = { date: remote.data.date, stops: remote.data.stops, extra: remote.data.extra, notes: remote.data.notes, total: remote.data.total };
        try {
          assert.deepStrictEqual(mine, theirs);
        } catch {
          fail(`d${d.index} ${label(entry.id)} holds ${markerOf(mine.notes)}, server holds ${markerOf(theirs.notes)}: ${JSON.stringify(mine)} != ${JSON.stringify(theirs)}`);
        }
        if (serverVersionOf(entry) !== remote.version) {
          fail(`d${d.index} ${label(entry.id)} remembers server version ${serverVersionOf(entry)}, server is at ${remote.version}`);
        }
      }
    }

    // (2) 0 lost acknowledged writes.
    const deletedIds = new Set(this.deletes.map((w) => w.recordId));
    for (const put of this.puts) {
      if (!this.ackedPuts.has(put.marker)) fail(`put ${put.marker} was never acknowledged`);
      const remote = server.get(put.recordId);
      if (!remote) fail(`acknowledged put ${put.marker} left no record on the server`);
      else if (remote.deleted && !deletedIds.has(put.recordId)) fail(`put ${put.marker}: ${label(put.recordId)} is deleted on the server but no device deleted it`);
    }
    for (const del of this.deletes) {
      if (!this.ackedDeletes.has(`${del.device}:${del.recordId}`)) fail(`delete of ${label(del.recordId)} by d${del.device} was never acknowledged`);
      if (!server.get(del.recordId)?.deleted) fail(`acknowledged delete of ${label(del.recordId)} by d${del.device} is not a tombstone on the server`);
    }
    for (const [id, remote] of server) {
      if (remote.deleted) continue;
      if (deletedIds.has(id)) fail(`${label(id)} was deleted by a device but is live on the server`);
      const marker = remote.data ? markerOf(remote.data.notes) : null;
      const winner = this.puts.find((p) => p.marker === marker);
      if (!winner || winner.recordId !== id) {
        fail(`${label(id)} holds content (${marker}) that no device wrote for it`);
        continue;
      }
      const { createdAt: _c, updatedAt: _u, ...content } = remote.data!;
      try {
        assert.deepStrictEqual(content, winner.content);
      } catch {
        fail(`${label(id)} holds ${marker} but not as written: ${JSON.stringify(content)} != ${JSON.stringify(winner.content)}`);
      }
      const superseding = this.puts.find((p) => p.recordId === id && p.after.includes(winner.marker));
      if (superseding) {
        fail(`${label(id)} ended as ${winner.marker}, but ${superseding.marker} (d${superseding.device}) was written after ${winner.marker} reached the server`);
      }
    }
    return problems;
  }

  async close(): Promise<void> {
    for (const d of this.devices) {
      d.engine.stop();
      d.db.close();
      await d.db.delete();
    }
  }
}

// node:http with keep-alive: the simulation sends thousands of small requests, and Node's
// fetch costs several times more CPU per request than the server takes to answer it.
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function httpRequest(url: string, req: WireRequest): Promise<{ status: number; contentType: string; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(url, { method: req.method, headers: req.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type'] ?? 'text/plain'),
          text: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(req.body);
  });
}

async function newGuest(url: string): Promise<{ cookie: string; userId: string }> {
  const res = await fetch(`${url}/api/v1/auth/guest`, { method: 'POST' });
  const body = await res.text();
  assert.equal(res.status, 201, `guest sign-in failed: ${res.status} ${body}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .find((c) => c.startsWith('__Host-session='));
  assert.ok(cookie, 'guest sign-in set no __Host-session cookie');
  const { user } = JSON.parse(body) as { user: { id: string } };
  return { cookie, userId: user.id };
}

async function runSchedule(job: ConvergenceJob, index: number): Promise<Outcome> {
  const schedule = new Schedule(index, mix(job.seed, index), job);
  try {
    ({ cookie: schedule.cookie, userId: schedule.userId } = await newGuest(job.url));
    const rng = schedule.rng;
    const deviceCount = int(rng, 3, 5);
    const steps = deviceCount * int(rng, 15, 30);
    stats.schedules += 1;
    stats.devices += deviceCount;
    stats.steps += steps;
    schedule.say(`schedule ${index}: ${deviceCount} devices, ${steps} steps`);
    for (let i = 0; i < deviceCount; i += 1) {
      const device = await schedule.addDevice(i);
      device.online = chance(rng, 0.75);
      if (!device.online) schedule.say(`d${i} starts offline`);
      await device.engine.start();
      await schedule.settle();
    }
    if (chance(rng, 0.05)) {
      // Now and then a device piles up more than one push batch (PUSH_BATCH = 100) offline.
      const device = schedule.devices[0]!;
      const writes = int(rng, 101, 130);
      stats.bigOutboxes += 1;
      schedule.say(`d0 goes offline for ${writes} writes`);
      device.online = false;
      device.engine.setOnline(false);
      for (let i = 0; i < writes; i += 1) await schedule.write(device);
      await schedule.settle();
    }
    for (let i = 0; i < steps; i += 1) await schedule.step();
    const state = await schedule.drain();
    return { index, problems: await schedule.check(state), log: schedule.log };
  } catch (error) {
    return { index, problems: [`schedule crashed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`], log: schedule.log };
  } finally {
    await schedule.close();
  }
}

/** Runs the job's schedules, a few at once, and stops at the first failing one. */
export async function runConvergence(job: ConvergenceJob): Promise<ConvergenceReport> {
  const failures: Outcome[] = [];
  const logs: string[] = [];
  let next = 0;
  async function lane(): Promise<void> {
    while (next < job.indexes.length && failures.length === 0) {
      const outcome = await runSchedule(job, job.indexes[next++]!);
      if (job.verbose) logs.push(outcome.log.join('\n'));
      if (outcome.problems.length > 0) failures.push(outcome);
    }
  }
  await Promise.all(Array.from({ length: Math.min(job.concurrency, job.indexes.length) }, lane));
  agent.destroy();
  return { stats, failures, logs };
}

if (!isMainThread && (workerData as { convergenceJob?: ConvergenceJob } | null)?.convergenceJob) {
  const job = (workerData as { convergenceJob: ConvergenceJob }).convergenceJob;
  runConvergence(job).then(
    (report) => parentPort!.postMessage({ report }),
    (error: unknown) => parentPort!.postMessage({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
}
