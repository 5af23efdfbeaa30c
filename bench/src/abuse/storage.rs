//! Storage abuse (issue 10 item 2): how much one guest stores in 10 s, how many guests one IP
//! creates in a minute, and what is left after the housekeeping sweep (abandoned guests,
//! replay records past their retention). The same code measures an old binary (no quotas, no
//! sweep: it just reports what remains) and a new one; it counts answers by status and never
//! assumes a feature exists. Loopback only, every loop bounded.

use std::{
    net::Ipv4Addr,
    path::Path,
    time::{Duration, Instant},
};

use serde_json::{Value, json};
use uuid::Uuid;

use super::{Figure, Server, guest};

const PUSH_FOR: Duration = Duration::from_secs(10);
const GUESTS_FOR: Duration = Duration::from_secs(60);
const GUEST_ATTEMPT_EVERY: Duration = Duration::from_millis(100);
const SWEPT_GUESTS: usize = 40;
const REPLAY_RECORDS: usize = 400;
const DAY_MS: i64 = 86_400_000;
/// How long to wait for a sweep (runs every second when the binary knows SWEEP_INTERVAL_SECS).
const SWEEP_WAIT: Duration = Duration::from_secs(8);

pub async fn run(binary: &Path) -> Vec<Figure> {
    let http = reqwest::Client::new();
    // The guest-creation minute runs on its own server beside the other measurements.
    let guests = {
        let (binary, http) = (binary.to_owned(), http.clone());
        tokio::spawn(async move { guests_per_minute(&binary, &http).await })
    };
    let (stored, bytes) = entries_in_ten_seconds(binary, &http).await;
    let (guests_left, replays_left) = after_the_sweep(binary, &http).await;
    let created = guests.await.unwrap_or(0);
    vec![
        figure("entries one guest stores in 10 s", stored.to_string()),
        figure(
            "database + files after those 10 s",
            format!("{:.1} MB", bytes as f64 / 1e6),
        ),
        figure("guests created per minute from one IP", created.to_string()),
        figure(
            "guest rows after the sweep (abandoned 31 days)",
            format!("{guests_left} of {SWEPT_GUESTS}"),
        ),
        figure(
            "applied_mutations rows after pruning (91 days old)",
            format!("{replays_left} of {REPLAY_RECORDS}"),
        ),
    ]
}

fn figure(name: &str, value: String) -> Figure {
    Figure {
        name: name.to_owned(),
        value,
    }
}

fn entry(stops: i64) -> Value {
    json!({"id": Uuid::now_v7().to_string(), "name": "entry.put",
           "args": {"id": Uuid::now_v7().to_string(), "date": "2024-06-01", "stops": stops,
                    "extra": 0, "notes": "x".repeat(1000), "total": stops * 198}})
}

/// Pushes `mutations`; the number applied (0 for any refusal) and, on a 429, the wait asked.
async fn push(
    http: &reqwest::Client,
    base: &str,
    cookie: &str,
    mutations: Vec<Value>,
) -> (usize, Option<Duration>) {
    let Ok(reply) = http
        .post(format!("{base}/api/v1/sync/push"))
        .header("cookie", cookie)
        .json(&json!({"clientId": "abuse", "mutations": mutations}))
        .send()
        .await
    else {
        return (0, Some(Duration::from_millis(100)));
    };
    let status = reply.status();
    let retry_after = reply
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .map(Duration::from_secs);
    if !status.is_success() {
        return (0, Some(retry_after.unwrap_or(Duration::from_millis(100))));
    }
    let body: Value = reply.json().await.unwrap_or(Value::Null);
    let applied = body["results"]
        .as_array()
        .map_or(0, |r| r.iter().filter(|r| r["status"] == "applied").count());
    (applied, None)
}

fn dir_bytes(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| match e.metadata() {
            Ok(m) if m.is_dir() => dir_bytes(&e.path()),
            Ok(m) => m.len(),
            Err(_) => 0,
        })
        .sum()
}

/// One guest pushes full batches of new 1,000-character entries back to back for 10 s,
/// honouring Retry-After only within the 10 s.
async fn entries_in_ten_seconds(binary: &Path, http: &reqwest::Client) -> (usize, u64) {
    let server = Server::start(binary, &[], None).await;
    let cookie = guest(http, &server.base).await;
    let started = Instant::now();
    let mut stored = 0;
    while started.elapsed() < PUSH_FOR {
        let batch = (0..500).map(|i| entry(i % 200)).collect();
        let (applied, wait) = push(http, &server.base, &cookie, batch).await;
        stored += applied;
        if let Some(wait) = wait {
            tokio::time::sleep(wait.min(PUSH_FOR.saturating_sub(started.elapsed()))).await;
        }
    }
    (stored, dir_bytes(server.data_dir()))
}

