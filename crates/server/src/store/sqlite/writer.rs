//! The single SQLite writer, with group commit.
//!
//! SQLite allows one writer at a time, and the expensive part of a write is the fsync at
//! COMMIT. So one connection does every write: whoever holds it drains every job that is
//! waiting, runs each inside its own SAVEPOINT (a failing job rolls back alone; a job alone in
//! its transaction needs none, its failure rolls the transaction back) and commits them all
//! with one fsync. Callers get their result only after that COMMIT succeeded, so an
//! acknowledged write is durable. Work that may run again (`write_rerunnable`: pushes) shares
//! a commit without savepoints; should any of it fail, the transaction is rolled back and the
//! batch runs again the guarded way, so a failure still undoes only its own job.
//!
//! Who holds the connection: a lone write (the connection free, nothing queued, and the last
//! `LEAD_AFTER_LONE_COMMITS` commits carried one job each) commits on the caller's own thread
//! (`block_in_place` on the multi-threaded runtime), so it costs no thread hand-off at all; the
//! two wake-ups of a hand-off there and back were most of a one-connection push's latency
//! beside the fsync. Every other write queues, and the writer thread commits the queue
//! whenever the connection is free: under load the queue batches anyway, and leading would
//! launch a worker thread per commit.

use std::{
    collections::VecDeque,
    panic::{AssertUnwindSafe, catch_unwind},
    sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError},
    thread,
};

use anyhow::anyhow;
use rusqlite::Connection;
use tokio::{runtime::RuntimeFlavor, sync::oneshot};

use super::checkpointer::Checkpointer;
use crate::store::{StoreError, StoreResult, WriteCommits};

/// Runs after COMMIT (or its failure) to hand the job's result to its caller.
type Completion = Box<dyn FnOnce(Result<(), &str>) + Send>;
type Job = Box<dyn QueuedJob>;

/// A write waiting for a group commit.
trait QueuedJob: Send {
    /// Does the work in the open transaction (or learns why there is none), keeping a
    /// failure's changes out of it as `undo` says; answers whether it failed.
    fn run(&mut self, conn: Result<&Connection, &str>, undo: Undo) -> bool;
    /// Whether the work may run again after its transaction was rolled back.
    fn may_rerun(&self) -> bool;
    /// Hands the outcome of its last run to the caller once the COMMIT's is known.
    fn complete(self: Box<Self>) -> Completion;
}

/// How a failing job's changes are undone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Undo {
    /// In its own SAVEPOINT, rolled back alone: other jobs share the transaction.
    Savepoint,
    /// No savepoint: the caller rolls the whole transaction back. For a job alone in its
    /// transaction, and for a shared commit of jobs that may run again (which then run again,
    /// each in its own savepoint). A savepoint makes SQLite copy every page the job first
    /// touches into a statement journal (a push of 10 spilled it into a new temporary file on
    /// every commit): measured, a fifth of a one-connection push's CPU time; and shared
    /// commits of pushes without them carried 1.12-1.17x the pushes at batch 10 on a grown
    /// database, writing half the bytes.
    Transaction,
}

/// A caller's work and, once it ran, its outcome.
struct Queued<T, F> {
    work: F,
    may_rerun: bool,
    outcome: Option<StoreResult<T>>,
    reply: oneshot::Sender<StoreResult<T>>,
}

impl<T, F> QueuedJob for Queued<T, F>
where
    T: Send + 'static,
    F: FnMut(&Connection) -> StoreResult<T> + Send + 'static,
{
    fn run(&mut self, conn: Result<&Connection, &str>, undo: Undo) -> bool {
        let outcome = match conn {
            Ok(conn) => match undo {
                Undo::Savepoint => in_savepoint(conn, &mut self.work),
                Undo::Transaction => caught(conn, &mut self.work),
            }
            .map_err(|err| super::readonly::explain_store(err, conn.path())),
            Err(why) => Err(backend(why)),
        };
        let failed = outcome.is_err();
        self.outcome = Some(outcome);
        failed
    }

    fn may_rerun(&self) -> bool {
        self.may_rerun
    }

    fn complete(self: Box<Self>) -> Completion {
        let Queued { outcome, reply, .. } = *self;
        let outcome = outcome.unwrap_or_else(|| Err(backend("a write job never ran")));
        Box::new(move |commit: Result<(), &str>| {
            let _ = reply.send(commit.map_err(backend).and(outcome));
        })
    }
}

