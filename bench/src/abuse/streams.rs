//! Event streams behind a trusted proxy (issue 31 item 1): at 256 open files, 12 accounts × 4
//! sign-ins × 4 event streams from one forwarded address, then `/healthz` and a push from
//! another address, each given 20 s. Reports how many streams the address got, and whether
//! (and how fast) the others were answered.

use std::{
    collections::BTreeMap,
    net::SocketAddr,
    path::Path,
    time::{Duration, Instant},
};

use serde_json::json;
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpSocket, TcpStream},
};

use super::{Figure, Server, ms};

const ATTACKER: &str = "198.51.100.7";
const ENV: &[(&str, &str)] = &[
    ("TRUST_PROXY", "true"),
    ("AUTH_RATE_LIMIT_PER_MINUTE", "100000"),
    ("LOGIN_RATE_LIMIT_PER_MINUTE", "100000"),
];

fn figure(name: &str, value: String) -> Figure {
    Figure::new(format!("streams: {name}"), value)
}

pub async fn run(binary: &Path) -> Vec<Figure> {
    let server = Server::start(binary, ENV, Some(256)).await;
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(20))
        .build()
        .expect("client");
    let mut cookies = Vec::new();
    for account in 0..12 {
        let credentials =
            json!({"email": format!("s{account}@example.com"), "password": "van-route-42"});
        let signup = http
            .post(format!("{}/api/v1/auth/signup", server.base))
            .header("x-forwarded-for", ATTACKER)
            .json(&credentials)
            .send()
            .await
            .expect("sign-up");
        cookies.push(bench::served::session_cookie(&signup));
        for _ in 0..3 {
            let login = http
                .post(format!("{}/api/v1/auth/login", server.base))
                .header("x-forwarded-for", ATTACKER)
                .json(&credentials)
                .send()
                .await
                .expect("login");
            cookies.push(bench::served::session_cookie(&login));
        }
    }
    drop(http);
    let mut streams = Vec::new();
    for cookie in &cookies {
        for _ in 0..4 {
            if let Some(mut socket) = connect(server.addr).await {
                let request = format!(
                    "GET /api/v1/sync/events HTTP/1.1\r\nHost: x\r\nCookie: {cookie}\r\n\
                     X-Forwarded-For: {ATTACKER}\r\n\r\n"
                );
                let _ = socket.write_all(request.as_bytes()).await;
                streams.push(socket);
            }
        }
    }
    // A client that was not connected before.
    let victim = reqwest::Client::builder()
        .timeout(Duration::from_secs(20))
        .build()
        .expect("client");
    let started = Instant::now();
    let health = match victim.get(format!("{}/healthz", server.base)).send().await {
        Ok(reply) => format!("{} in {}", reply.status().as_u16(), ms(started)),
        Err(_) => format!("no answer in {}", ms(started)),
    };
    let started = Instant::now();
    let push = match victim
        .post(format!("{}/api/v1/auth/guest", server.base))
        .header("x-forwarded-for", "203.0.113.9")
        .send()
        .await
    {
        Ok(reply) => {
            let cookie = bench::served::session_cookie(&reply);
            let entry = uuid::Uuid::now_v7().to_string();
            let mutation = json!({"id": uuid::Uuid::now_v7().to_string(), "name": "entry.put",
                "args": {"id": entry, "date": "2026-01-05", "stops": 10, "extra": 0, "notes": "", "total": 1980}});
            match victim
                .post(format!("{}/api/v1/sync/push", server.base))
                .header("cookie", cookie)
                .header("x-forwarded-for", "203.0.113.9")
                .json(&json!({"clientId": "victim", "mutations": [mutation]}))
                .send()
                .await
            {
                Ok(reply) => format!("{} in {}", reply.status().as_u16(), ms(started)),
                Err(_) => format!("no answer in {}", ms(started)),
            }
        }
        Err(_) => format!("no answer to the sign-in in {}", ms(started)),
    };
    let mut answers = BTreeMap::new();
    for socket in &mut streams {
        *answers.entry(status_of(socket).await).or_insert(0) += 1;
    }
    let answers: Vec<String> = answers.iter().map(|(s, n)| format!("{n}× {s}")).collect();
    vec![
        figure(
            "192 event streams from one forwarded address (TRUST_PROXY, 256 files): answers",
            answers.join(", "),
        ),
        figure("/healthz from another client meanwhile", health),
        figure(
            "guest sign-in and push from another address meanwhile",
            push,
        ),
    ]
}

async fn connect(addr: SocketAddr) -> Option<TcpStream> {
    let socket = TcpSocket::new_v4().ok()?;
    socket.bind("127.0.0.3:0".parse().ok()?).ok()?;
    tokio::time::timeout(Duration::from_secs(5), socket.connect(addr))
        .await
        .ok()?
        .ok()
}

/// The status code the server answered on `socket` with, or "none" within 5 s.
async fn status_of(socket: &mut TcpStream) -> String {
    let mut head = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), async {
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n") {
            match socket.read(&mut byte).await {
                Ok(1) => head.push(byte[0]),
                _ => return,
            }
        }
    })
    .await;
    if read.is_err() {
        return "none".into();
    }
    String::from_utf8_lossy(&head)
        .split(' ')
        .nth(1)
        .unwrap_or("none")
        .to_owned()
}
