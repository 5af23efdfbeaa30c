//! Hostile connections: idle sockets and piles of event streams must not starve other users
//! (the real binary under a low open-file limit), the header-read/idle timeout, the
//! per-address connection cap, the event-stream caps, and 408/413 in the JSON error shape
//! with the security headers.

mod common;

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
    let port = common::binary::free_port();
    Server {
        child: common::binary::start_binary(data_dir, port, &[], Some(nofile)),
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