/// Upper bound on one group commit, so one transaction never grows without limit.
const MAX_JOBS_PER_COMMIT: usize = 256;

/// A caller leads (commits on its own thread) only after this many commits in a row carried
/// one job each. Under load a commit of one job still happens now and then (at 16
/// connections about one commit in 26), and each lead there hands the request thread's work
/// to another thread for the length of a commit: leading after any single lone commit gave
/// 0.93x the pushes at 16 connections and 1.09x the server's CPU per push (median of 5
/// rounds). One client pushing alone makes every commit a lone one, so it leads from its
/// fourth push on.
const LEAD_AFTER_LONE_COMMITS: u32 = 3;

/// A handle on the writer. The writer thread ends, and the connection closes, once every
/// clone is dropped and the queue is empty.
#[derive(Clone)]
pub struct Writer {
    handle: Arc<Handle>,
}

struct Handle {
    shared: Arc<Shared>,
}

struct Shared {
    state: Mutex<State>,
    /// Wakes the writer thread: a job was queued, the connection came back, or the store closed.
    wake: Condvar,
    /// Hears of every commit, to copy the WAL back on its own thread (none in some tests).
    checkpointer: Option<Checkpointer>,
}

struct State {
    /// `None` while someone commits with it.
    conn: Option<Connection>,
    queue: VecDeque<Job>,
    closed: bool,
    /// Commits in a row that carried one job (up to `LEAD_AFTER_LONE_COMMITS`): nobody else
    /// was writing, so the next caller may lead.
    lone_commits: u32,
    /// Commits made, and the jobs they carried (`/metrics`: jobs per fsync).
    commits: WriteCommits,
}

