//! A release binary of the server, started on a free loopback port with a fresh data directory
//! (both bench binaries measure the real process, as an operator runs it).

use std::{
    io::{BufRead, BufReader},
    path::Path,
    process::{Child, Command, Stdio},
    time::Duration,
};

/// A release binary serving on a free loopback port with a fresh data directory (or a given
/// one); killed on drop.
pub struct Server {
    pub base: String,
    pub addr: std::net::SocketAddr,
    child: Child,
    dir: std::path::PathBuf,
    _fresh: Option<tempfile::TempDir>,
}

impl Server {
    /// Starts `binary serve` with `env` on top of a quiet default environment, under an
    /// open-file limit of `nofile` (soft and hard) when given.
    pub async fn start(binary: &Path, env: &[(&str, &str)], nofile: Option<u64>) -> Server {
        let fresh = tempfile::tempdir().expect("temp dir");
        let mut server = Server::start_in(binary, fresh.path(), env, nofile).await;
        server._fresh = Some(fresh);
        server
    }

    /// As `start`, on the data directory `data_dir` (a restart over the same data).
    pub async fn start_in(
        binary: &Path,
        data_dir: &Path,
        env: &[(&str, &str)],
        nofile: Option<u64>,
    ) -> Server {
        let dir = data_dir;
        std::fs::create_dir_all(dir).expect("data dir");
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
        let log = std::fs::File::options()
            .create(true)
            .append(true)
            .open(dir.join("server.log"))
            .expect("log file");
        command
            .arg("serve")
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("DATA_DIR", dir)
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
            let log = std::fs::read_to_string(dir.join("server.log")).unwrap_or_default();
            panic!("{} did not start:\n{log}", binary.display())
        });
        let addr: std::net::SocketAddr = addr.parse().expect("listen address");
        Server {
            base: format!("http://{addr}"),
            addr,
            child,
            dir: dir.to_owned(),
            _fresh: None,
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn data_dir(&self) -> &Path {
        &self.dir
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
        std::fs::read_to_string(self.dir.join("server.log")).unwrap_or_default()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A field of `/proc/PID/status` in KiB (`VmRSS:`, `VmHWM:`), 0 once the process is gone.
pub fn proc_status_kib(pid: u32, field: &str) -> u64 {
    proc_field(pid, "status", field)
}

/// The bytes the process has passed to write calls so far (`wchar:` of `/proc/PID/io`): its
/// WAL frames and checkpoints, and its answers on sockets. 0 once the process is gone.
pub fn proc_written_bytes(pid: u32) -> u64 {
    proc_field(pid, "io", "wchar:")
}

/// The CPU time the process has used so far, user and system, in seconds (0 once it is gone).
pub fn proc_cpu_seconds(pid: u32) -> f64 {
    /// Linux's USER_HZ, the unit of /proc's times on every architecture it supports.
    const TICKS_PER_SECOND: f64 = 100.0;
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // After the command name (in parentheses, which may hold spaces): state is the first
    // field, utime the 12th and stime the 13th.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or("", |(_, rest)| rest)
        .split_whitespace()
        .collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0)
    };
    (ticks(11) + ticks(12)) as f64 / TICKS_PER_SECOND
}

/// The first number after `field` in `/proc/PID/<file>`, 0 when missing.
fn proc_field(pid: u32, file: &str, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/{file}"))
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
    session_cookie(&reply)
}

/// The `name=value` session cookie a sign-in or sign-up answer set.
pub fn session_cookie(reply: &reqwest::Response) -> String {
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
