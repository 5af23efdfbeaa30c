//! Restore that keeps the service working (issue 27, item 3), with the real binary: run as
//! root into a data directory owned by the service's user (here `nobody`), the restored files
//! belong to that user, 0600 (folders 0700), and the server started as that user works; run
//! as another user into a folder that is not theirs, it refuses with the command to run
//! instead; and a database the server cannot write says which file, whose it is and who the
//! server runs as. Needs root (to own files as another user); skipped otherwise.

use crate::common;

use std::{
    io::{BufRead, BufReader},
    os::unix::{
        fs::{MetadataExt, PermissionsExt},
        process::CommandExt,
    },
    path::{Path, PathBuf},
    process::{Child, Command, Output, Stdio},
};

use common::binary::{free_port, guest_cookie, start_binary};
use reqwest::StatusCode;

const BINARY: &str = env!("CARGO_BIN_EXE_delivery-tracker");
const NOBODY: u32 = 65_534;

fn as_root() -> bool {
    if rustix::process::geteuid().is_root() {
        return true;
    }
    eprintln!("skipped: restoring for another user needs root");
    false
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// A temporary folder other users can pass through (to reach a data directory inside).
fn open_tempdir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

/// A backup, taken as root, of a live data directory with a guest in it.
async fn backup_as_root(dir: &Path) -> PathBuf {
    let live = dir.join("live");
    let port = free_port();
    let mut server = start_binary(&live, port, &[], None);
    guest_cookie(&reqwest::Client::new(), &format!("http://127.0.0.1:{port}")).await;
    let archive = dir.join("backup.tar.gz");
    let backup = Command::new(BINARY)
        .args(["backup", "--out", archive.to_str().unwrap()])
        .env("DATA_DIR", &live)
        .env("LOG", "error")
        .output()
        .unwrap();
    let _ = server.kill();
    let _ = server.wait();
    assert!(backup.status.success(), "{}", text(&backup));
    archive
}

/// `delivery-tracker serve` as `nobody` over `data_dir`: the child, and its first line of
/// output (the "listening" line, or nothing when it failed).
fn serve_as_nobody(data_dir: &Path, port: u16) -> (Child, String) {
    let mut child = Command::new(BINARY)
        .arg("serve")
        .env("DATA_DIR", data_dir)
        .env("LISTEN", format!("127.0.0.1:{port}"))
        .env("LOG", "error")
        .current_dir(data_dir.parent().unwrap())
        .uid(NOBODY)
        .gid(NOBODY)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    (child, line)
}

fn every_path_under(root: &Path) -> Vec<PathBuf> {
    let mut found = vec![root.to_owned()];
    let mut pending = vec![root.to_owned()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path.clone());
            }
            found.push(path);
        }
    }
    found
}

#[tokio::test]
async fn restore_as_root_gives_the_files_to_the_data_directorys_owner() {
    if !as_root() {
        return;
    }
    let dir = open_tempdir();
    let archive = backup_as_root(dir.path()).await;
    let target = dir.path().join("data");
    std::fs::create_dir(&target).unwrap();
    std::os::unix::fs::chown(&target, Some(NOBODY), Some(NOBODY)).unwrap();

    let restore = Command::new(BINARY)
        .args(["restore", archive.to_str().unwrap()])
        .env("DATA_DIR", &target)
        .env("LOG", "error")
        .output()
        .unwrap();
    assert!(restore.status.success(), "{}", text(&restore));
    assert!(
        text(&restore).contains("belong to nobody (uid 65534)"),
        "{}",
        text(&restore)
    );
    // Everything restored; DATA_DIR itself is the operator's and keeps its mode.
    for path in every_path_under(&target).into_iter().skip(1) {
        let meta = std::fs::metadata(&path).unwrap();
        let expected = if meta.is_dir() { 0o700 } else { 0o600 };
        assert_eq!(
            (meta.uid(), meta.gid(), meta.mode() & 0o777),
            (NOBODY, NOBODY, expected),
            "{}",
            path.display()
        );
    }

    // The service's user runs the server on it: it starts, migrates and takes writes.
    let port = free_port();
    let (mut server, line) = serve_as_nobody(&target, port);
    assert!(line.contains("listening"), "did not start: {line:?}");
    let http = reqwest::Client::new();
    let base = format!("http://127.0.0.1:{port}");
    let health = http.get(format!("{base}/healthz")).send().await.unwrap();
    assert_eq!(health.status(), StatusCode::OK);
    guest_cookie(&http, &base).await;
    let _ = server.kill();
    let _ = server.wait();
}

#[tokio::test]
async fn restore_by_another_user_into_a_folder_not_theirs_says_what_to_run() {
    if !as_root() {
        return;
    }
    let dir = open_tempdir();
    let archive = backup_as_root(dir.path()).await;
    std::fs::set_permissions(&archive, std::fs::Permissions::from_mode(0o644)).unwrap();
    let target = dir.path().join("data");
    std::fs::create_dir(&target).unwrap();
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o777)).unwrap();
    let restore = Command::new(BINARY)
        .args(["restore", archive.to_str().unwrap()])
        .env("DATA_DIR", &target)
        .env("LOG", "error")
        .current_dir(dir.path())
        .uid(NOBODY)
        .gid(NOBODY)
        .output()
        .unwrap();
    let said = text(&restore);
    assert!(!restore.status.success(), "{said}");
    assert!(
        said.contains("belongs to root (uid 0)")
            && said.contains("runs as nobody (uid 65534)")
            && said.contains(&format!("sudo -u root env DATA_DIR={}", target.display())),
        "{said}"
    );
    assert_eq!(
        std::fs::read_dir(&target).unwrap().count(),
        0,
        "nothing written"
    );
}

/// Issue 27: a database restored by root (root's, 0644) made the packaged service fail with
/// "attempt to write a readonly database: Error code 8", naming neither the file nor its owner.
#[tokio::test]
async fn a_database_the_server_cannot_write_is_named_with_its_owner_and_the_servers_user() {
    if !as_root() {
        return;
    }
    let dir = open_tempdir();
    let data = dir.path().join("data");
    let port = free_port();
    let mut root_server = start_binary(&data, port, &[], None);
    let _ = root_server.kill();
    let _ = root_server.wait();
    // The folder is the service user's; the database root's, readable by all.
    std::os::unix::fs::chown(&data, Some(NOBODY), Some(NOBODY)).unwrap();
    let database = data.join("delivery-tracker.db");
    std::fs::set_permissions(&database, std::fs::Permissions::from_mode(0o644)).unwrap();
    for leftover in ["delivery-tracker.db-wal", "delivery-tracker.db-shm"] {
        let _ = std::fs::remove_file(data.join(leftover));
    }
    let (mut server, line) = serve_as_nobody(&data, free_port());
    let status = server.wait().unwrap();
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut server.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(!status.success(), "started: {line}");
    assert!(
        stderr.contains("readonly database")
            && stderr.contains(&format!(
                "{} owned by root (uid 0), mode 644",
                database.display()
            ))
            && stderr.contains("runs as nobody (uid 65534)"),
        "{stderr}"
    );
}