impl Writer {
    pub fn start(conn: Connection, checkpointer: Option<Checkpointer>) -> std::io::Result<Writer> {
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                conn: Some(conn),
                queue: VecDeque::new(),
                closed: false,
                // A new store has no writers yet: its first caller leads.
                lone_commits: LEAD_AFTER_LONE_COMMITS,
                commits: WriteCommits::default(),
            }),
            wake: Condvar::new(),
            checkpointer,
        });
        let thread_shared = Arc::clone(&shared);
        thread::Builder::new()
            .name("sqlite-writer".into())
            .spawn(move || commit_queued(&thread_shared))?;
        Ok(Writer {
            handle: Arc::new(Handle { shared }),
        })
    }

    /// The commits made so far and the jobs they carried.
    pub fn commits(&self) -> WriteCommits {
        self.handle.shared.lock().commits
    }

    /// Runs `work` in the next group commit and returns once that commit is durable.
    pub async fn write<T, F>(&self, work: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> StoreResult<T> + Send + 'static,
    {
        let mut work = Some(work);
        let once = move |conn: &Connection| match work.take() {
            Some(work) => work(conn),
            None => Err(backend("a write that runs once was run again")),
        };
        self.enqueue(once, false).await
    }

    /// Like `write`, for work that may run more than once: its effects are in the database
    /// alone, so after a rollback it can run afresh. A commit shared only by such work runs it
    /// without savepoints; if any of it fails, the transaction is rolled back and every job
    /// runs again, each in its own savepoint.
    pub async fn write_rerunnable<T, F>(&self, work: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: Fn(&Connection) -> StoreResult<T> + Send + 'static,
    {
        self.enqueue(work, true).await
    }

    async fn enqueue<T, F>(&self, work: F, may_rerun: bool) -> StoreResult<T>
    where
        T: Send + 'static,
        F: FnMut(&Connection) -> StoreResult<T> + Send + 'static,
    {
        let (reply, result) = oneshot::channel::<StoreResult<T>>();
        let job: Job = Box::new(Queued {
            work,
            may_rerun,
            outcome: None,
            reply,
        });
        let shared = &self.handle.shared;
        let taken = {
            let mut state = shared.lock();
            state.queue.push_back(job);
            // Only a lone writer leads: under load, `block_in_place` would launch a worker
            // thread per commit (measured: 10-15 % fewer pushes at 16 connections and ~13 MB
            // more RSS), while the queue batches anyway. Only the multi-threaded runtime can
            // lend this thread to a blocking commit; on a current-thread runtime (some tests,
            // the CLI) the writer thread does it.
            let lead = state.lone_commits >= LEAD_AFTER_LONE_COMMITS
                && state.queue.len() == 1
                && can_block_in_place();
            let taken = if lead { state.conn.take() } else { None };
            // A held connection wakes the writer thread itself when it comes back.
            if taken.is_none() && state.conn.is_some() {
                shared.wake.notify_one();
            }
            taken
        };
        if let Some(conn) = taken {
            tokio::task::block_in_place(|| shared.commit_with(conn));
        }
        result
            .await
            .map_err(|_| backend("the SQLite writer dropped a job"))?
    }
}

fn can_block_in_place() -> bool {
    tokio::runtime::Handle::try_current()
        .is_ok_and(|runtime| runtime.runtime_flavor() == RuntimeFlavor::MultiThread)
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // Jobs run outside the lock (and their panics are caught), so a poisoned lock still
        // guards a consistent queue.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Commits what is queued (the caller's job among it) with the connection it took, then
    /// gives the connection back. Jobs queued meanwhile are left to the writer thread, so a
    /// caller never commits for others for longer than one batch. (Running the jobs that
    /// arrive while a batch runs in that same transaction was measured on a grown database:
    /// ~10 pushes per commit at 16 connections, but no more pushes per second.)
    fn commit_with(&self, conn: Connection) {
        let mut held = ReturnOnDrop {
            shared: self,
            conn: Some(conn),
            jobs: 0,
        };
        let (completions, commit) = commit_batch(held.conn(), self.take_batch());
        held.jobs = completions.len();
        // The connection goes back before anyone hears of their write, so a caller that
        // writes again at once finds it free.
        drop(held);
        if let (Some(checkpointer), Ok(())) = (&self.checkpointer, &commit) {
            checkpointer.committed();
        }
        for complete in completions {
            complete(commit.as_ref().map(|_| ()).map_err(String::as_str));
        }
    }

    fn take_batch(&self) -> Vec<Job> {
        let mut state = self.lock();
        let count = state.queue.len().min(MAX_JOBS_PER_COMMIT);
        state.queue.drain(..count).collect()
    }
}

/// Gives the connection back even if a commit unwinds, so one panic never stops every write.
struct ReturnOnDrop<'a> {
    shared: &'a Shared,
    conn: Option<Connection>,
    /// The jobs the commit carried (0 if it unwound).
    jobs: usize,
}

impl ReturnOnDrop<'_> {
    fn conn(&self) -> &Connection {
        self.conn.as_ref().expect("held until dropped")
    }
}

impl Drop for ReturnOnDrop<'_> {
    fn drop(&mut self) {
        let mut state = self.shared.lock();
        state.conn = self.conn.take();
        state.lone_commits = if self.jobs == 1 {
            (state.lone_commits + 1).min(LEAD_AFTER_LONE_COMMITS)
        } else {
            0
        };
        if self.jobs > 0 {
            state.commits.commits += 1;
            state.commits.jobs += self.jobs as u64;
        }
        if !state.queue.is_empty() || state.closed {
            self.shared.wake.notify_one();
        }
    }
}

impl Drop for Handle {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.wake.notify_one();
    }
}

/// The writer thread: commits whatever was queued while the connection was busy, until the
/// store is dropped and nothing is left.
fn commit_queued(shared: &Shared) {
    loop {
        let conn = {
            let mut state = shared.lock();
            loop {
                if !state.queue.is_empty()
                    && let Some(conn) = state.conn.take()
                {
                    break conn;
                }
                if state.closed && state.queue.is_empty() && state.conn.is_some() {
                    return;
                }
                state = shared
                    .wake
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
            }
        };
        shared.commit_with(conn);
    }
}

fn backend(why: &str) -> StoreError {
    StoreError::Backend(anyhow!("sqlite write failed: {why}"))
}

