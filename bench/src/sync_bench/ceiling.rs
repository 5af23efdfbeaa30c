//! What SQLite itself allows for a push: the statements one push runs, issued through
//! rusqlite on one thread with synchronous=FULL, in two shapes.
//!
//! - one fsync per push: BEGIN, the push, COMMIT (the first ceiling this bench had);
//! - group commit: pushes of `GROUP` different users, each in its own SAVEPOINT, under one
//!   COMMIT, every statement (BEGIN, SAVEPOINT and COMMIT too) prepared once and cached — what a
//!   server that batches its writers could reach.
//!
//! On a fresh database the tables are created here with the columns and keys the server had
//! when this ceiling was written (replay records keyed by user first, as before migration
//! 0024), so the ceiling stays the same yardstick while the server's own schema changes. On a
//! grown database (`grown.rs`) the ceiling runs on a copy of the very file our server starts
//! from in that round: the server's own tables and keys, the same rows.

use std::{
    path::Path,
    time::{Duration, Instant},
};

use rusqlite::{Connection, OptionalExtension, params};
use uuid::Uuid;

use crate::{
    days::{self, Ids},
    grown,
};

/// Pushes per COMMIT in the group-commit ceiling: one from each of 16 connections.
pub const GROUP: usize = 16;

/// Pushes per COMMIT that a server committing whatever is queued can gather from `GROUP`
/// clients that each wait for their answer: while one commit is in flight, the clients it
/// carries wait on it and only the others can queue for the next, so commits alternate
/// between two halves. The grown figures also measure the ceiling at this size, to tell how
/// much of the distance to the full ceiling is that, and how much is the server's own work.
pub const HALF_GROUP: usize = GROUP / 2;

