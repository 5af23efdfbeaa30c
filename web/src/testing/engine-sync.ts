import 'fake-indexeddb/auto';
import type { StartSync } from '@/lib/sync-react/sync-manager';
import type { SyncHandle } from '@/sync/coordinator';
import { LocalDb } from '@/sync/db';
import { SyncEngine } from '@/sync/engine';

/**
 * Starts sync as the app does, minus the multi-tab coordination: the real engine and HTTP
 * client (so calls reach the test's fake server), over a fresh database for every start, so
 * tests never see each other's entries.
 */
export function engineStarter(): StartSync & { handles: SyncHandle[] } {
  const handles: SyncHandle[] = [];
  const start: StartSync = ({ userId, onUnauthenticated }) => {
    const db = new LocalDb(`app-test-${userId}-${crypto.randomUUID()}`, userId);
    const engine = new SyncEngine({ db, onUnauthenticated });
    void engine.start();
    // As the coordinator does: every save primitive's write nudges sync.
    const stopNudges = db.onOutboxChange(() => void engine.sync());
    const handle: SyncHandle = {
      db,
      get status() {
        return engine.status;
      },
      subscribe: (listener) => engine.subscribe(listener),
      requestSync: () => void engine.sync(),
      syncNow: () => engine.sync(),
      resume: () => engine.resume(),
      stop: () => {
        stopNudges();
        engine.stop();
      },
    };
    handles.push(handle);
    return handle;
  };
  return Object.assign(start, { handles });
}
