//! The operator's first start of the real binary: a short log that ends with where to open the
//! app, a warning before the plain-http cookie trap bites, the port taken before migrations
//! (and named when it is in use), a BACKUP_DIR that cannot be written refused at start, a
//! wrong PostgreSQL address named once, and no `.env` error from a working directory the user
//! may not look into.

use crate::common;

use std::{
    path::Path,
    process::{Command, Output, Stdio},
    time::{Duration, Instant},
};

use common::binary::{free_port, start_announced, stop_and_read_log};

fn binary() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_delivery-tracker"));
    command
        .env_remove("LOG")
        .env_remove("DATABASE_URL")
        .env_remove("BACKUP_DIR");
    command
}

/// Runs a start that must be refused to its end. One that is still running after a minute (it
/// started where it should have refused; a bound against a hung test, not a measure of speed)
/// is stopped and fails the test with its log.
fn refused_start(command: &mut Command) -> Output {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let output = child.wait_with_output().unwrap();
            panic!(
                "the server started instead of refusing:\n{}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

fn database_in(data_dir: &Path) -> bool {
    data_dir.join("delivery-tracker.db").exists()
}

#[tokio::test]
async fn the_start_up_log_is_short_and_ends_with_where_to_open_it() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let listen = format!("127.0.0.1:{port}");
    let (server, printed) = start_announced(dir.path(), &[("LISTEN", &listen)]);
    let log = stop_and_read_log(server);
    assert_eq!(
        printed,
        [
            format!("Delivery Tracker listening on http://{listen}"),
            format!(
                "Open http://{listen} in a browser and choose Sign Up to create the first account."
            ),
        ],
        "log:\n{log}"
    );
    let migration_lines: Vec<&str> = log.lines().filter(|l| l.contains("migrat")).collect();
    assert_eq!(
        migration_lines.len(),
        1,
        "one line per migration run:\n{log}"
    );
    assert!(
        migration_lines[0].contains("0001_accounts to "),
        "{}",
        migration_lines[0]
    );
    let starting = log
        .lines()
        .find(|l| l.contains(" starting "))
        .unwrap_or_else(|| panic!("no summary line:\n{log}"));
    assert!(
        starting.contains("database=\"SQLite ")
            && starting.contains("sign_in=\"e-mail, guest\"")
            && starting.contains("backups=\"off\""),
        "{starting}"
    );
    assert!(
        !log.contains("Config {") && log.lines().all(|l| l.len() < 400),
        "the summary, not the configuration's dump:\n{log}"
    );
    assert!(
        !log.contains("WARN"),
        "nothing to warn about on loopback:\n{log}"
    );

    // Started again on the same data: nothing to migrate is not worth a line, and the first
    // step is now to sign in.
    let (guest_server, _) = start_announced(dir.path(), &[("LISTEN", &listen)]);
    common::binary::guest_cookie(&reqwest::Client::new(), &format!("http://{listen}")).await;
    let _ = stop_and_read_log(guest_server);
    let (again, printed) = start_announced(dir.path(), &[("LISTEN", &listen)]);
    let log = stop_and_read_log(again);
    assert!(!log.contains("migrat"), "{log}");
    assert_eq!(
        printed.last().unwrap(),
        &format!("Open http://{listen} in a browser and sign in.")
    );
}

#[test]
fn a_server_reached_over_plain_http_on_the_network_warns_about_the_cookie() {
    let dir = tempfile::tempdir().unwrap();
    let listen = format!("0.0.0.0:{}", free_port());
    let (server, printed) = start_announced(dir.path(), &[("LISTEN", &listen)]);
    let log = stop_and_read_log(server);
    let warning = log
        .lines()
        .find(|l| l.contains("WARN"))
        .unwrap_or_else(|| panic!("no warning:\n{log}"));
    assert!(
        warning.contains(&format!("LISTEN {listen}"))
            && warning.contains("Secure")
            && warning.contains("PUBLIC_URL=https://")
            && warning.contains("COOKIE_SECURE=false"),
        "{warning}"
    );
    assert!(
        printed.last().unwrap().contains("on this machine"),
        "{printed:?}"
    );

    // Behind an https proxy (PUBLIC_URL), or with the cookie made plain, nothing to warn about.
    for setting in [
        ("PUBLIC_URL", "https://tracker.example.com"),
        ("COOKIE_SECURE", "false"),
    ] {
        let (server, _) = start_announced(dir.path(), &[("LISTEN", &listen), setting]);
        let log = stop_and_read_log(server);
        assert!(!log.contains("WARN"), "{setting:?}:\n{log}");
    }
}

#[test]
fn the_port_is_taken_before_migrations_and_named_when_in_use() {
    let dir = tempfile::tempdir().unwrap();
    let data_dir = dir.path().join("data");
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = taken.local_addr().unwrap();
    let output = refused_start(
        binary()
            .arg("serve")
            .env("DATA_DIR", &data_dir)
            .env("LISTEN", address.to_string()),
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(
        stderr.contains(&format!("cannot listen on {address} (LISTEN)"))
            && stderr.contains("already"),
        "{stderr}"
    );
    assert!(
        !database_in(&data_dir) && !stderr.contains("migrat"),
        "the database was touched before the port was had:\n{stderr}"
    );
}

#[test]
fn a_backup_dir_that_cannot_be_written_stops_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let data_dir = dir.path().join("data");
    // A file where the folder would go: no user can write there, root included.
    let blocker = dir.path().join("a-file");
    std::fs::write(&blocker, b"x").unwrap();
    let cases = [
        (blocker.join("backups"), "cannot be written"),
        (data_dir.join("files/backups"), "inside DATA_DIR"),
    ];
    for (backup_dir, why) in cases {
        let output = refused_start(
            binary()
                .arg("serve")
                .env("DATA_DIR", &data_dir)
                .env("LISTEN", format!("127.0.0.1:{}", free_port()))
                .env("BACKUP_DIR", &backup_dir),
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(
            output.status.code(),
            Some(2),
            "refused like a bad setting: {stderr}"
        );
        assert!(
            stderr.contains(&format!("BACKUP_DIR {}", backup_dir.display()))
                && stderr.contains(why),
            "{stderr}"
        );
        assert!(!database_in(&data_dir), "nothing was started: {stderr}");
    }

    // A folder it can make and write: the server starts and takes the first backup there.
    let backups = dir.path().join("backups");
    let (server, _) = start_announced(
        &data_dir,
        &[
            ("LISTEN", &format!("127.0.0.1:{}", free_port())),
            ("BACKUP_DIR", backups.to_str().unwrap()),
        ],
    );
    let log = stop_and_read_log(server);
    assert!(backups.is_dir(), "{log}");
    let leftovers: Vec<_> = std::fs::read_dir(&backups)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|name| name.to_string_lossy().starts_with(".write-test"))
        .collect();
    assert!(leftovers.is_empty(), "the probe file stays: {leftovers:?}");
}

#[test]
fn a_wrong_postgres_address_is_named_once() {
    let port = free_port();
    let output = binary()
        .args(["users", "list"])
        .env(
            "DATABASE_URL",
            format!("postgres://tracker:hunter2@127.0.0.1:{port}/tracker"),
        )
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert_eq!(
        stderr.matches(&format!("127.0.0.1:{port}")).count(),
        1,
        "{stderr}"
    );
    assert!(
        stderr.contains("cannot connect to PostgreSQL at")
            && stderr.contains("database tracker, user tracker")
            && stderr.contains("refused")
            && stderr.matches("connect").count() == 1,
        "{stderr}"
    );
    assert!(!stderr.contains("hunter2"), "{stderr}");
}

/// `sudo -u delivery-tracker delivery-tracker users list` run from /root: the working
/// directory cannot even be looked into, so there is no `.env` there to read, and no error.
#[test]
fn a_working_directory_the_user_cannot_read_is_no_env_error() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let closed = dir.path().join("closed");
    std::fs::create_dir(&closed).unwrap();
    std::fs::set_permissions(&closed, std::fs::Permissions::from_mode(0o700)).unwrap();
    // Root may look anywhere: the command then runs as nobody, as `sudo -u` would run it,
    // from a copy of the binary that nobody may run wherever the target folder is.
    let mut command = if rustix::process::getuid().is_root() {
        let shared = dir.path().join("bin");
        std::fs::create_dir(&shared).unwrap();
        let copy = shared.join("delivery-tracker");
        std::fs::hard_link(env!("CARGO_BIN_EXE_delivery-tracker"), &copy)
            .or_else(|_| std::fs::copy(env!("CARGO_BIN_EXE_delivery-tracker"), &copy).map(drop))
            .unwrap();
        for open in [dir.path(), &shared] {
            std::fs::set_permissions(open, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        let mut setpriv = Command::new("setpriv");
        setpriv
            .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(&copy);
        setpriv
    } else {
        std::fs::set_permissions(&closed, std::fs::Permissions::from_mode(0o000)).unwrap();
        Command::new(env!("CARGO_BIN_EXE_delivery-tracker"))
    };
    let output = command
        .arg("--version")
        .current_dir(&closed)
        .output()
        .unwrap();
    let _ = std::fs::set_permissions(&closed, std::fs::Permissions::from_mode(0o700));
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    assert!(
        output.status.success() && stdout.starts_with("delivery-tracker "),
        "{stdout}{stderr}"
    );
}
