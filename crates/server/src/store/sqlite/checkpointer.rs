//! WAL checkpoints on a thread of their own, so the writer's commits never stop to copy pages.
//!
//! By default SQLite checkpoints inside the COMMIT that takes the WAL past 1,000 pages, on the
//! committing connection: it syncs the WAL, copies every page written since into the database
//! file and syncs that, while every push queued behind the commit waits. Here, after commits,
//! this thread runs a PASSIVE checkpoint on its own connection: it copies pages while the
//! writer goes on appending, and takes no lock the writer needs. The writer still checkpoints
//! itself past `WRITER_BACKSTOP_PAGES`; that only happens when this thread has fallen behind
//! or the WAL could not start over (SQLite starts the WAL again only when a write begins with
//! every frame copied back, and under a steady stream of commits that moment seldom comes; the
//! writer's own checkpoint is then short, as most frames are already copied).

use std::{
    path::Path,
    sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError},
    thread,
    time::Duration,
};

use rusqlite::{Connection, OpenFlags};

/// How long the checkpointer lets commits gather after the first one it hears of, so one
/// checkpoint (and its fsync of the database file) covers many commits.
const GATHER: Duration = Duration::from_millis(20);

/// WAL pages past which the writing connection checkpoints by itself.
pub const WRITER_BACKSTOP_PAGES: u32 = 8_000;

pub struct Checkpointer {
    shared: Arc<Shared>,
    thread: Option<thread::JoinHandle<()>>,
}

struct Shared {
    state: Mutex<State>,
    wake: Condvar,
}

#[derive(Default)]
struct State {
    /// Commits were made since the last checkpoint began.
    pending: bool,
    closed: bool,
    /// Checkpoints run (tests).
    runs: u64,
}

impl Checkpointer {
    /// Starts the thread; its connection to `path` opens at the first commit, so an idle
    /// server holds none.
    pub fn start(path: &Path) -> std::io::Result<Checkpointer> {
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            wake: Condvar::new(),
        });
        let thread_shared = Arc::clone(&shared);
        let path = path.to_owned();
        let thread = thread::Builder::new()
            .name("sqlite-checkpoint".into())
            .spawn(move || checkpoint_after_commits(&thread_shared, &path))?;
        Ok(Checkpointer {
            shared,
            thread: Some(thread),
        })
    }

    /// Tells the thread a commit was made. Cheap: it wakes the thread only on the first commit
    /// since the last checkpoint began.
    pub fn committed(&self) {
        let mut state = self.shared.lock();
        if !state.pending {
            state.pending = true;
            self.shared.wake.notify_one();
        }
    }

    #[cfg(test)]
    fn runs(&self) -> u64 {
        self.shared.lock().runs
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.wake.notify_one();
        if let Some(thread) = self.thread.take() {
            // At most one checkpoint's time: the gathering wait ends when closed.
            let _ = thread.join();
        }
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits until `until` holds or the checkpointer closes (or `limit` passes, if given);
    /// answers whether it closed.
    fn wait(&self, limit: Option<Duration>, until: impl Fn(&State) -> bool) -> bool {
        let mut state = self.lock();
        let deadline = limit.map(|limit| std::time::Instant::now() + limit);
        while !state.closed && !until(&state) {
            state = match deadline {
                None => self
                    .wake
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner),
                Some(deadline) => {
                    let Some(left) = deadline.checked_duration_since(std::time::Instant::now())
                    else {
                        break;
                    };
                    self.wake
                        .wait_timeout(state, left)
                        .unwrap_or_else(PoisonError::into_inner)
                        .0
                }
            };
        }
        state.closed
    }
}

