//! Hostile connections: idle sockets and piles of event streams must not starve other users
//! (the real binary under a low open-file limit, directly and behind a trusted proxy), the
//! header-read/idle timeout, the per-address connection cap, the event-stream caps (per
//! session, user, client address and overall) and lifetime, and 408/413 in the JSON error
//! shape with the security headers.

use crate::common;

use std::{net::SocketAddr, process::Child, time::Duration};

use common::{
    Backend, TestApp,
    binary::{cookie_of, guest_cookie},
    spawn_app_with,
};
use futures_util::StreamExt;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpSocket, TcpStream},
};
use uuid::Uuid;

/// Generous: a loaded machine is slow, and every wait below is for a condition.
const DEADLINE: Duration = Duration::from_secs(60);
const EVENTS: &str = "/api/v1/sync/events";

async fn connect_from(source: &str, addr: SocketAddr) -> Option<TcpStream> {
    let socket = TcpSocket::new_v4().ok()?;
    socket.bind(format!("{source}:0").parse().unwrap()).ok()?;
    tokio::time::timeout(Duration::from_secs(5), socket.connect(addr))
        .await
        .ok()?
        .ok()
}

/// Reads until the server closes the connection; `None` if it is still open at the deadline.
async fn read_until_closed(stream: &mut TcpStream) -> Option<Vec<u8>> {
    let mut received = Vec::new();
    let read = tokio::time::timeout(DEADLINE, async {
        let mut buf = [0u8; 4096];
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => received.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    read.ok().map(|()| received)
}

struct Server {
    child: Child,
    base: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_binary_with_nofile(data_dir: &std::path::Path, nofile: u64) -> Server {
    start_binary_with(data_dir, nofile, &[])
}

fn start_binary_with(data_dir: &std::path::Path, nofile: u64, env: &[(&str, &str)]) -> Server {
    let port = common::binary::free_port();
    Server {
        child: common::binary::start_binary(data_dir, port, env, Some(nofile)),
        base: format!("http://127.0.0.1:{port}"),
    }
}

fn entry_put() -> Value {
    let id = Uuid::now_v7().to_string();
    json!({"id": Uuid::now_v7().to_string(), "name": "entry.put",
           "args": {"id": id, "date": "2026-01-05", "stops": 10, "extra": 0, "notes": "", "total": 1980}})
}

/// The attack from the issue: at 256 open files, 300 event streams of one guest session from
/// one address and 300 idle sockets from another. Before the fix the server ran out of
/// file descriptors and `/healthz` and every other user's requests hung.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_sockets_and_event_streams_do_not_starve_other_clients() {
    let dir = tempfile::tempdir().unwrap();
    let server = start_binary_with_nofile(dir.path(), 256);
    let addr: SocketAddr = server.base.trim_start_matches("http://").parse().unwrap();

    let attacker = reqwest::Client::builder()
        .local_address("127.0.0.3".parse::<std::net::IpAddr>().unwrap())
        .timeout(Duration::from_secs(20))
        .build()
        .unwrap();
    let cookie = guest_cookie(&attacker, &server.base).await;
    let request = format!("GET {EVENTS} HTTP/1.1\r\nHost: x\r\nCookie: {cookie}\r\n\r\n");
    let mut streams = Vec::new();
    for _ in 0..300 {
        if let Some(mut socket) = connect_from("127.0.0.3", addr).await {
            let _ = socket.write_all(request.as_bytes()).await;
            streams.push(socket);
        }
    }
    let mut idle = Vec::new();
    for _ in 0..300 {
        if let Some(socket) = connect_from("127.0.0.2", addr).await {
            idle.push(socket);
        }
    }
    eprintln!(
        "held {} idle sockets and {} event-stream requests",
        idle.len(),
        streams.len()
    );

    let victim = reqwest::Client::builder()
        .timeout(Duration::from_secs(20))
        .build()
        .unwrap();
    let health = victim
        .get(format!("{}/healthz", server.base))
        .send()
        .await
        .expect("/healthz answers while the attacker holds its sockets");
    assert_eq!(health.status(), StatusCode::OK);

    let signup = victim
        .post(format!("{}/api/v1/auth/signup", server.base))
        .json(&json!({"email": "victim@example.com", "password": "van-route-42"}))
        .send()
        .await
        .expect("sign-up answers");
    assert_eq!(signup.status(), StatusCode::CREATED);
    let victim_cookie = cookie_of(&signup);
    let push = victim
        .post(format!("{}/api/v1/sync/push", server.base))
        .header("cookie", victim_cookie)
        .json(&json!({"clientId": "victim", "mutations": [entry_put()]}))
        .send()
        .await
        .expect("push answers");
    assert_eq!(push.status(), StatusCode::OK);
    let results: Value = push.json().await.unwrap();
    assert_eq!(results["results"][0]["status"], "applied", "{results}");
    drop((idle, streams));
}

/// The attack of issue 31: at 256 open files (192 connection slots), behind a trusted proxy
/// on this host, 12 accounts × 4 sign-ins × 4 event streams from one forwarded address. Before
/// the fix every stream took a slot and `/healthz` and other clients' pushes hung. Now the
/// address holds at most EVENT_STREAMS_PER_IP streams, refusals close their connection, and
/// streams can never take more than their share of the slots.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn event_streams_from_one_forwarded_address_do_not_starve_other_clients() {
    const ATTACKER: &str = "198.51.100.7";
    let dir = tempfile::tempdir().unwrap();
    let server = start_binary_with(
        dir.path(),
        256,
        &[
            ("TRUST_PROXY", "true"),
            ("AUTH_RATE_LIMIT_PER_MINUTE", "100000"),
            ("LOGIN_RATE_LIMIT_PER_MINUTE", "100000"),
        ],
    );
    let addr: SocketAddr = server.base.trim_start_matches("http://").parse().unwrap();
    let client = || {
        reqwest::Client::builder()
            .timeout(Duration::from_secs(20))
            .build()
            .unwrap()
    };
    // The attacker's accounts, made before the attack; its client (and the keep-alive
    // connection it holds) goes before the streams open.
    let http = client();
    let mut cookies = Vec::new();
    for account in 0..12 {
        let email = format!("streams{account}@example.com");
        let credentials = json!({"email": email, "password": "van-route-42"});
        let signup = http
            .post(format!("{}/api/v1/auth/signup", server.base))
            .header("x-forwarded-for", ATTACKER)
            .json(&credentials)
            .send()
            .await
            .unwrap();
        assert_eq!(signup.status(), StatusCode::CREATED);
        cookies.push(cookie_of(&signup));
        for _ in 0..3 {
            let login = http
                .post(format!("{}/api/v1/auth/login", server.base))
                .header("x-forwarded-for", ATTACKER)
                .json(&credentials)
                .send()
                .await
                .unwrap();
            assert_eq!(login.status(), StatusCode::OK);
            cookies.push(cookie_of(&login));
        }
    }
    drop(http);
    let mut streams = Vec::new();
    for cookie in &cookies {
        for _ in 0..4 {
            let request = format!(
                "GET {EVENTS} HTTP/1.1\r\nHost: x\r\nCookie: {cookie}\r\n\
                 X-Forwarded-For: {ATTACKER}\r\n\r\n"
            );
            if let Some(mut socket) = connect_from("127.0.0.3", addr).await {
                let _ = socket.write_all(request.as_bytes()).await;
                streams.push(socket);
            }
        }
    }
    assert_eq!(streams.len(), 192, "every stream request was sent");

    // A client that was not connected before the attack.
    let http = client();
    let health = http
        .get(format!("{}/healthz", server.base))
        .send()
        .await
        .expect("/healthz answers while the streams are held");
    assert_eq!(health.status(), StatusCode::OK);
    let signup = http
        .post(format!("{}/api/v1/auth/signup", server.base))
        .header("x-forwarded-for", "203.0.113.9")
        .json(&json!({"email": "victim@example.com", "password": "van-route-42"}))
        .send()
        .await
        .expect("sign-up answers");
    assert_eq!(signup.status(), StatusCode::CREATED);
    let push = http
        .post(format!("{}/api/v1/sync/push", server.base))
        .header("cookie", cookie_of(&signup))
        .header("x-forwarded-for", "203.0.113.9")
        .json(&json!({"clientId": "victim", "mutations": [entry_put()]}))
        .send()
        .await
        .expect("a push from another address answers");
    assert_eq!(push.status(), StatusCode::OK);
    let results: Value = push.json().await.unwrap();
    assert_eq!(results["results"][0]["status"], "applied", "{results}");

    // How the stream requests were answered: the address's share, the rest refused.
    let mut statuses = std::collections::BTreeMap::new();
    for socket in &mut streams {
        let status = status_line(socket).await;
        *statuses.entry(status).or_insert(0) += 1;
    }
    eprintln!("stream answers: {statuses:?}");
    assert_eq!(
        statuses.get("200"),
        Some(&12),
        "EVENT_STREAMS_PER_IP = 256 files → 12"
    );
    assert_eq!(statuses.get("429"), Some(&180), "{statuses:?}");
}

/// The status code of the answer on `socket` ("none" if it closed or said nothing in time).
async fn status_line(socket: &mut TcpStream) -> String {
    let mut head = Vec::new();
    let read = tokio::time::timeout(DEADLINE, async {
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

/// A connection that sends nothing, and one idle after its answer, are both closed.
async fn silent_and_idle_connections_are_closed(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |c| c.connections.header_read_timeout_secs = 1).await
    else {
        return;
    };
    let mut silent = TcpStream::connect(app.addr).await.unwrap();
    assert!(
        read_until_closed(&mut silent).await.is_some(),
        "a connection that never sends a request is closed"
    );

    let mut idle = TcpStream::connect(app.addr).await.unwrap();
    idle.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let received = read_until_closed(&mut idle)
        .await
        .expect("an idle keep-alive connection is closed after its answer");
    let text = String::from_utf8_lossy(&received);
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
}

/// One client address holds at most MAX_CONNECTIONS_PER_IP connections; others still get in.
async fn one_address_cannot_take_every_connection(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |c| {
        c.connections.max_connections = Some(10);
        c.connections.max_connections_per_ip = Some(3);
        c.connections.header_read_timeout_secs = 600;
    })
    .await
    else {
        return;
    };
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(connect_from("127.0.0.2", app.addr).await.unwrap());
    }
    let mut extra = connect_from("127.0.0.2", app.addr).await.unwrap();
    assert!(
        read_until_closed(&mut extra).await.is_some(),
        "a fourth connection from the same address is closed at once"
    );
    let health = app.get("/healthz", None).await;
    assert_eq!(health.status, StatusCode::OK);
    drop(held);
}

/// Opens an event stream and waits for its greeting, so it is registered.
async fn open_stream(
    app: &TestApp,
    cookie: &str,
) -> impl futures_util::Stream<Item = reqwest::Result<bytes::Bytes>> + Unpin {
    let response = app
        .http
        .get(format!("{}{EVENTS}", app.base))
        .header("cookie", cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let mut stream = Box::pin(response.bytes_stream());
    let first = tokio::time::timeout(DEADLINE, stream.next()).await.unwrap();
    assert!(
        String::from_utf8_lossy(&first.unwrap().unwrap()).contains("poke"),
        "greeting"
    );
    stream
}

async fn ends(
    stream: &mut (impl futures_util::Stream<Item = reqwest::Result<bytes::Bytes>> + Unpin),
) -> bool {
    tokio::time::timeout(DEADLINE, async {
        while let Some(Ok(_)) = stream.next().await {}
    })
    .await
    .is_ok()
}

/// Receives a poke (a push happened) within the deadline: the stream is still open.
async fn gets_poke(
    stream: &mut (impl futures_util::Stream<Item = reqwest::Result<bytes::Bytes>> + Unpin),
) -> bool {
    tokio::time::timeout(DEADLINE, async {
        while let Some(Ok(chunk)) = stream.next().await {
            if String::from_utf8_lossy(&chunk).contains("cursor") {
                return true;
            }
        }
        false
    })
    .await
    .unwrap_or(false)
}

async fn event_streams_are_capped_per_session_and_user(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |c| {
        c.connections.event_streams_per_session = 2;
        c.connections.event_streams_per_user = 3;
    })
    .await
    else {
        return;
    };
    let (a, _) = app.sign_up("streams@example.com", "van-route-42").await;
    let login = app
        .post(
            "/api/v1/auth/login",
            json!({"email": "streams@example.com", "password": "van-route-42"}),
        )
        .await;
    assert_eq!(login.status, StatusCode::OK, "{}", login.text);
    let b = login.session_cookie().unwrap();

    let mut a1 = open_stream(&app, &a).await;
    let mut a2 = open_stream(&app, &a).await;
    let mut a3 = open_stream(&app, &a).await;
    assert!(ends(&mut a1).await, "the session's oldest stream is closed");
    let mut b1 = open_stream(&app, &b).await;
    let mut b2 = open_stream(&app, &b).await;
    assert!(ends(&mut a2).await, "the user's oldest stream is closed");

    let push = app
        .request(
            Method::POST,
            "/api/v1/sync/push",
            Some(json!({"clientId": "d", "mutations": [entry_put()]})),
            Some(&a),
        )
        .await;
    assert_eq!(push.status, StatusCode::OK);
    for (name, stream) in [("a3", &mut a3), ("b1", &mut b1), ("b2", &mut b2)] {
        assert!(gets_poke(stream).await, "{name} is still open");
    }
}

/// Behind a trusted proxy each forwarded address holds at most EVENT_STREAMS_PER_IP streams,
/// all streams together at most MAX_EVENT_STREAMS; a refusal says when to come back and
/// closes its connection.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn event_streams_are_capped_per_forwarded_address_and_overall() {
    let app = spawn_app_with(Backend::Sqlite, |c| {
        c.http.trust_proxy = true;
        c.connections.max_event_streams = Some(3);
        c.connections.event_streams_per_ip = Some(2);
    })
    .await
    .unwrap();
    let mut cookies = Vec::new();
    for n in 0..4 {
        cookies.push(
            app.sign_up(&format!("cap{n}@example.com"), "van-route-42")
                .await
                .0,
        );
    }
    let open = |cookie: String, from: &'static str| {
        let app = &app;
        async move {
            app.http
                .get(format!("{}{EVENTS}", app.base))
                .header("cookie", cookie)
                .header("x-forwarded-for", format!("192.0.2.1, {from}"))
                .send()
                .await
                .unwrap()
        }
    };
    let mut held = Vec::new();
    for cookie in &cookies[..2] {
        let stream = open(cookie.clone(), "198.51.100.7").await;
        assert_eq!(stream.status(), StatusCode::OK);
        held.push(stream);
    }
    let third = open(cookies[2].clone(), "198.51.100.7").await;
    assert_eq!(third.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(third.headers()["connection"], "close");
    assert_eq!(third.headers()["retry-after"], "15");
    let body: Value = third.json().await.unwrap();
    assert_eq!(body["error"]["code"], "too-many-streams", "{body}");

    let other = open(cookies[2].clone(), "203.0.113.9").await;
    assert_eq!(other.status(), StatusCode::OK, "another address gets in");
    held.push(other);
    let full = open(cookies[3].clone(), "192.0.2.200").await;
    assert_eq!(
        full.status(),
        StatusCode::SERVICE_UNAVAILABLE,
        "MAX_EVENT_STREAMS"
    );
    assert_eq!(full.headers()["connection"], "close");
    let body: Value = full.json().await.unwrap();
    assert_eq!(body["error"]["code"], "busy", "{body}");

    drop(held.remove(0));
    let mut again = None;
    for _ in 0..600 {
        let reply = open(cookies[3].clone(), "192.0.2.200").await;
        if reply.status() == StatusCode::OK {
            again = Some(reply);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(again.is_some(), "an ended stream gives its slot back");
}

/// A stream ends by itself after EVENT_STREAM_MAX_SECONDS, however quiet, so a browser
/// reconnects (with its session checked again) and no stream holds a slot for ever.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_stream_ends_after_its_lifetime() {
    let app = spawn_app_with(Backend::Sqlite, |c| {
        c.connections.event_stream_max_seconds = 1;
    })
    .await
    .unwrap();
    let (cookie, _) = app.sign_up("lifetime@example.com", "van-route-42").await;
    let mut stream = open_stream(&app, &cookie).await;
    assert!(ends(&mut stream).await, "the stream ended at its lifetime");
    let mut again = open_stream(&app, &cookie).await;
    assert!(
        ends(&mut again).await,
        "and a new one can open and ends too"
    );
}

fn parse_http(raw: &[u8]) -> (u16, Vec<(String, String)>, Value) {
    let text = String::from_utf8_lossy(raw);
    let (head, body) = text.split_once("\r\n\r\n").expect("a whole answer");
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    (
        status,
        headers,
        serde_json::from_str(body).unwrap_or(Value::Null),
    )
}

fn assert_security_headers(headers: &[(String, String)]) {
    let has = |name: &str| headers.iter().any(|(k, _)| k == name);
    for name in [
        "content-security-policy",
        "x-content-type-options",
        "referrer-policy",
        "x-frame-options",
    ] {
        assert!(has(name), "{name} missing from {headers:?}");
    }
}

/// A request whose body never finishes is answered 408 in the error shape, with the headers.
async fn request_timeout_is_json_with_security_headers(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |c| {
        c.connections.request_timeout_secs = 1;
        c.connections.header_read_timeout_secs = 2;
    })
    .await
    else {
        return;
    };
    let mut slow = TcpStream::connect(app.addr).await.unwrap();
    slow.write_all(
        b"POST /api/v1/billing/webhook HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
          Content-Length: 100\r\n\r\n{\"clientId\":",
    )
    .await
    .unwrap();
    let raw = read_until_closed(&mut slow)
        .await
        .expect("answered and closed");
    let (status, headers, body) = parse_http(&raw);
    assert_eq!(status, 408, "{}", String::from_utf8_lossy(&raw));
    assert_eq!(body["error"]["code"], "request-timeout", "{body}");
    assert_security_headers(&headers);
}

/// A body over the limit on a route that reads raw bytes is 413 in the error shape too.
async fn payload_too_large_is_json_with_security_headers(backend: Backend) {
    let Some(app) = spawn_app_with(backend, |_| {}).await else {
        return;
    };
    let response = app
        .http
        .post(format!("{}/api/v1/billing/webhook", app.base))
        .body(vec![b'x'; 2 * 1024 * 1024])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let headers: Vec<(String, String)> = response
        .headers()
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_str().unwrap_or("").to_owned()))
        .collect();
    assert_security_headers(&headers);
    let body: Value = response.json().await.expect("a JSON body");
    assert_eq!(body["error"]["code"], "payload-too-large", "{body}");
}

on_both_backends!(
    silent_and_idle_connections_are_closed,
    one_address_cannot_take_every_connection,
    event_streams_are_capped_per_session_and_user,
    request_timeout_is_json_with_security_headers,
    payload_too_large_is_json_with_security_headers,
);
