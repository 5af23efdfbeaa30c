//! Connections (issue 10 item 1): idle sockets and event streams of one guest session against
//! a server started with 1024 open files. Reports what the given binary does, old or new: how
//! many idle sockets it lets one address hold, `/healthz` latency meanwhile, how many event
//! streams one session keeps open, and the server's open file descriptors at the end.

use std::{
    net::SocketAddr,
    path::Path,
    time::{Duration, Instant},
};

use tokio::{
    io::AsyncWriteExt,
    net::{TcpSocket, TcpStream},
};

use super::{Figure, Server};

const ATTEMPTS: usize = 1_100;
/// Each phase stops opening sockets after this long, whatever the server does.
const PHASE_BUDGET: Duration = Duration::from_secs(20);
const HEALTH_PROBES: usize = 20;
const PROBE_TIMEOUT: Duration = Duration::from_secs(3);

pub async fn run(binary: &Path) -> Vec<Figure> {
    let server = Server::start(binary, &[], Some(1024)).await;
    let addr: SocketAddr = server
        .base
        .trim_start_matches("http://")
        .parse()
        .expect("base is http://IP:PORT");
    let mut figures = Vec::new();
    let figure = |name: &str, value: String| Figure {
        name: format!("connections: {name}"),
        value,
    };

    // Phase 1: idle sockets from one address, never sending a byte.
    let started = Instant::now();
    let mut idle: Vec<TcpStream> = Vec::new();
    for _ in 0..ATTEMPTS {
        if started.elapsed() > PHASE_BUDGET {
            break;
        }
        if let Some(socket) = connect_from("127.0.0.2", addr).await {
            idle.push(socket);
        }
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let held = idle
        .iter()
        .filter(|socket| stream_open(socket, &mut Vec::new()))
        .count();
    figures.push(figure(
        "idle sockets held (one address)",
        format!("{held} of {} opened", idle.len()),
    ));
    figures.push(figure(
        "healthz latency while held",
        health_latency(&server.base).await,
    ));
    drop(idle);
    wait_healthy(&server.base).await;

    // Phase 2: one guest session opening event streams.
    let attacker = reqwest::Client::builder()
        .local_address("127.0.0.3".parse::<std::net::IpAddr>().unwrap())
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap();
    let cookie = super::guest(&attacker, &server.base).await;
    let request =
        format!("GET /api/v1/sync/events HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\n\r\n");
    let started = Instant::now();
    let mut streams = Vec::new();
    for _ in 0..ATTEMPTS {
        if started.elapsed() > PHASE_BUDGET {
            break;
        }
        let Some(mut socket) = connect_from("127.0.0.3", addr).await else {
            continue;
        };
        if socket.write_all(request.as_bytes()).await.is_ok() {
            streams.push((socket, Vec::new()));
        }
    }
    tokio::time::sleep(Duration::from_secs(2)).await;
    let mut open = 0;
    for (socket, seen) in &mut streams {
        if stream_open(socket, seen) {
            open += 1;
        }
    }
    figures.push(figure(
        "event streams per session accepted",
        format!("{open} open of {} requested", streams.len()),
    ));
    figures.push(figure(
        "healthz latency while streams held",
        health_latency(&server.base).await,
    ));
    let fds = listening_pid(addr.port())
        .and_then(|pid| std::fs::read_dir(format!("/proc/{pid}/fd")).ok())
        .map_or_else(|| "unknown".to_owned(), |dir| dir.count().to_string());
    figures.push(figure("open fds at the end (nofile 1024)", fds));
    figures.push(figure(
        "server RSS at the end",
        format!("{} KiB", server.rss_kib()),
    ));
    drop(streams);
    figures
}

async fn connect_from(source: &str, addr: SocketAddr) -> Option<TcpStream> {
    let socket = TcpSocket::new_v4().ok()?;
    socket.bind(format!("{source}:0").parse().ok()?).ok()?;
    tokio::time::timeout(Duration::from_secs(2), socket.connect(addr))
        .await
        .ok()?
        .ok()
}

/// Drains what has arrived; open means a 200 answer (or nothing yet) whose body has not ended
/// and a connection the server has not closed.
fn stream_open(socket: &TcpStream, seen: &mut Vec<u8>) -> bool {
    let mut buf = [0u8; 8192];
    loop {
        match socket.try_read(&mut buf) {
            Ok(0) => return false,
            Ok(n) => seen.extend_from_slice(&buf[..n]),
            Err(err) if err.kind() == std::io::ErrorKind::WouldBlock => break,
            Err(_) => return false,
        }
    }
    let text = String::from_utf8_lossy(seen);
    let answered_other = !seen.is_empty() && !text.starts_with("HTTP/1.1 200");
    let body_ended = text.contains("\r\n0\r\n\r\n");
    !answered_other && !body_ended
}

async fn health_latency(base: &str) -> String {
    let client = reqwest::Client::builder()
        .timeout(PROBE_TIMEOUT)
        .build()
        .unwrap();
    let mut times = Vec::new();
    let mut failed = 0;
    for _ in 0..HEALTH_PROBES {
        let start = Instant::now();
        match client.get(format!("{base}/healthz")).send().await {
            Ok(r) if r.status().is_success() => times.push(start.elapsed()),
            _ => failed += 1,
        }
    }
    if times.is_empty() {
        return format!("timeout ({failed} of {HEALTH_PROBES} failed)");
    }
    times.sort();
    let p50 = times[times.len() / 2];
    let max = times[times.len() - 1];
    let mut value = format!("p50 {:.1} ms, max {:.1} ms", ms(p50), ms(max));
    if failed > 0 {
        value.push_str(&format!(", {failed} of {HEALTH_PROBES} failed"));
    }
    value
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Gives a server that was flooded up to 30 s to answer again before the next phase.
async fn wait_healthy(base: &str) {
    let client = reqwest::Client::builder()
        .timeout(PROBE_TIMEOUT)
        .build()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        if let Ok(r) = client.get(format!("{base}/healthz")).send().await
            && r.status().is_success()
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// The process listening on 127.0.0.1:`port` (from /proc/net/tcp and the processes' fds).
fn listening_pid(port: u16) -> Option<u32> {
    let table = std::fs::read_to_string("/proc/net/tcp").ok()?;
    let local = format!("0100007F:{port:04X}");
    let inode = table.lines().skip(1).find_map(|line| {
        let cols: Vec<&str> = line.split_whitespace().collect();
        if cols.get(1) == Some(&local.as_str()) && cols.get(3) == Some(&"0A") {
            cols.get(9).map(std::string::ToString::to_string)
        } else {
            None
        }
    })?;
    let target = format!("socket:[{inode}]");
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(fds) = std::fs::read_dir(entry.path().join("fd")) else {
            continue;
        };
        for fd in fds.flatten() {
            if std::fs::read_link(fd.path()).is_ok_and(|l| l.to_string_lossy() == target) {
                return Some(pid);
            }
        }
    }
    None
}
