//! The real `delivery-tracker` binary as a child process, for tests that need a whole process:
//! SIGKILLs, restarts, resource limits.

use std::{
    io::{BufRead, BufReader},
    path::Path,
    process::{Child, Command, Stdio},
};

/// A free loopback port (bound, then released for the binary to take).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Starts `delivery-tracker serve` on `127.0.0.1:port` over `data_dir`, with `env` on top and,
/// when `nofile` is given, under that open-file limit (soft and hard, via `prlimit`). Returns
/// once it prints its "listening" line: from then on requests are served.
pub fn start_binary(
    data_dir: &Path,
    port: u16,
    env: &[(&str, &str)],
    nofile: Option<u64>,
) -> Child {
    launch(data_dir, port, env, nofile, Some("error"))
}

/// As `start_binary`, at the log level an operator gets by default, with its log (stderr)
/// piped for the test to read.
pub fn start_binary_logging(data_dir: &Path, port: u16) -> Child {
    launch(data_dir, port, &[], None, None)
}

/// `log`: the `LOG` filter, with stderr discarded; None: the binary's default, stderr piped.
fn launch(
    data_dir: &Path,
    port: u16,
    env: &[(&str, &str)],
    nofile: Option<u64>,
    log: Option<&str>,
) -> Child {
    let binary = env!("CARGO_BIN_EXE_delivery-tracker");
    let mut command = match nofile {
        Some(limit) => {
            let mut command = Command::new("prlimit");
            command
                .arg(format!("--nofile={limit}:{limit}"))
                .arg("--")
                .arg(binary);
            command
        }
        None => Command::new(binary),
    };
    match log {
        Some(filter) => command.env("LOG", filter).stderr(Stdio::null()),
        None => command
            .env_remove("LOG")
            .env_remove("LOG_FORMAT")
            .stderr(Stdio::piped()),
    };
    let mut child = command
        .arg("serve")
        .env("DATA_DIR", data_dir)
        .env("LISTEN", format!("127.0.0.1:{port}"))
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the server binary starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(
        line.contains("listening"),
        "unexpected first line: {line:?}"
    );
    child
}

/// Starts `delivery-tracker serve` over `data_dir` with `env` on top (LISTEN among them), at
/// the log level an operator gets by default, and returns once it printed its last start-up
/// line ("Open … in a browser …"): the child, with its log (stderr) piped, and every line it
/// printed on stdout. A server that exits first, or prints no such line within a minute (a
/// bound against a hung test, not a measure of speed), fails the test with what it printed.
pub fn start_announced(data_dir: &Path, env: &[(&str, &str)]) -> (Child, Vec<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_delivery-tracker"))
        .arg("serve")
        .env_remove("LOG")
        .env_remove("LOG_FORMAT")
        .env("DATA_DIR", data_dir)
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server binary starts");
    let stdout = BufReader::new(child.stdout.take().unwrap());
    let (lines, printed) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in stdout.lines().map_while(Result::ok) {
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let mut seen = Vec::new();
    loop {
        match printed.recv_timeout(std::time::Duration::from_secs(60)) {
            Ok(line) => {
                let last = line.starts_with("Open ");
                seen.push(line);
                if last {
                    return (child, seen);
                }
            }
            Err(_) => {
                let log = stop_and_read_log(child);
                panic!("no \"Open … in a browser\" line; stdout {seen:?}, log:\n{log}");
            }
        }
    }
}

/// Stops `child` and returns its log (stderr).
pub fn stop_and_read_log(mut child: Child) -> String {
    use std::io::Read;
    let _ = child.kill();
    let _ = child.wait();
    let mut log = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut log)
        .unwrap();
    log
}

/// Signs in as a new guest over HTTP; returns the session cookie (`name=value`).
pub async fn guest_cookie(http: &reqwest::Client, base: &str) -> String {
    let response = http
        .post(format!("{base}/api/v1/auth/guest"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), reqwest::StatusCode::CREATED);
    cookie_of(&response)
}

/// The session cookie (`name=value`) a response set.
pub fn cookie_of(response: &reqwest::Response) -> String {
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|c| c.starts_with("__Host-session=") || c.starts_with("session="))
        .map(|c| c.split(';').next().unwrap().to_owned())
        .expect("session cookie")
}
