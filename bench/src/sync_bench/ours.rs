//! Our release binary under load: sign-ups, pushes, the history pull and idle event streams,
//! over HTTP on loopback like a phone would use it.

use std::{
    io::Read as _,
    path::Path,
    time::{Duration, Instant},
};

use bench::served::{Server, guest, session_cookie};
use serde_json::{Value, json};
use tokio::{
    io::{AsyncReadExt as _, AsyncWriteExt as _},
    net::TcpStream,
};
use uuid::Uuid;

use crate::{days, wire::Connection};

/// Throughput is measured, not the abuse limits (`make abuse` measures those): rate limits and
/// quotas out of the way, room for 500 streams and 64 connections from one address.
const UNLIMITED: &[(&str, &str)] = &[
    ("AUTH_RATE_LIMIT_PER_MINUTE", "1000000"),
    ("LOGIN_RATE_LIMIT_PER_MINUTE", "1000000"),
    ("GUEST_RATE_LIMIT_PER_IP_PER_HOUR", "1000000"),
    ("GUEST_RATE_LIMIT_PER_HOUR", "1000000"),
    ("PUSH_MUTATIONS_PER_MINUTE", "1000000000"),
    ("MAX_RECORDS_PER_USER", "100000000"),
    // A fast machine pushes more than the default 50,000 replay records per user in one round.
    ("MAX_REPLAY_RECORDS_PER_USER", "100000000"),
    ("MAX_CONNECTIONS_PER_IP", "2048"),
    // The 500 idle streams all come from loopback: past the default share of one address.
    ("EVENT_STREAMS_PER_IP", "2048"),
];

/// Starts `binary` on SQLite (synchronous=FULL, the default), or on PostgreSQL with
/// `database_url`.
pub async fn start(binary: &Path, database_url: Option<&str>) -> Server {
    let mut env = UNLIMITED.to_vec();
    if let Some(url) = database_url {
        env.push(("DATABASE_URL", url));
    }
    Server::start(binary, &env, None).await
}

/// Starts `binary` on SQLite in `data_dir` (a copy of the grown database there), with `env`
/// on top of the bench's (the page cache lever is measured this way).
pub async fn start_in(binary: &Path, data_dir: &Path, env: &[(&str, &str)]) -> Server {
    let mut all = UNLIMITED.to_vec();
    all.extend_from_slice(env);
    Server::start_in(binary, data_dir, &all, None).await
}

/// The SQLite writer's commits and the jobs they carried so far, from `/metrics` (the server
/// started with METRICS_ENABLED; `None` from a build that does not count them).
pub async fn write_commits(base: &str) -> Option<(u64, u64)> {
    let text = client()
        .get(format!("{base}/metrics"))
        .send()
        .await
        .ok()?
        .text()
        .await
        .ok()?;
    let read = |name: &str| {
        text.lines()
            .find_map(|line| line.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
    };
    read("sqlite_write_commits_total").zip(read("sqlite_write_jobs_total"))
}

/// One connection's client: reqwest keeps one keep-alive connection per sequential caller.
pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .pool_max_idle_per_host(1)
        .build()
        .unwrap()
}

/// `count` accounts with e-mail and password (each hashed with argon2id), `parallel` at a time;
/// returns their session cookies.
pub async fn sign_up(base: &str, count: usize, parallel: usize) -> Vec<String> {
    let run = Uuid::new_v4().simple().to_string();
    let mut cookies = Vec::new();
    for wave in (0..count).collect::<Vec<_>>().chunks(parallel) {
        let tasks: Vec<_> = wave
            .iter()
            .map(|&i| {
                let (base, email) = (base.to_owned(), format!("driver{i}.{run}@bench.test"));
                tokio::spawn(async move {
                    let reply = client()
                        .post(format!("{base}/api/v1/auth/signup"))
                        .json(&json!({"email": email, "password": "Bench-pa55word-not-common"}))
                        .send()
                        .await
                        .unwrap();
                    assert!(
                        reply.status().is_success(),
                        "sign-up refused: {}",
                        reply.status()
                    );
                    session_cookie(&reply)
                })
            })
            .collect();
        for task in tasks {
            cookies.push(task.await.unwrap());
        }
    }
    cookies
}

/// `count` guest accounts, 16 at a time.
pub async fn guests(base: &str, count: usize) -> Vec<String> {
    let mut cookies = Vec::new();
    for wave in (0..count).collect::<Vec<_>>().chunks(16) {
        let tasks: Vec<_> = wave
            .iter()
            .map(|_| {
                let base = base.to_owned();
                tokio::spawn(async move { guest(&client(), &base).await })
            })
            .collect();
        for task in tasks {
            cookies.push(task.await.unwrap());
        }
    }
    cookies
}

