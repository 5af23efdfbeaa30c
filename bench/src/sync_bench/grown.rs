//! A grown database for the push figures (issue 30): by default a million records over 10,000
//! accounts, three years of use, written once and cached, then copied afresh for every side
//! of every measurement so our server and its reference start from the very same file.
//!
//! The schema is the server's own: the release binary migrates an empty database, and the rows
//! go in with one bulk transaction (seconds, where pushing them through HTTP would take an
//! hour). The rows are laid out as years of pushes leave them: written in time order (so the
//! table's rowids and the time-ordered record ids ascend together, and each account's rows
//! are spread through the file), each account with its couriers and its days, and replay
//! records only for the last `REPLAY_DAYS` (the pruning sweep removes older ones).
//!
//! Sizes: `BENCH_GROWN_USERS` (10,000) and `BENCH_GROWN_RECORDS` (1,000,000, in all), so a
//! quick run can use a small one. The cache is keyed by the schema, the sizes and
//! `LAYOUT`, under `<target>/bench-grown/`.

use std::path::{Path, PathBuf};

use bench::served::Server;
use rusqlite::{Connection, params};
use sha2::{Digest as _, Sha256};
use uuid::{NoContext, Timestamp, Uuid};

use crate::days;

/// Bump when the rows written below change, so an old cached file is not reused.
const LAYOUT: u32 = 1;
/// How long the seeded accounts have been in use.
const YEARS_OF_USE: i64 = 3;
/// Replay records younger than this are kept (the server's default retention is 90 days).
const REPLAY_DAYS: i64 = 90;
const DAY_MS: i64 = 86_400_000;
/// The file name the server uses under DATA_DIR.
pub const DB_FILE: &str = "delivery-tracker.db";

#[derive(Clone, Copy, Debug)]
pub struct Size {
    pub users: usize,
    pub records: usize,
}

impl Size {
    /// From `BENCH_GROWN_USERS` and `BENCH_GROWN_RECORDS`, else the issue's size.
    pub fn from_env() -> Size {
        let read = |name: &str, default: usize| {
            std::env::var(name).map_or(default, |v| {
                v.replace('_', "")
                    .parse()
                    .unwrap_or_else(|_| panic!("{name} must be a whole number"))
            })
        };
        let size = Size {
            users: read("BENCH_GROWN_USERS", 10_000),
            records: read("BENCH_GROWN_RECORDS", 1_000_000),
        };
        assert!(
            size.users > 0 && size.records >= size.users * 4,
            "a grown database needs users and at least 4 records each (3 couriers and a day)"
        );
        size
    }

    fn per_user(self) -> usize {
        self.records / self.users
    }
}

/// The cached grown database for `binary`'s schema, made first if missing (cached beside the
/// build `measured`), and its cache key (the schema and the migrations applied, the sizes and
/// the layout).
pub async fn sqlite_seed(binary: &Path, measured: &Path, size: Size) -> (PathBuf, String) {
    let empty = tempfile::tempdir().unwrap();
    // The binary's migrations on an empty database; the server is stopped before the file is
    // read (rusqlite recovers what the WAL holds).
    drop(Server::start_in(binary, empty.path(), &[], None).await);
    let migrated = empty.path().join(DB_FILE);
    // The tables and the migrations applied: a migration that only rewrites rows (0023) leaves
    // the tables as they were, but a release from before it cannot open the file after it.
    let schema: String = Connection::open(&migrated)
        .unwrap()
        .query_row(
            "SELECT group_concat(name || ':' || sql, ';')
                    || ';migrations ' || (SELECT group_concat(version) FROM
                                            (SELECT version FROM schema_migrations ORDER BY version))
             FROM (SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name)",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let key = Sha256::digest(format!(
        "{schema}\n{}/{}\nlayout {LAYOUT}",
        size.users, size.records
    ));
    let key: String = key[..8].iter().map(|b| format!("{b:02x}")).collect();
    let dir = cache_dir(measured);
    std::fs::create_dir_all(&dir).unwrap();
    let seeded = dir.join(format!("grown-{}u-{}r-{key}.db", size.users, size.records));
    if seeded.exists() {
        println!("Grown database: {} (cached)", seeded.display());
        return (seeded, key);
    }
    let partial = seeded.with_extension("partial");
    let _ = std::fs::remove_file(&partial);
    // One clean file without the WAL beside it.
    Connection::open(&migrated)
        .unwrap()
        .execute("VACUUM INTO ?1", [partial.to_str().unwrap()])
        .unwrap();
    let started = std::time::Instant::now();
    let seed = partial.clone();
    tokio::task::spawn_blocking(move || fill(&seed, size))
        .await
        .unwrap();
    std::fs::rename(&partial, &seeded).unwrap();
    println!(
        "Grown database: {} made in {:.0} s, {} MB",
        seeded.display(),
        started.elapsed().as_secs_f64(),
        std::fs::metadata(&seeded).unwrap().len() / 1_000_000
    );
    (seeded, key)
}