/// Runs one of the fixed transaction statements through the statement cache (parsing even
/// BEGIN and SAVEPOINT on every job showed in profiles).
fn run_cached(conn: &Connection, sql: &str) -> rusqlite::Result<()> {
    conn.prepare_cached(sql)?.execute([]).map(|_| ())
}

/// Runs the batch in one transaction and returns the jobs' completions with the outcome of
/// its COMMIT, to be handed out once the connection is given back.
fn commit_batch(conn: &Connection, mut batch: Vec<Job>) -> (Vec<Completion>, Result<(), String>) {
    let ran = match begin(conn) {
        Err(why) => Err(why),
        Ok(()) if batch.len() == 1 => {
            // The lone job failed: nothing is left to commit, and its changes go.
            let failed = batch[0].run(Ok(conn), Undo::Transaction);
            Ok(if failed { "ROLLBACK" } else { "COMMIT" })
        }
        Ok(()) => match run_unguarded(conn, &mut batch) {
            Unguarded::AllRan => Ok("COMMIT"),
            Unguarded::RunGuarded => {
                for job in &mut batch {
                    job.run(Ok(conn), Undo::Savepoint);
                }
                Ok("COMMIT")
            }
            Unguarded::NoTransaction(why) => Err(why),
        },
    };
    let commit = match ran {
        Ok(statement) => end(conn, statement),
        Err(why) => {
            // No transaction: every job hears why.
            for job in &mut batch {
                job.run(Err(&why), Undo::Savepoint);
            }
            Err(why)
        }
    };
    (batch.into_iter().map(QueuedJob::complete).collect(), commit)
}

/// Where a shared commit stands after `run_unguarded`.
enum Unguarded {
    /// Every job ran and none failed: the transaction is ready to commit.
    AllRan,
    /// Nothing ran unguarded, or a job failed and the transaction was rolled back and begun
    /// again: every job is to run, each in its own savepoint.
    RunGuarded,
    /// A job failed, and after the rollback no new transaction could begin.
    NoTransaction(String),
}

/// Runs a shared batch without savepoints if every job in it may run again.
fn run_unguarded(conn: &Connection, batch: &mut [Job]) -> Unguarded {
    if !batch.iter().all(|job| job.may_rerun()) {
        return Unguarded::RunGuarded;
    }
    for job in batch.iter_mut() {
        if job.run(Ok(conn), Undo::Transaction) {
            return match run_cached(conn, "ROLLBACK")
                .map_err(|err| super::readonly::describe(&err, conn.path()))
            {
                Ok(()) => {
                    begin(conn).map_or_else(Unguarded::NoTransaction, |()| Unguarded::RunGuarded)
                }
                Err(why) => Unguarded::NoTransaction(why),
            };
        }
    }
    Unguarded::AllRan
}

fn begin(conn: &Connection) -> Result<(), String> {
    run_cached(conn, "BEGIN IMMEDIATE").map_err(|err| super::readonly::describe(&err, conn.path()))
}

/// Ends the transaction with `statement` (COMMIT or ROLLBACK); a failed COMMIT rolls back.
fn end(conn: &Connection, statement: &str) -> Result<(), String> {
    run_cached(conn, statement).map_err(|err| {
        let _ = run_cached(conn, "ROLLBACK");
        super::readonly::describe(&err, conn.path())
    })
}

/// The work, a panic turned into an error.
fn caught<T>(
    conn: &Connection,
    work: impl FnOnce(&Connection) -> StoreResult<T>,
) -> StoreResult<T> {
    catch_unwind(AssertUnwindSafe(|| work(conn)))
        .unwrap_or_else(|_| Err(backend("a write job panicked")))
}

/// A failing or panicking job undoes only its own changes.
fn in_savepoint<T>(
    conn: &Connection,
    work: impl FnOnce(&Connection) -> StoreResult<T>,
) -> StoreResult<T> {
    run_cached(conn, "SAVEPOINT job").map_err(|e| backend(&e.to_string()))?;
    let outcome = caught(conn, work);
    let end = if outcome.is_ok() {
        run_cached(conn, "RELEASE job")
    } else {
        run_cached(conn, "ROLLBACK TO job").and_then(|()| run_cached(conn, "RELEASE job"))
    };
    end.map_err(|e| backend(&e.to_string()))?;
    outcome
}

