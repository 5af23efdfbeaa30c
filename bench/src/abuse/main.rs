//! `make abuse`: the attacks of issue 10 replayed against release binaries on loopback, with the
//! figures printed side by side. Not a test (nothing here passes or fails): it reproduces what
//! a hostile visitor could do to a binary, so a fix can be shown before and after.
//!
//! `abuse --after target/release/delivery-tracker [--before OLD_BINARY] [--only NAME]`
//!
//! Every scenario starts its own server(s) with a fresh DATA_DIR, is bounded in time and count,
//! and sends traffic only to 127.0.0.0/8.

mod connections;
mod phone;
mod storage;
mod uploads;

use std::{
    io::{BufRead, BufReader},
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

/// One measured figure of a scenario.
pub struct Figure {
    pub name: String,
    pub value: String,
}

impl Figure {
    pub fn new(name: impl Into<String>, value: impl ToString) -> Figure {
        Figure {
            name: name.into(),
            value: value.to_string(),
        }
    }
}

/// A release binary serving on a free loopback port with a fresh data directory; killed on drop.
pub struct Server {
    pub base: String,
    pub addr: std::net::SocketAddr,
    child: Child,
    dir: tempfile::TempDir,
}

impl Server {
    /// Starts `binary serve` with `env` on top of a quiet default environment, under an
    /// open-file limit of `nofile` (soft and hard) when given.
    pub async fn start(binary: &Path, env: &[(&str, &str)], nofile: Option<u64>) -> Server {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut command = match nofile {
            Some(limit) => {
                let mut c = Command::new("prlimit");
                c.arg(format!("--nofile={limit}:{limit}"))
                    .arg("--")
                    .arg(binary);
                c
            }
            None => Command::new(binary),
        };
        let log = std::fs::File::create(dir.path().join("server.log")).expect("log file");
        command
            .arg("serve")
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("DATA_DIR", dir.path())
            .env("LISTEN", "127.0.0.1:0")
            .env("LOG", "warn")
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(log)
            .stdin(Stdio::null());
        let mut child = command.spawn().expect("start the server binary");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(addr) = line.strip_prefix("Delivery Tracker listening on http://") {
                    let _ = tx.send(addr.trim().to_owned());
                }
            }
        });
        let started = tokio::task::spawn_blocking(move || rx.recv_timeout(Duration::from_secs(60)))
            .await
            .expect("start watcher");
        let addr = started.unwrap_or_else(|_| {
            let log = std::fs::read_to_string(dir.path().join("server.log")).unwrap_or_default();
            panic!("{} did not start:\n{log}", binary.display())
        });
        let addr: std::net::SocketAddr = addr.parse().expect("listen address");
        Server {
            base: format!("http://{addr}"),
            addr,
            child,
            dir,
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn data_dir(&self) -> &Path {
        self.dir.path()
    }

    /// Resident memory (VmRSS) in KiB, 0 once the process is gone.
    pub fn rss_kib(&self) -> u64 {
        proc_status_kib(self.pid(), "VmRSS:")
    }

    /// Peak resident memory (VmHWM) in KiB.
    pub fn peak_rss_kib(&self) -> u64 {
        proc_status_kib(self.pid(), "VmHWM:")
    }

    /// File descriptors the server holds open.
    pub fn open_fds(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/fd", self.pid())).map_or(0, std::iter::Iterator::count)
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// The server's log so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("server.log")).unwrap_or_default()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn proc_status_kib(pid: u32, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|line| line.strip_prefix(field))
        .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// A new guest account; returns its `name=value` session cookie.
pub async fn guest(client: &reqwest::Client, base: &str) -> String {
    let reply = client
        .post(format!("{base}/api/v1/auth/guest"))
        .send()
        .await
        .expect("guest request");
    assert!(
        reply.status().is_success(),
        "guest sign-up refused: {}",
        reply.status()
    );
    reply
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|c| c.starts_with("__Host-session=") || c.starts_with("session="))
        .and_then(|c| c.split(';').next())
        .expect("session cookie")
        .to_owned()
}

/// Milliseconds since `since`, to one decimal.
pub fn ms(since: Instant) -> String {
    format!("{:.1} ms", since.elapsed().as_secs_f64() * 1000.0)
}

/// The scenarios, in the order of the findings.
type Scenario = fn(&Path) -> std::pin::Pin<Box<dyn std::future::Future<Output = Vec<Figure>> + '_>>;

fn scenarios() -> Vec<(&'static str, Scenario)> {
    vec![
        ("connections", |b| Box::pin(connections::run(b))),
        ("storage", |b| Box::pin(storage::run(b))),
        ("uploads", |b| Box::pin(uploads::run(b))),
        ("phone", |b| Box::pin(phone::run(b))),
    ]
}

struct Args {
    before: Option<PathBuf>,
    after: PathBuf,
    only: Option<String>,
}

fn parse_args() -> Args {
    let mut args = std::env::args().skip(1);
    let (mut before, mut after, mut only) = (None, None, None);
    while let Some(flag) = args.next() {
        let mut value = || {
            args.next()
                .unwrap_or_else(|| panic!("{flag} needs a value"))
        };
        match flag.as_str() {
            "--before" => {
                before = Some(PathBuf::from(value())).filter(|p| !p.as_os_str().is_empty());
            }
            "--after" => after = Some(PathBuf::from(value())),
            "--only" => only = Some(value()),
            other => panic!("unknown argument {other}"),
        }
    }
    Args {
        before,
        after: after.unwrap_or_else(|| PathBuf::from("target/release/delivery-tracker")),
        only,
    }
}

#[tokio::main]
async fn main() {
    let args = parse_args();
    let mut rows: Vec<(String, String, Option<String>)> = Vec::new();
    for (name, scenario) in scenarios() {
        if args.only.as_deref().is_some_and(|only| only != name) {
            continue;
        }
        eprintln!("== {name}");
        let before = match &args.before {
            Some(binary) => Some(scenario(binary).await),
            None => None,
        };
        let after = scenario(&args.after).await;
        for (i, figure) in after.into_iter().enumerate() {
            let old = before
                .as_ref()
                .and_then(|b| b.get(i))
                .map(|f| f.value.clone());
            // As it comes, so a later scenario that fails loses nothing measured so far.
            eprintln!(
                "   {}: {} -> {}",
                figure.name,
                old.as_deref().unwrap_or("-"),
                figure.value
            );
            let label = if figure.name.starts_with(&format!("{name}: ")) {
                figure.name
            } else {
                format!("{name}: {}", figure.name)
            };
            rows.push((label, figure.value, old));
        }
    }
    let with_before = args.before.is_some();
    if with_before {
        println!("| attack | before | after |\n|---|---|---|");
    } else {
        println!("| attack | figure |\n|---|---|");
    }
    for (name, after, before) in rows {
        if with_before {
            println!(
                "| {name} | {} | {after} |",
                before.unwrap_or_else(|| "-".into())
            );
        } else {
            println!("| {name} | {after} |");
        }
    }
}