/// `<target>/bench-grown`, the target folder being the one the release binary is in (the
/// system temp folder for a binary elsewhere).
fn cache_dir(binary: &Path) -> PathBuf {
    let binary = std::fs::canonicalize(binary).unwrap_or_else(|_| binary.to_owned());
    binary
        .parent()
        .and_then(Path::parent)
        .filter(|target| target.join("release").is_dir() || target.join("debug").is_dir())
        .map_or_else(std::env::temp_dir, Path::to_owned)
        .join("bench-grown")
}

/// A fresh copy of `seed` as the database of a new data folder.
pub fn copy_into(seed: &Path, data_dir: &Path) -> PathBuf {
    let path = data_dir.join(DB_FILE);
    settled_copy(seed, &path);
    path
}

/// Copies `from` to `to` and waits until the copy is on the disk. Half a gigabyte of dirty pages
/// left to the kernel's writeback would be flushed during the measurement that follows, and the
/// fsyncs measured there would queue behind it: whichever side ran right after a copy lost.
pub fn settled_copy(from: &Path, to: &Path) {
    std::fs::copy(from, to).unwrap();
    std::fs::File::open(to).unwrap().sync_all().unwrap();
}

/// A UUIDv7 of the moment `ms`.
fn v7_at(ms: i64) -> String {
    let ms = u64::try_from(ms).unwrap();
    Uuid::new_v7(Timestamp::from_unix(
        NoContext,
        ms / 1000,
        u32::try_from(ms % 1000).unwrap() * 1_000_000,
    ))
    .to_string()
}

/// Writes the accounts and their rows into the migrated file `path`, in one transaction.
fn fill(path: &Path, size: Size) {
    let conn = Connection::open(path).unwrap();
    // Nothing to protect while the file is being made: no journal, no fsync, and a page cache
    // that holds the indexes. The rows go in before the accounts they belong to, so foreign keys
    // are checked once at the end instead.
    conn.execute_batch(
        "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -1000000;
         PRAGMA foreign_keys = OFF; BEGIN;",
    )
    .unwrap();
    let per_user = size.per_user();
    let now = domain::time_fmt::now_ms();
    let first = now - YEARS_OF_USE * 365 * DAY_MS;
    // Every account's n-th row at the same moment, rows spread evenly over the years.
    let step = (now - first) / i64::try_from(per_user).unwrap();
    let replays_from = now - REPLAY_DAYS * DAY_MS;
    let users: Vec<String> = (0..size.users)
        .map(|u| v7_at(first - 1_000 + i64::try_from(u).unwrap() % 1_000))
        .collect();
    let couriers = days::courier_mutations().1;
    let mut courier_ids = vec![Vec::with_capacity(3); size.users];
    {
        let mut record = conn
            .prepare(
                "INSERT INTO records (kind, id, user_id, version, deleted, content,
                                      created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, 0, ?5, ?6, ?6)",
            )
            .unwrap();
        let mut replay = conn
            .prepare(
                "INSERT INTO applied_mutations (user_id, mutation_id, result, applied_at)
                 VALUES (?1, ?2, ?3, ?4)",
            )
            .unwrap();
        let mut replay_counts = vec![0i64; size.users];
        for n in 0..per_user {
            let at = first + step * i64::try_from(n).unwrap();
            for (u, user) in users.iter().enumerate() {
                let at = at + i64::try_from(u).unwrap() % step.max(1);
                let id = v7_at(at);
                let (kind, content) = if n < couriers.len() {
                    let mut args = couriers[n]["args"].clone();
                    args["id"] = id.clone().into();
                    courier_ids[u].push(id.clone());
                    ("courier", args.to_string())
                } else {
                    let mut day = days::day(n - couriers.len());
                    day.id = id.clone();
                    ("entry", day.entry_args(&courier_ids[u]).to_string())
                };
                let version = i64::try_from(n).unwrap() + 1;
                record
                    .execute(params![kind, id, user, version, content, at])
                    .unwrap();
                if at >= replays_from {
                    let mutation = v7_at(at);
                    let answer = format!(r#"{{"id":"{mutation}","status":"applied"}}"#);
                    replay.execute(params![user, mutation, answer, at]).unwrap();
                    replay_counts[u] += 1;
                }
            }
        }
        let mut account = conn
            .prepare(
                "INSERT INTO users (id, email, is_anonymous, created_at, last_login, updated_at,
                                    change_seq, record_count, replay_count)
                 VALUES (?1, ?2, 0, ?3, ?4, ?4, ?5, ?5, ?6)",
            )
            .unwrap();
        for (u, user) in users.iter().enumerate() {
            let held = i64::try_from(per_user).unwrap();
            account
                .execute(params![
                    user,
                    format!("driver{u}@grown.bench.test"),
                    first,
                    now,
                    held,
                    replay_counts[u]
                ])
                .unwrap();
        }
    }
    // Rows went in before their users: the foreign keys are checked once, at the end.
    let orphans: i64 = conn
        .query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(orphans, 0, "every seeded row belongs to a seeded user");
    conn.execute_batch("COMMIT; PRAGMA journal_mode = DELETE;")
        .unwrap();
    let dangling: i64 = conn
        .query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(
        dangling, 0,
        "the grown database has rows without their account"
    );
}