fn checkpoint_after_commits(shared: &Shared, path: &Path) {
    let mut conn: Option<Connection> = None;
    loop {
        if shared.wait(None, |state| state.pending) {
            return;
        }
        // Let more commits gather; a close ends the wait (and the thread) at once.
        if shared.wait(Some(GATHER), |_| false) {
            return;
        }
        shared.lock().pending = false;
        if conn.is_none() {
            conn = open(path)
                .inspect_err(
                    |err| tracing::warn!(error = %err, "opening the checkpoint connection"),
                )
                .ok();
        }
        if let Some(conn) = &conn {
            // PASSIVE: copies what no reader still needs, never waits for a lock and never
            // blocks the writer. Its counts are not needed: whatever it leaves is copied next
            // time, or by the writer's backstop.
            if let Err(err) = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(())) {
                tracing::warn!(error = %err, "WAL checkpoint failed");
            }
        }
        shared.lock().runs += 1;
    }
}

fn open(path: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    // This connection never writes a row, so it never checkpoints on commit itself.
    conn.execute_batch("PRAGMA wal_autocheckpoint = 0;")?;
    Ok(conn)
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;
    use crate::store::sqlite::writer::Writer;

    /// A WAL database in `dir` whose writing connection would checkpoint only at the backstop.
    fn writing_connection(dir: &Path) -> Connection {
        let conn = Connection::open(dir.join("db.sqlite")).unwrap();
        conn.execute_batch(&format!(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;
             PRAGMA wal_autocheckpoint = {WRITER_BACKSTOP_PAGES};
             CREATE TABLE t (n INTEGER NOT NULL, pad TEXT NOT NULL);"
        ))
        .unwrap();
        conn
    }

    /// The database file's own size: pages reach it only at a checkpoint.
    fn main_file_bytes(dir: &Path) -> u64 {
        std::fs::metadata(dir.join("db.sqlite")).unwrap().len()
    }

    /// Polls `done` for up to a minute (a bound for a busy machine, not a timing claim).
    fn eventually(done: impl Fn() -> bool) -> bool {
        let give_up = Instant::now() + Duration::from_secs(60);
        while Instant::now() < give_up {
            if done() {
                return true;
            }
            thread::sleep(Duration::from_millis(5));
        }
        done()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_writers_commits_are_copied_back_by_the_checkpoint_thread() {
        let dir = tempfile::tempdir().unwrap();
        let conn = writing_connection(dir.path());
        let writer = Writer::start(
            conn,
            Some(Checkpointer::start(&dir.path().join("db.sqlite")).unwrap()),
        )
        .unwrap();
        let before = main_file_bytes(dir.path());
        // About 250 pages: far below the writer's own backstop, so only the thread copies them.
        for n in 0..50 {
            writer
                .write(move |conn| {
                    for i in 0..20 {
                        conn.execute(
                            "INSERT INTO t (n, pad) VALUES (?1, ?2)",
                            rusqlite::params![n * 20 + i, "x".repeat(4000)],
                        )
                        .map_err(crate::store::sqlite::db_err)?;
                    }
                    Ok(())
                })
                .await
                .unwrap();
        }
        assert!(
            eventually(|| main_file_bytes(dir.path()) > before + 200 * 4096),
            "the database file stayed at {} bytes",
            main_file_bytes(dir.path())
        );
        // Every row is there, read through a fresh connection.
        let reader = Connection::open(dir.path().join("db.sqlite")).unwrap();
        let rows: i64 = reader
            .query_row("SELECT count(*) FROM t", [], |r| r.get(0))
            .unwrap();
        assert_eq!(rows, 1000);
    }

    #[test]
    fn an_idle_checkpointer_runs_nothing_and_stops_when_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let _conn = writing_connection(dir.path());
        let checkpointer = Checkpointer::start(&dir.path().join("db.sqlite")).unwrap();
        thread::sleep(GATHER * 3);
        assert_eq!(checkpointer.runs(), 0);
        checkpointer.committed();
        assert!(eventually(|| checkpointer.runs() == 1));
        // Dropping joins the thread (a hang here would stall the test, not pass it).
        drop(checkpointer);
    }
}