#[cfg(test)]
mod tests {
    use std::{
        sync::{Arc, Barrier},
        time::{Duration, Instant},
    };

    use super::*;
    use crate::store::sqlite::db_err;

    fn writer() -> Writer {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch("CREATE TABLE t (n INTEGER NOT NULL)")
            .unwrap();
        Writer::start(conn, None).unwrap()
    }

    fn thread_name() -> String {
        thread::current().name().unwrap_or_default().to_owned()
    }

    async fn count(writer: &Writer) -> i64 {
        writer
            .write(|conn| {
                conn.query_row("SELECT count(*) FROM t", [], |r| r.get(0))
                    .map_err(db_err)
            })
            .await
            .unwrap()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_lone_write_commits_on_the_callers_own_thread() {
        let writer = writer();
        let ran_on = writer.write(|_| Ok(thread_name())).await.unwrap();
        assert_ne!(
            ran_on, "sqlite-writer",
            "no hand-off when the connection is free"
        );
    }

    #[tokio::test(flavor = "current_thread")]
    async fn on_a_current_thread_runtime_the_writer_thread_commits() {
        let writer = writer();
        let ran_on = writer.write(|_| Ok(thread_name())).await.unwrap();
        assert_eq!(ran_on, "sqlite-writer");
    }

    /// Holds the connection inside a job that inserts 0 until `release` is passed, with
    /// `queued` writes (inserting 1..=queued, answering the thread they ran on) queued
    /// meanwhile; returns the holder's and the queued writes' answers.
    async fn queued_behind_a_held_job(writer: &Writer, queued: i64) -> (String, Vec<String>) {
        let inside = Arc::new(Barrier::new(2));
        let release = Arc::new(Barrier::new(2));
        let holder = {
            let (writer, inside, release) = (writer.clone(), inside.clone(), release.clone());
            tokio::spawn(async move {
                writer
                    .write(move |conn| {
                        conn.execute("INSERT INTO t (n) VALUES (0)", [])
                            .map_err(db_err)?;
                        inside.wait();
                        release.wait();
                        Ok(thread_name())
                    })
                    .await
            })
        };
        tokio::task::spawn_blocking(move || inside.wait())
            .await
            .unwrap();
        // The connection is held: these queue.
        let writes: Vec<_> = (1..=queued)
            .map(|n| {
                let writer = writer.clone();
                tokio::spawn(async move {
                    writer
                        .write(move |conn| {
                            conn.execute("INSERT INTO t (n) VALUES (?1)", [n])
                                .map_err(db_err)?;
                            Ok(thread_name())
                        })
                        .await
                })
            })
            .collect();
        while writer.handle.shared.lock().queue.len() < usize::try_from(queued).unwrap() {
            tokio::task::yield_now().await;
        }
        tokio::task::spawn_blocking(move || release.wait())
            .await
            .unwrap();
        let held_on = holder.await.unwrap().unwrap();
        let mut answers = Vec::new();
        for write in writes {
            answers.push(write.await.unwrap().unwrap());
        }
        (held_on, answers)
    }

    /// Writes that arrive while a commit holds the connection wait for it, then all land in
    /// one commit of the writer thread (one fsync for all of them); none is lost or run twice.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn writes_queued_behind_a_busy_connection_share_one_commit() {
        let writer = writer();
        let before = writer.commits();
        let (held_on, queued) = queued_behind_a_held_job(&writer, 20).await;
        let after = writer.commits();
        assert_eq!(
            after.commits - before.commits,
            2,
            "the holder's, then one for all 20"
        );
        assert_eq!(after.jobs - before.jobs, 21);
        // The lone holder led its commit on its own thread; the queued writes went to the
        // writer thread.
        assert_ne!(held_on, "sqlite-writer");
        assert!(
            queued.iter().all(|ran_on| ran_on == "sqlite-writer"),
            "{queued:?}"
        );
        // The last commit carried many jobs: the next writes queue too, and once
        // LEAD_AFTER_LONE_COMMITS commits in a row carried one job, callers lead again.
        for _ in 0..LEAD_AFTER_LONE_COMMITS {
            let after_load = writer.write(|_| Ok(thread_name())).await.unwrap();
            assert_eq!(after_load, "sqlite-writer");
        }
        let lone = writer.write(|_| Ok(thread_name())).await.unwrap();
        assert_ne!(lone, "sqlite-writer");
        assert_eq!(count(&writer).await, 21);
    }

