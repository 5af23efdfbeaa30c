//! Sync benchmark: push throughput of the real server (HTTP, 16 connections, SQLite with
//! synchronous=FULL) beside the raw SQLite ceiling for the same SQL measured in the same run,
//! and the time and gzip size of pulling 3,650 entries (ten years of daily logs).
//!
//! `cargo run --release -p bench` (or `make bench`). Prints figures; asserts nothing.

use std::{
    path::Path,
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use rusqlite::{Connection, OptionalExtension, params};
use serde_json::{Value, json};
use server::{
    AppState,
    config::Config,
    store::{
        DynStore, NewUser,
        sqlite::{SqliteStore, Synchronous},
    },
};
use uuid::Uuid;

const CONNECTIONS: usize = 16;
const RUN_FOR: Duration = Duration::from_secs(4);
const HISTORY_ENTRIES: usize = 3_650;

fn entry_args(stops: i64) -> Value {
    json!({"id": Uuid::now_v7().to_string(), "date": "2025-03-21", "stops": stops, "extra": 250,
           "notes": "Bench day", "total": stops * 198 + 250})
}

/// The statements one push runs, issued directly through rusqlite: one transaction and one
/// fsync per push, single-threaded, each statement prepared once (as the server's are). This is
/// what SQLite itself can do for this workload.
fn raw_sqlite_ceiling(path: &Path, user: Uuid, batch: usize) -> f64 {
    let conn = Connection::open(path).unwrap();
    conn.execute_batch(
        "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;",
    )
    .unwrap();
    let user = user.to_string();
    let content =
        r#"{"date":"2025-03-21","stops":120,"extra":250,"notes":"Bench day","total":24010}"#;
    let started = Instant::now();
    let mut mutations = 0u64;
    while started.elapsed() < RUN_FOR {
        conn.execute_batch("BEGIN IMMEDIATE").unwrap();
        let (mut seq, mut held): (i64, i64) = conn
            .prepare_cached("SELECT change_seq, record_count FROM users WHERE id = ?1")
            .unwrap()
            .query_row([&user], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap();
        for _ in 0..batch {
            let mutation_id = Uuid::new_v4().to_string();
            let entry_id = Uuid::now_v7().to_string();
            let recorded: Option<String> = conn
                .prepare_cached(
                    "SELECT result FROM applied_mutations WHERE user_id = ?1 AND mutation_id = ?2",
                )
                .unwrap()
                .query_row([&user, &mutation_id], |r| r.get(0))
                .optional()
                .unwrap();
            assert!(recorded.is_none());
            let existing: Option<(bool, bool)> = conn
                .prepare_cached(
                    "SELECT user_id = ?3, deleted FROM records WHERE kind = ?1 AND id = ?2",
                )
                .unwrap()
                .query_row(params!["entry", entry_id, user], |r| {
                    Ok((r.get(0)?, r.get(1)?))
                })
                .optional()
                .unwrap();
            assert!(existing.is_none());
            seq += 1;
            held += 1;
            conn.prepare_cached(
                "INSERT INTO records (kind, id, user_id, version, deleted, content,
                                      created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5 IS NULL, ?5, 1, 1)
                 ON CONFLICT (kind, id) DO NOTHING",
            )
            .unwrap()
            .execute(params!["entry", entry_id, user, seq, content])
            .unwrap();
            conn.prepare_cached(
                "INSERT INTO applied_mutations (user_id, mutation_id, result, applied_at)
                 VALUES (?1, ?2, ?3, 1)",
            )
            .unwrap()
            .execute(params![
                user,
                mutation_id,
                format!("{{\"id\":\"{mutation_id}\",\"status\":\"applied\"}}")
            ])
            .unwrap();
        }
        conn.prepare_cached("UPDATE users SET change_seq = ?2, record_count = ?3 WHERE id = ?1")
            .unwrap()
            .execute(params![user, seq, held])
            .unwrap();
        conn.execute_batch("COMMIT").unwrap();
        mutations += batch as u64;
    }
    mutations as f64 / started.elapsed().as_secs_f64()
}

async fn guest_cookie(http: &reqwest::Client, base: &str) -> String {
    let reply = http
        .post(format!("{base}/api/v1/auth/guest"))
        .send()
        .await
        .unwrap();
    assert!(
        reply.status().is_success(),
        "guest sign-in failed: {}",
        reply.status()
    );
    reply.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_owned()
}

async fn push(http: &reqwest::Client, base: &str, cookie: &str, mutations: Vec<Value>) {
    let reply = http
        .post(format!("{base}/api/v1/sync/push"))
        .header("cookie", cookie)
        .json(&json!({"clientId": "bench", "mutations": mutations}))
        .send()
        .await
        .unwrap();
    assert!(
        reply.status().is_success(),
        "push failed: {}",
        reply.status()
    );
}

/// 16 connections, each its own user (a driver's phone), pushing batches back to back.
async fn server_push_rate(base: &str, batch: usize) -> f64 {
    let done = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let mut tasks = Vec::new();
    let started = Instant::now();
    for _ in 0..CONNECTIONS {
        let (base, done, stop) = (base.to_owned(), done.clone(), stop.clone());
        tasks.push(tokio::spawn(async move {
            let http = reqwest::Client::new();
            let cookie = guest_cookie(&http, &base).await;
            while !stop.load(Ordering::Relaxed) {
                let mutations = (0..batch)
                    .map(|_| json!({"id": Uuid::new_v4().to_string(), "name": "entry.put", "args": entry_args(120)}))
                    .collect();
                push(&http, &base, &cookie, mutations).await;
                done.fetch_add(batch as u64, Ordering::Relaxed);
            }
        }));
    }
    tokio::time::sleep(RUN_FOR).await;
    stop.store(true, Ordering::Relaxed);
    for task in tasks {
        task.await.unwrap();
    }
    done.load(Ordering::Relaxed) as f64 / started.elapsed().as_secs_f64()
}

async fn pull_history(base: &str) -> (Duration, usize, usize) {
    let http = reqwest::Client::new();
    let cookie = guest_cookie(&http, base).await;
    for chunk in 0..HISTORY_ENTRIES.div_ceil(500) {
        let count = (HISTORY_ENTRIES - chunk * 500).min(500);
        let mutations = (0..count)
            .map(|i| json!({"id": Uuid::new_v4().to_string(), "name": "entry.put", "args": entry_args(i64::try_from(i % 200).unwrap())}))
            .collect();
        push(&http, base, &cookie, mutations).await;
    }
    let started = Instant::now();
    let (mut cursor, mut bytes, mut changes) = (0i64, 0usize, 0usize);
    loop {
        let reply = http
            .get(format!(
                "{base}/api/v1/sync/pull?cursor={cursor}&limit=1000"
            ))
            .header("cookie", &cookie)
            .header("accept-encoding", "gzip")
            .send()
            .await
            .unwrap();
        let gzipped = reply
            .headers()
            .get("content-encoding")
            .is_some_and(|v| v == "gzip");
        assert!(gzipped, "pull responses are compressed");
        let body = reply.bytes().await.unwrap();
        bytes += body.len();
        // Decompressing is the client's work; the cursor comes from a second, plain read.
        let plain: Value = http
            .get(format!(
                "{base}/api/v1/sync/pull?cursor={cursor}&limit=1000"
            ))
            .header("cookie", &cookie)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        changes += plain["changes"].as_array().unwrap().len();
        cursor = plain["cursor"].as_i64().unwrap();
        if !plain["hasMore"].as_bool().unwrap() {
            break;
        }
    }
    // Both reads of each page were timed; report one.
    (started.elapsed() / 2, bytes, changes)
}

async fn fresh_store(dir: &Path) -> (DynStore, Uuid) {
    let store: DynStore = Arc::new(
        SqliteStore::open(&dir.join("bench.db"), Synchronous::Full)
            .await
            .unwrap(),
    );
    let user = store
        .create_user(NewUser {
            id: Uuid::now_v7(),
            email: None,
            display_name: None,
            password_hash: None,
            is_anonymous: true,
            now_ms: domain::time_fmt::now_ms(),
        })
        .await
        .unwrap();
    (store, user.id)
}

#[tokio::main]
async fn main() {
    println!(
        "Delivery Tracker sync benchmark ({CONNECTIONS} connections, {}s per figure, SQLite synchronous=FULL)\n",
        RUN_FOR.as_secs()
    );
    for batch in [1usize, 10] {
        let raw_dir = tempfile::tempdir().unwrap();
        let (store, user) = fresh_store(raw_dir.path()).await;
        drop(store);
        let path = raw_dir.path().join("bench.db");
        let ceiling = tokio::task::spawn_blocking(move || raw_sqlite_ceiling(&path, user, batch))
            .await
            .unwrap();

        let dir = tempfile::tempdir().unwrap();
        let (store, _) = fresh_store(dir.path()).await;
        let mut config = Config::for_data_dir(dir.path());
        config.rate_limits.auth_rate_limit_per_minute = 1_000_000;
        // Throughput, not the storage limits (`make abuse` measures those).
        config.quotas.guest_rate_limit_per_ip_per_hour = 1_000_000;
        config.quotas.guest_rate_limit_per_hour = 1_000_000;
        config.quotas.push_mutations_per_minute = u32::MAX;
        config.quotas.max_records_per_user = u32::MAX;
        let state = AppState::new(config, store).unwrap();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let serving = tokio::spawn(server::serve(listener, state, async {
            let _ = stopped.await;
        }));
        let ours = server_push_rate(&base, batch).await;
        println!(
            "push batch {batch:>2}: server {ours:>9.0} mutations/s | raw SQLite ceiling {ceiling:>9.0} mutations/s | ratio {:>5.0} %",
            100.0 * ours / ceiling
        );
        if batch == 10 {
            let (took, bytes, changes) = pull_history(&base).await;
            println!(
                "pull {changes} entries: {:.1} ms, {:.1} KiB gzipped on the wire ({:.0} bytes/entry)",
                took.as_secs_f64() * 1000.0,
                bytes as f64 / 1024.0,
                bytes as f64 / changes as f64
            );
        }
        let _ = stop.send(());
        let _ = serving.await;
    }
}