pub async fn push(wire: &mut Connection, cookie: &str, mutations: Vec<Value>) {
    let body = serde_json::to_vec(&json!({"clientId": "bench", "mutations": mutations})).unwrap();
    let reply = wire
        .post_json("/api/v1/sync/push", Some(("cookie", cookie)), &body)
        .await;
    assert!(
        (200..300).contains(&reply.status),
        "push failed: {} {}",
        reply.status,
        String::from_utf8_lossy(&reply.body)
    );
    let answer: PushAnswer = serde_json::from_slice(&reply.body).unwrap();
    let refused = answer.results.iter().find(|r| r.status != "applied");
    assert!(
        refused.is_none(),
        "a mutation was not applied: {}",
        String::from_utf8_lossy(&reply.body)
    );
}

/// What a push answers, as far as the bench checks it (typed: a JSON tree per answer was a
/// good part of the client's CPU).
#[derive(serde::Deserialize)]
struct PushAnswer<'a> {
    #[serde(borrow)]
    results: Vec<PushResult<'a>>,
}

#[derive(serde::Deserialize)]
struct PushResult<'a> {
    status: &'a str,
}

/// `batch` new entries (varied days starting at day `from`) as one push's mutations, the
/// records' and the mutations' ids made as `ids` says.
pub fn entry_mutations(
    from: usize,
    batch: usize,
    couriers: &[String],
    ids: days::Ids,
) -> Vec<Value> {
    (from..from + batch)
        .map(|i| {
            let mut day = days::day(i % days::HISTORY_DAYS);
            day.id = ids.new_id();
            json!({"id": ids.new_id(), "name": "entry.put", "args": day.entry_args(couriers)})
        })
        .collect()
}

/// A user holding ten years of varied days (three couriers and the default one); returns
/// their cookie.
pub async fn user_with_history(base: &str) -> String {
    let http = client();
    let cookie = guest(&http, base).await;
    let mut wire = Connection::to(base);
    let (couriers, mutations) = days::courier_mutations();
    push(&mut wire, &cookie, mutations).await;
    for from in (0..days::HISTORY_DAYS).step_by(500) {
        let count = (days::HISTORY_DAYS - from).min(500);
        let mutations = (from..from + count)
            .map(|i| {
                json!({"id": days::new_id(), "name": "entry.put",
                       "args": days::day(i).entry_args(&couriers)})
            })
            .collect();
        push(&mut wire, &cookie, mutations).await;
    }
    cookie
}

/// Pulls everything from cursor 0 as a new device does (gzip on the wire, decompressed by the
/// client); returns the time, the bytes on the wire and the changes received.
pub async fn pull_history(base: &str, cookie: &str) -> (Duration, usize, usize) {
    let http = client();
    let started = Instant::now();
    let (mut cursor, mut bytes, mut changes) = (0i64, 0usize, 0usize);
    loop {
        let url = format!("{base}/api/v1/sync/pull?cursor={cursor}&limit=1000");
        let (wire, page) = get_gzipped_json(&http, &url, ("cookie", cookie)).await;
        bytes += wire;
        changes += page["changes"].as_array().unwrap().len();
        cursor = page["cursor"].as_i64().unwrap();
        if !page["hasMore"].as_bool().unwrap() {
            break;
        }
    }
    (started.elapsed(), bytes, changes)
}

/// GETs `url` with one credential header and gzip asked for, as both pull figures do; returns
/// the bytes on the wire and the JSON body, decompressed.
pub async fn get_gzipped_json(
    http: &reqwest::Client,
    url: &str,
    (header, credential): (&str, &str),
) -> (usize, Value) {
    let reply = http
        .get(url)
        .header(header, credential)
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert!(reply.status().is_success(), "{url}: {}", reply.status());
    let gzipped = reply
        .headers()
        .get("content-encoding")
        .is_some_and(|v| v == "gzip");
    let body = reply.bytes().await.unwrap();
    let json = serde_json::from_slice(&plain(&body, gzipped)).unwrap();
    (body.len(), json)
}

/// A response body as the client reads it: gunzipped when it came compressed.
pub fn plain(body: &[u8], gzipped: bool) -> Vec<u8> {
    if !gzipped {
        return body.to_vec();
    }
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(body)
        .read_to_end(&mut out)
        .unwrap();
    out
}

/// An open event stream of `cookie`'s user, left idle (nothing read after its headers).
pub async fn open_stream(addr: std::net::SocketAddr, cookie: &str) -> TcpStream {
    let mut socket = TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "GET /api/v1/sync/events HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\nAccept: text/event-stream\r\n\r\n"
    );
    socket.write_all(request.as_bytes()).await.unwrap();
    let mut head = [0u8; 12];
    socket.read_exact(&mut head).await.unwrap();
    assert!(
        head.ends_with(b"200"),
        "event stream refused: {}",
        String::from_utf8_lossy(&head)
    );
    socket
}