    /// One transaction never grows past `MAX_JOBS_PER_COMMIT`: the rest commit next.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_commit_carries_at_most_the_batch_bound() {
        let writer = writer();
        let before = writer.commits();
        let queued = i64::try_from(MAX_JOBS_PER_COMMIT).unwrap() + 44;
        queued_behind_a_held_job(&writer, queued).await;
        let after = writer.commits();
        assert_eq!(
            after.commits - before.commits,
            3,
            "the holder's, a full one, the rest"
        );
        assert_eq!(after.jobs - before.jobs, MAX_JOBS_PER_COMMIT as u64 + 45);
        assert_eq!(count(&writer).await, queued + 1);
    }

    /// A job that panics rolls back alone, and the connection comes back for the next write.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_panicking_job_rolls_back_and_keeps_the_connection() {
        let writer = writer();
        let failed = writer
            .write(|conn| -> StoreResult<()> {
                conn.execute("INSERT INTO t (n) VALUES (1)", [])
                    .map_err(db_err)?;
                panic!("a bug in a write job")
            })
            .await;
        assert!(failed.is_err());
        writer
            .write(|conn| {
                conn.execute("INSERT INTO t (n) VALUES (2)", [])
                    .map_err(db_err)
            })
            .await
            .unwrap();
        assert_eq!(count(&writer).await, 1);
    }

    /// A failing job alone in its transaction (no savepoint) leaves nothing behind, and the
    /// connection works on.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_failing_lone_job_rolls_its_transaction_back() {
        let writer = writer();
        let failed = writer
            .write(|conn| -> StoreResult<()> {
                conn.execute("INSERT INTO t (n) VALUES (1)", [])
                    .map_err(db_err)?;
                Err(backend("refused after writing"))
            })
            .await;
        assert!(failed.is_err());
        assert_eq!(count(&writer).await, 0);
        writer
            .write(|conn| {
                conn.execute("INSERT INTO t (n) VALUES (2)", [])
                    .map_err(db_err)
            })
            .await
            .unwrap();
        assert_eq!(count(&writer).await, 1);
    }

    /// In a commit shared with others, a failing job undoes only its own changes (its
    /// savepoint); the others' commit, and nothing runs twice.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_failing_job_in_a_shared_commit_rolls_back_alone() {
        let commit = one_shared_commit([ONCE, ONCE_FAILING, ONCE]).await;
        assert_eq!(commit, ([true, false, true], [1, 1, 1], "1,3".into()));
    }

    /// A write queued for a shared commit: it inserts its number (1, 2, 3 in queue order) and
    /// counts its runs, then fails if `fails`; `rerunnable` picks `write_rerunnable` over `write`.
    #[derive(Clone, Copy)]
    struct Kind {
        fails: bool,
        rerunnable: bool,
    }

    impl Kind {
        const fn new(fails: bool, rerunnable: bool) -> Kind {
            Kind { fails, rerunnable }
        }
    }

    const ONCE: Kind = Kind::new(false, false);
    const ONCE_FAILING: Kind = Kind::new(true, false);
    const RERUNNABLE: Kind = Kind::new(false, true);
    const RERUNNABLE_FAILING: Kind = Kind::new(true, true);

    /// Queues three writes behind a held connection so they share one commit; answers whether
    /// each succeeded, how many times each ran, and the rows kept.
    async fn one_shared_commit(writes: [Kind; 3]) -> ([bool; 3], [usize; 3], String) {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let writer = writer();
        let inside = Arc::new(Barrier::new(2));
        let release = Arc::new(Barrier::new(2));
        let holder = {
            let (writer, inside, release) = (writer.clone(), inside.clone(), release.clone());
            tokio::spawn(async move {
                writer
                    .write(move |_| {
                        inside.wait();
                        release.wait();
                        Ok(())
                    })
                    .await
            })
        };
        tokio::task::spawn_blocking(move || inside.wait())
            .await
            .unwrap();
        let runs = writes.map(|_| Arc::new(AtomicUsize::new(0)));
        // Queued one at a time, in the order given: the runs counted depend on it.
        let mut tasks = Vec::new();
        for (queued, (write, runs)) in writes.iter().zip(&runs).enumerate() {
            let (queue_on, runs) = (writer.clone(), runs.clone());
            let (n, Kind { fails, rerunnable }) = (i64::try_from(queued).unwrap() + 1, *write);
            tasks.push(tokio::spawn(async move {
                let work = move |conn: &Connection| {
                    runs.fetch_add(1, Ordering::SeqCst);
                    conn.execute("INSERT INTO t (n) VALUES (?1)", [n])
                        .map_err(db_err)?;
                    if fails {
                        return Err(backend("refused after writing"));
                    }
                    Ok(())
                };
                if rerunnable {
                    queue_on.write_rerunnable(work).await
                } else {
                    queue_on.write(work).await
                }
            }));
            while writer.handle.shared.lock().queue.len() <= queued {
                tokio::task::yield_now().await;
            }
        }
        let before = writer.commits();
        tokio::task::spawn_blocking(move || release.wait())
            .await
            .unwrap();
        holder.await.unwrap().unwrap();
        let mut outcomes = [false; 3];
        for (outcome, task) in outcomes.iter_mut().zip(tasks) {
            *outcome = task.await.unwrap().is_ok();
        }
        let after = writer.commits();
        assert_eq!(
            after.commits - before.commits,
            2,
            "the holder's commit, then one for the rest"
        );
        let kept = writer
            .write(|conn| {
                conn.query_row(
                    "SELECT coalesce(group_concat(n), '') FROM (SELECT n FROM t ORDER BY n)",
                    [],
                    |r| r.get::<_, String>(0),
                )
                .map_err(db_err)
            })
            .await
            .unwrap();
        (outcomes, runs.map(|r| r.load(Ordering::SeqCst)), kept)
    }

    /// A commit of re-runnable writes alone, none failing: each runs once, with no savepoint.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn rerunnable_writes_that_succeed_run_once() {
        let commit = one_shared_commit([RERUNNABLE; 3]).await;
        assert_eq!(commit, ([true, true, true], [1, 1, 1], "1,2,3".into()));
    }

    /// One failing write in a commit of re-runnable writes: the transaction is rolled back
    /// (nothing kept twice) and every write runs again in its own savepoint; the failing one
    /// leaves nothing, the others commit once.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_failing_rerunnable_write_sends_the_commit_back_through_savepoints() {
        let commit = one_shared_commit([RERUNNABLE, RERUNNABLE_FAILING, RERUNNABLE]).await;
        // The first pass stopped at the failure; the second ran all three.
        assert_eq!(commit, ([true, false, true], [2, 2, 1], "1,3".into()));
    }

    /// A commit that also carries a write that runs once keeps savepoints: nothing runs twice.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_commit_with_a_run_once_write_keeps_savepoints() {
        let commit = one_shared_commit([ONCE, RERUNNABLE_FAILING, RERUNNABLE]).await;
        assert_eq!(commit, ([true, false, true], [1, 1, 1], "1,3".into()));
    }

    #[test]
    fn dropping_the_last_handle_ends_the_writer_thread() {
        let writer = writer();
        let shared = Arc::downgrade(&writer.handle.shared);
        drop(writer.clone());
        assert!(shared.upgrade().is_some(), "a clone is still held");
        drop(writer);
        // The thread holds the other reference until it has returned. (The deadline only
        // turns a hang into a failure; it measures nothing.)
        let deadline = Instant::now() + Duration::from_secs(60);
        while shared.upgrade().is_some() {
            assert!(Instant::now() < deadline, "the writer thread never ended");
            thread::sleep(Duration::from_millis(1));
        }
    }
}
