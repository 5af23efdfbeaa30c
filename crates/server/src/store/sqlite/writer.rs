//! The single SQLite writer, with group commit.
//!
//! SQLite allows one writer at a time, and the expensive part of a write is the fsync at
//! COMMIT. So one thread owns the write connection, drains every job that is waiting, runs
//! each inside its own SAVEPOINT (a failing job rolls back alone) and commits them all with
//! one fsync. Callers get their result only after that COMMIT succeeded, so an
//! acknowledged write is durable.

use std::{
    panic::{AssertUnwindSafe, catch_unwind},
    sync::mpsc,
    thread,
};

use anyhow::anyhow;
use rusqlite::Connection;
use tokio::sync::oneshot;

use crate::store::{StoreError, StoreResult};

/// Runs after COMMIT (or its failure) to hand the job's result to its caller.
type Completion = Box<dyn FnOnce(Result<(), &str>) + Send>;
/// Given the connection inside an open transaction (or why there is none), does the work.
type Job = Box<dyn FnOnce(Result<&Connection, &str>) -> Completion + Send>;

/// Upper bound on one group commit, so one transaction never grows without limit.
const MAX_JOBS_PER_COMMIT: usize = 256;

#[derive(Clone)]
pub struct Writer {
    jobs: mpsc::Sender<Job>,
}

impl Writer {
    pub fn start(conn: Connection) -> std::io::Result<Writer> {
        let (jobs, queue) = mpsc::channel::<Job>();
        thread::Builder::new()
            .name("sqlite-writer".into())
            .spawn(move || run(conn, queue))?;
        Ok(Writer { jobs })
    }

    /// Runs `work` in the next group commit and returns once that commit is durable.
    pub async fn write<T, F>(&self, work: F) -> StoreResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> StoreResult<T> + Send + 'static,
    {
        let (reply, result) = oneshot::channel::<StoreResult<T>>();
        let job: Job = Box::new(move |conn| {
            let outcome = match conn {
                Ok(conn) => in_savepoint(conn, work),
                Err(why) => Err(backend(why)),
            };
            Box::new(move |commit: Result<(), &str>| {
                let _ = reply.send(commit.map_err(backend).and(outcome));
            })
        });
        self.jobs
            .send(job)
            .map_err(|_| backend("the SQLite writer has stopped"))?;
        result
            .await
            .map_err(|_| backend("the SQLite writer dropped a job"))?
    }
}

fn backend(why: &str) -> StoreError {
    StoreError::Backend(anyhow!("sqlite write failed: {why}"))
}

fn run(conn: Connection, queue: mpsc::Receiver<Job>) {
    while let Ok(first) = queue.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_JOBS_PER_COMMIT {
            match queue.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        commit_batch(&conn, batch);
    }
}

/// Runs one of the fixed transaction statements through the statement cache (parsing even
/// BEGIN and SAVEPOINT on every job showed in profiles).
fn run_cached(conn: &Connection, sql: &str) -> rusqlite::Result<()> {
    conn.prepare_cached(sql)?.execute([]).map(|_| ())
}

fn commit_batch(conn: &Connection, batch: Vec<Job>) {
    if let Err(err) = run_cached(conn, "BEGIN IMMEDIATE") {
        let why = err.to_string();
        for job in batch {
            job(Err(&why))(Err(&why));
        }
        return;
    }
    let completions: Vec<Completion> = batch.into_iter().map(|job| job(Ok(conn))).collect();
    let commit = run_cached(conn, "COMMIT").map_err(|err| {
        let _ = run_cached(conn, "ROLLBACK");
        err.to_string()
    });
    for complete in completions {
        complete(commit.as_ref().map(|_| ()).map_err(String::as_str));
    }
}

/// A failing or panicking job undoes only its own changes.
fn in_savepoint<T>(
    conn: &Connection,
    work: impl FnOnce(&Connection) -> StoreResult<T>,
) -> StoreResult<T> {
    run_cached(conn, "SAVEPOINT job").map_err(|e| backend(&e.to_string()))?;
    let outcome = catch_unwind(AssertUnwindSafe(|| work(conn)))
        .unwrap_or_else(|_| Err(backend("a write job panicked")));
    let end = if outcome.is_ok() {
        run_cached(conn, "RELEASE job")
    } else {
        run_cached(conn, "ROLLBACK TO job").and_then(|()| run_cached(conn, "RELEASE job"))
    };
    end.map_err(|e| backend(&e.to_string()))?;
    outcome
}