const SCHEMA: &str = "
    PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;
    CREATE TABLE users (
        id TEXT PRIMARY KEY, email TEXT UNIQUE, password_hash TEXT, display_name TEXT,
        is_anonymous INTEGER NOT NULL DEFAULT 1, created_at INTEGER NOT NULL DEFAULT 0,
        change_seq INTEGER NOT NULL DEFAULT 0, record_count INTEGER NOT NULL DEFAULT 0
    ) STRICT;
    CREATE TABLE records (
        kind TEXT NOT NULL, id TEXT NOT NULL,
        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        version INTEGER NOT NULL, deleted INTEGER NOT NULL DEFAULT 0, content TEXT,
        created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
        PRIMARY KEY (kind, id)
    ) STRICT;
    CREATE INDEX records_by_user_version ON records (user_id, version);
    CREATE TABLE applied_mutations (
        user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        mutation_id TEXT NOT NULL, result TEXT NOT NULL, applied_at INTEGER NOT NULL,
        PRIMARY KEY (user_id, mutation_id)
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX applied_mutations_by_time ON applied_mutations (applied_at);";

/// Mutations per second with one transaction and one fsync per push.
pub fn per_push(dir: &Path, batch: usize, run_for: Duration) -> f64 {
    let (conn, users) = open(dir, 1, None);
    let started = Instant::now();
    let mut mutations = 0u64;
    let mut next = 0usize;
    while started.elapsed() < run_for {
        conn.execute_batch("BEGIN IMMEDIATE").unwrap();
        push(&conn, &users[0], batch, &mut next, Ids::TimeOrdered);
        conn.execute_batch("COMMIT").unwrap();
        mutations += batch as u64;
    }
    mutations as f64 / started.elapsed().as_secs_f64()
}

/// The group-commit ceiling on one database: `group` pushes (of different users) per
/// transaction. It can run in slices, so grown.rs can take turns between it and our server.
pub struct GroupCommit {
    conn: Connection,
    /// One user per push in a COMMIT.
    users: Vec<String>,
    ids: Ids,
    /// Days pushed so far: the next push picks up where the last slice stopped.
    next: usize,
}

impl GroupCommit {
    /// `group` pushes per COMMIT, on a fresh database in `dir`, or on a copy (made in `dir`)
    /// of the file `start` with `group` new users added to its own.
    pub fn open(dir: &Path, start: Option<&Path>, ids: Ids, group: usize) -> GroupCommit {
        let (conn, users) = open(dir, group, start);
        GroupCommit {
            conn,
            users,
            ids,
            next: 0,
        }
    }

    /// Pushes per COMMIT.
    pub fn group(&self) -> usize {
        self.users.len()
    }

    /// Mutations per second over `run_for`.
    pub fn run(&mut self, batch: usize, run_for: Duration) -> f64 {
        let conn = &self.conn;
        let started = Instant::now();
        let mut mutations = 0u64;
        while started.elapsed() < run_for {
            conn.prepare_cached("BEGIN IMMEDIATE")
                .unwrap()
                .execute([])
                .unwrap();
            for user in &self.users {
                conn.prepare_cached("SAVEPOINT push")
                    .unwrap()
                    .execute([])
                    .unwrap();
                push(conn, user, batch, &mut self.next, self.ids);
                conn.prepare_cached("RELEASE push")
                    .unwrap()
                    .execute([])
                    .unwrap();
            }
            conn.prepare_cached("COMMIT").unwrap().execute([]).unwrap();
            mutations += (self.users.len() * batch) as u64;
        }
        mutations as f64 / started.elapsed().as_secs_f64()
    }
}

fn open(dir: &Path, users: usize, start: Option<&Path>) -> (Connection, Vec<String>) {
    let path = dir.join(format!("ceiling-{}.db", Uuid::new_v4()));
    let ids: Vec<String> = (0..users).map(|_| Uuid::now_v7().to_string()).collect();
    let Some(start) = start else {
        let conn = Connection::open(path).unwrap();
        conn.execute_batch(SCHEMA).unwrap();
        for id in &ids {
            conn.execute("INSERT INTO users (id) VALUES (?1)", [id])
                .unwrap();
        }
        return (conn, ids);
    };
    grown::settled_copy(start, &path);
    let conn = Connection::open(path).unwrap();
    // As the server opens it (store/sqlite/mod.rs), with a page cache and a memory map at
    // least as large as any the server sizes for itself (256 MiB, 1 GiB), so the ceiling
    // stays a ceiling whatever SQLITE_CACHE_MB and SQLITE_MMAP_MB say.
    conn.execute_batch(
        "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;
         PRAGMA cache_size = -262144; PRAGMA mmap_size = 1073741824;",
    )
    .unwrap();
    for id in &ids {
        // The server's users table: guests, as our server's pushing users are.
        conn.execute(
            "INSERT INTO users (id, is_anonymous, created_at, last_login, updated_at)
             VALUES (?1, 1, 0, 0, 0)",
            [id],
        )
        .unwrap();
    }
    (conn, ids)
}

/// One push of `batch` new entries, as the server runs it: the user's counters, then per
/// mutation the replay check, the ownership check, the insert and the replay record, then the
/// counters written back. Every statement is prepared once and cached.
fn push(conn: &Connection, user: &str, batch: usize, next: &mut usize, ids: Ids) {
    let (mut seq, mut held): (i64, i64) = conn
        .prepare_cached("SELECT change_seq, record_count FROM users WHERE id = ?1")
        .unwrap()
        .query_row([user], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap();
    let couriers = [user.to_owned()];
    for _ in 0..batch {
        let mut day = days::day(*next % days::HISTORY_DAYS);
        day.id = ids.new_id();
        *next += 1;
        let mutation_id = ids.new_id();
        let recorded: Option<String> = conn
            .prepare_cached(
                "SELECT result FROM applied_mutations WHERE user_id = ?1 AND mutation_id = ?2",
            )
            .unwrap()
            .query_row([user, mutation_id.as_str()], |r| r.get(0))
            .optional()
            .unwrap();
        assert!(recorded.is_none());
        let existing: Option<(bool, bool)> = conn
            .prepare_cached("SELECT user_id = ?3, deleted FROM records WHERE kind = ?1 AND id = ?2")
            .unwrap()
            .query_row(params!["entry", day.id, user], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .optional()
            .unwrap();
        assert!(existing.is_none());
        seq += 1;
        held += 1;
        let content = day.entry_args(&couriers).to_string();
        conn.prepare_cached(
            "INSERT INTO records (kind, id, user_id, version, deleted, content,
                                  created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5 IS NULL, ?5, 1, 1)
             ON CONFLICT (kind, id) DO NOTHING",
        )
        .unwrap()
        .execute(params!["entry", day.id, user, seq, content])
        .unwrap();
        conn.prepare_cached(
            "INSERT INTO applied_mutations (user_id, mutation_id, result, applied_at)
             VALUES (?1, ?2, ?3, 1)",
        )
        .unwrap()
        // The server keeps a plain "applied" answer as an empty string (store/sync.rs).
        .execute(params![user, mutation_id, ""])
        .unwrap();
    }
    conn.prepare_cached("UPDATE users SET change_seq = ?2, record_count = ?3 WHERE id = ?1")
        .unwrap()
        .execute(params![user, seq, held])
        .unwrap();
}