/// POST /auth/guest from one address ten times a second for a minute; the 201s.
async fn guests_per_minute(binary: &Path, http: &reqwest::Client) -> usize {
    let server = Server::start(binary, &[], None).await;
    let started = Instant::now();
    let mut created = 0;
    while started.elapsed() < GUESTS_FOR {
        let tick = Instant::now();
        if let Ok(reply) = http
            .post(format!("{}/api/v1/auth/guest", server.base))
            .send()
            .await
            && reply.status().as_u16() == 201
        {
            created += 1;
        }
        tokio::time::sleep(GUEST_ATTEMPT_EVERY.saturating_sub(tick.elapsed())).await;
    }
    created
}

/// Guests (each from its own forwarded address, so creation limits do not interfere) and an
/// account's replay records, then the clock is moved: their times are set 31 and 91 days back
/// in the database, and the sweep (every second on a binary that has one) gets a few seconds.
async fn after_the_sweep(binary: &Path, http: &reqwest::Client) -> (i64, i64) {
    let env = [
        ("SWEEP_INTERVAL_SECS", "1"),
        ("TRUST_PROXY", "true"),
        ("AUTH_RATE_LIMIT_PER_MINUTE", "100000"),
    ];
    let server = Server::start(binary, &env, None).await;
    for i in 0..SWEPT_GUESTS {
        let ip = Ipv4Addr::new(
            10,
            1,
            u8::try_from(i / 250).expect("fewer than 64,000 guests"),
            u8::try_from(i % 250).expect("under 250") + 1,
        );
        let reply = http
            .post(format!("{}/api/v1/auth/guest", server.base))
            .header("x-forwarded-for", ip.to_string())
            .send()
            .await;
        let cookie = reply.ok().and_then(|r| {
            r.headers()
                .get("set-cookie")
                .and_then(|v| v.to_str().ok())
                .map(|c| c.split(';').next().unwrap_or_default().to_owned())
        });
        if let Some(cookie) = cookie {
            push(http, &server.base, &cookie, vec![entry(5), entry(6)]).await;
        }
    }
    let account = http
        .post(format!("{}/api/v1/auth/signup", server.base))
        .json(&json!({"email": "keeper@example.com", "password": "correct horse battery"}))
        .send()
        .await
        .ok()
        .and_then(|r| {
            r.headers()
                .get("set-cookie")
                .and_then(|v| v.to_str().ok())
                .map(|c| c.split(';').next().unwrap_or_default().to_owned())
        })
        .unwrap_or_default();
    for _ in 0..REPLAY_RECORDS / 100 {
        let settings = (0..100)
            .map(|_| json!({"id": Uuid::now_v7().to_string(), "name": "settings.put", "args": {"theme": "dark"}}))
            .collect();
        push(http, &server.base, &account, settings).await;
    }

    let db = server.data_dir().join("delivery-tracker.db");
    let age = |conn: &rusqlite::Connection| -> rusqlite::Result<()> {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, domain::time_fmt::duration_ms);
        let (guests_back, replays_back) = (now - 31 * DAY_MS, now - 91 * DAY_MS);
        conn.execute(
            "UPDATE users SET created_at = ?1, last_login = ?1, updated_at = ?1 WHERE is_anonymous = 1",
            [guests_back],
        )?;
        conn.execute(
            "UPDATE sessions SET created_at = ?1, last_seen = ?1
             WHERE user_id IN (SELECT id FROM users WHERE is_anonymous = 1)",
            [guests_back],
        )?;
        conn.execute(
            "UPDATE applied_mutations SET applied_at = ?1
             WHERE user_id IN (SELECT id FROM users WHERE is_anonymous = 0)",
            [replays_back],
        )?;
        Ok(())
    };
    let count = |conn: &rusqlite::Connection| -> rusqlite::Result<(i64, i64)> {
        Ok((
            conn.query_row(
                "SELECT COUNT(*) FROM users WHERE is_anonymous = 1",
                [],
                |r| r.get(0),
            )?,
            conn.query_row(
                "SELECT COUNT(*) FROM applied_mutations
                 WHERE user_id IN (SELECT id FROM users WHERE is_anonymous = 0)",
                [],
                |r| r.get(0),
            )?,
        ))
    };
    let Ok(conn) = rusqlite::Connection::open(&db) else {
        return (-1, -1);
    };
    let _ = conn.busy_timeout(Duration::from_secs(10));
    if age(&conn).is_err() {
        return (-1, -1);
    }
    let waited = Instant::now();
    loop {
        let left = count(&conn).unwrap_or((-1, -1));
        if left == (0, 0) || waited.elapsed() > SWEEP_WAIT {
            return left;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}
