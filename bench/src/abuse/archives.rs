//! Backup and restore (issue 31 items 6 to 8), with the binary's own backup of a small live
//! data directory as the base: crafted archives that fail halfway, databases that are not the
//! application's or are newer than it, a manifest padded with 1 GiB of spaces (the restore's
//! peak RSS), archive text with terminal escapes, a backup's snapshot file while it runs and
//! after a SIGTERM, and sessions that ended after the backup was made.

use std::{
    io::{Read, Write},
    os::unix::fs::PermissionsExt,
    path::{Path, PathBuf},
    process::{Command, Output, Stdio},
    time::Duration,
};

use serde_json::Value;
use sha2::{Digest, Sha256};

use super::{Figure, Server, guest};

fn figure(name: &str, value: String) -> Figure {
    Figure::new(format!("archives: {name}"), value)
}

pub async fn run(binary: &Path) -> Vec<Figure> {
    let work = tempfile::tempdir().expect("temp dir");
    let http = reqwest::Client::new();
    let live = Server::start(binary, &[], None).await;
    let cookie = guest(&http, &live.base).await;
    let archive = work.path().join("base.tar.gz");
    let backup = run_command(
        binary,
        live.data_dir(),
        &["backup", "--out", path(&archive)],
    );
    assert!(backup.status.success(), "{}", text(&backup));
    // The session ends after the backup: a restore must not bring it back.
    let _ = http
        .post(format!("{}/api/v1/auth/logout", live.base))
        .header("cookie", &cookie)
        .send()
        .await;
    let (members, manifest) = read_archive(&archive);
    let user_folder = members
        .iter()
        .find_map(|(p, _)| p.strip_prefix("files/users/"))
        .and_then(|rest| rest.split('/').next())
        .map_or_else(
            || "files/users/x".to_owned(),
            |uid| format!("files/users/{uid}"),
        );
    let mut figures = Vec::new();

    // Failures after the verification pass.
    for (case, extra) in [
        (
            "a file and a folder of one name",
            vec![
                (format!("{user_folder}/clash"), b"a".to_vec()),
                (format!("{user_folder}/clash/in"), b"b".to_vec()),
            ],
        ),
        (
            "a 300-character member name",
            vec![(format!("{user_folder}/{}", "n".repeat(300)), b"c".to_vec())],
        ),
    ] {
        let crafted = work.path().join("crafted.tar.gz");
        let mut all = members.clone();
        all.extend(extra);
        write_archive(&crafted, &all, &manifest, |_| {}, 0);
        let target = work.path().join(format!("t-{}", case.len()));
        let first = run_command(binary, &target, &["restore", path(&crafted)]);
        let left = count_files(&target);
        let retry = run_command(binary, &target, &["restore", path(&archive)]);
        figures.push(figure(
            &format!("restore of an archive with {case}"),
            format!(
                "{}, {left} file(s) left in the target; retry with a good archive {}",
                verdict(&first),
                verdict(&retry)
            ),
        ));
    }

    // Databases that are not the application's, or newer than it.
    let ours = members
        .iter()
        .find(|(p, _)| p == "database.sqlite3")
        .map(|(_, b)| b.clone())
        .unwrap_or_default();
    let foreign = sqlite_bytes(work.path(), "CREATE TABLE notes (id INTEGER PRIMARY KEY);");
    let newer = {
        let file = work.path().join("newer.db");
        std::fs::write(&file, &ours).expect("write");
        let conn = rusqlite::Connection::open(&file).expect("open");
        conn.execute(
            "INSERT INTO schema_migrations VALUES (99, '0099_future', 0)",
            [],
        )
        .expect("insert");
        drop(conn);
        std::fs::read(&file).expect("read")
    };
    let noise: Vec<u8> = (0..65_536u32)
        .map(|i| i.wrapping_mul(2_654_435_761).to_be_bytes()[1])
        .collect();
    for (case, database) in [
        ("random bytes", noise),
        ("another application's SQLite file", foreign),
        ("migration 99 (the manifest says otherwise)", newer),
    ] {
        let crafted = work.path().join("db.tar.gz");
        let swapped: Vec<(String, Vec<u8>)> = members
            .iter()
            .map(|(p, b)| {
                let bytes = if p == "database.sqlite3" {
                    database.clone()
                } else {
                    b.clone()
                };
                (p.clone(), bytes)
            })
            .collect();
        write_archive(&crafted, &swapped, &manifest, |_| {}, 0);
        let target = work.path().join(format!("db-{}", case.len()));
        let restore = run_command(binary, &target, &["restore", path(&crafted)]);
        let serve = if restore.status.success() {
            serve_outcome(binary, &target).await
        } else {
            "not started (nothing restored)".into()
        };
        figures.push(figure(
            &format!("restore of a database of {case}"),
            format!("{}; serve then {serve}", verdict(&restore)),
        ));
    }

    // A manifest padded with 1 GiB of spaces.
    let padded = work.path().join("padded.tar.gz");
    write_archive(&padded, &members, &manifest, |_| {}, 1 << 30);
    let archive_mb = std::fs::metadata(&padded).map_or(0, |m| m.len()) as f64 / 1e6;
    let (output, peak_kib) = run_measured(binary, &work.path().join("padded-target"), &padded);
    figures.push(figure(
        "restore of a manifest padded with 1 GiB of spaces",
        format!(
            "{}, peak RSS {} MiB ({archive_mb:.1} MB archive)",
            verdict(&output),
            peak_kib / 1024
        ),
    ));

    // Archive text with terminal escapes.
    let hostile = work.path().join("hostile.tar.gz");
    write_archive(
        &hostile,
        &members,
        &manifest,
        |m| {
            if let Some(listed) = m["members"].as_array_mut() {
                listed.push(serde_json::json!({
                    "path": "files/users/\u{1b}]52;c;cm0gLXJmIH4=\u{7}\rEVIL\u{1b}[2J",
                    "size": 1, "sha256": "00"}));
            }
        },
        0,
    );
    let printed = run_command(
        binary,
        &work.path().join("hostile-target"),
        &["restore", path(&hostile)],
    );
    let raw = text(&printed)
        .chars()
        .filter(|c| matches!(c, '\u{1b}' | '\u{7}' | '\r'))
        .count();
    figures.push(figure(
        "raw ESC/BEL/CR characters restore printed from the archive",
        raw.to_string(),
    ));

    // Sessions that ended after the backup.
    let restored_dir = work.path().join("restored");
    let restore = run_command(binary, &restored_dir, &["restore", path(&archive)]);
    if restore.status.success() {
        let restored = Server::start_in(binary, &restored_dir, &[], None).await;
        let status = http
            .get(format!("{}/api/v1/sync/pull", restored.base))
            .header("cookie", &cookie)
            .send()
            .await
            .map_or(0, |r| r.status().as_u16());
        figures.push(figure(
            "a session signed out after the backup, on the restored server",
            format!("pull answered {status}"),
        ));
    }

    figures.push(snapshot(binary, live.data_dir(), work.path()));
    drop(live);
    figures
}

/// `ok` or `refused: <first line>`.
fn verdict(output: &Output) -> String {
    if output.status.success() {
        "accepted".into()
    } else {
        let said = text(output);
        let line = said
            .lines()
            .next()
            .unwrap_or("")
            .chars()
            .take(90)
            .collect::<String>();
        format!("refused ({line})")
    }
}

async fn serve_outcome(binary: &Path, data_dir: &Path) -> String {
    let dir = data_dir.to_owned();
    let binary = binary.to_owned();
    let started = tokio::task::spawn_blocking(move || {
        let mut child = Command::new(&binary)
            .arg("serve")
            .env("DATA_DIR", &dir)
            .env("LISTEN", "127.0.0.1:0")
            .env("LOG", "error")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("serve");
        let mut first = String::new();
        let mut stdout = child.stdout.take().expect("stdout");
        let mut byte = [0u8; 1];
        while stdout.read(&mut byte).is_ok_and(|n| n == 1) && byte[0] != b'\n' {
            first.push(char::from(byte[0]));
        }
        let _ = child.kill();
        let _ = child.wait();
        first
    })
    .await
    .unwrap_or_default();
    if started.contains("listening") {
        "started and served it".into()
    } else {
        "refused to start".into()
    }
}

/// The backup's snapshot while the database is held by an exclusive lock (so the backup
/// waits with its files made), its mode, and what is left after a SIGTERM.
fn snapshot(binary: &Path, data_dir: &Path, work: &Path) -> Figure {
    let lock = rusqlite::Connection::open(data_dir.join("delivery-tracker.db")).expect("open");
    let _ = lock.execute_batch("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE;");
    let out = work.join("held.tar.gz");
    let mut backup = Command::new(binary)
        .args(["backup", "--out", path(&out)])
        .env("DATA_DIR", data_dir)
        .env("LOG", "error")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("backup");
    let snapshot = work.join("held.tar.gz.db-snapshot");
    let mut mode = None;
    for _ in 0..3_000 {
        if let Ok(meta) = std::fs::metadata(&snapshot) {
            mode = Some(meta.permissions().mode() & 0o777);
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let _ = Command::new("kill").arg(backup.id().to_string()).status();
    let _ = backup.wait();
    let left: Vec<String> = std::fs::read_dir(work)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|name| name.starts_with("held.tar.gz."))
                .collect()
        })
        .unwrap_or_default();
    drop(lock);
    figure(
        "backup snapshot: mode while it runs / files left after SIGTERM",
        format!(
            "{} / {}",
            mode.map_or_else(|| "never made".into(), |m| format!("{m:o}")),
            if left.is_empty() {
                "none".into()
            } else {
                left.join(", ")
            }
        ),
    )
}

fn path(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

fn run_command(binary: &Path, data_dir: &Path, args: &[&str]) -> Output {
    Command::new(binary)
        .args(args)
        .env("DATA_DIR", data_dir)
        .env("LOG", "error")
        .output()
        .expect("the binary runs")
}

/// `restore` with its peak RSS, read from /proc every 5 ms while it runs.
fn run_measured(binary: &Path, data_dir: &Path, archive: &Path) -> (Output, u64) {
    let mut child = Command::new(binary)
        .args(["restore", path(archive)])
        .env("DATA_DIR", data_dir)
        .env("LOG", "error")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("restore");
    let mut peak = 0;
    while matches!(child.try_wait(), Ok(None)) {
        peak = peak.max(bench::served::proc_status_kib(child.id(), "VmHWM:"));
        std::thread::sleep(Duration::from_millis(5));
    }
    (child.wait_with_output().expect("output"), peak)
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn count_files(dir: &Path) -> usize {
    let mut count = 0;
    let mut pending: Vec<PathBuf> = vec![dir.to_owned()];
    while let Some(next) = pending.pop() {
        for entry in std::fs::read_dir(&next).into_iter().flatten().flatten() {
            if entry.path().is_dir() {
                pending.push(entry.path());
            } else {
                count += 1;
            }
        }
    }
    count
}

fn sqlite_bytes(dir: &Path, setup: &str) -> Vec<u8> {
    let file = dir.join("foreign.db");
    let conn = rusqlite::Connection::open(&file).expect("open");
    conn.execute_batch(setup).expect("setup");
    drop(conn);
    std::fs::read(&file).expect("read")
}

fn read_archive(archive: &Path) -> (Vec<(String, Vec<u8>)>, Value) {
    let mut reader = tar::Archive::new(flate2::read::GzDecoder::new(
        std::fs::File::open(archive).expect("archive"),
    ));
    let (mut members, mut manifest) = (Vec::new(), Value::Null);
    for entry in reader.entries().expect("entries") {
        let mut entry = entry.expect("entry");
        let name = entry.path().expect("path").to_string_lossy().into_owned();
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).expect("read");
        if name == "manifest.json" {
            manifest = serde_json::from_slice(&bytes).expect("manifest");
        } else {
            members.push((name, bytes));
        }
    }
    (members, manifest)
}

/// An archive of `members` whose manifest lists each truly, then `edit`ed, followed by
/// `padding` spaces.
fn write_archive(
    out: &Path,
    members: &[(String, Vec<u8>)],
    base: &Value,
    edit: impl FnOnce(&mut Value),
    padding: u64,
) {
    let mut manifest = base.clone();
    manifest["members"] = members
        .iter()
        .map(|(path, bytes)| {
            let sum: String = Sha256::digest(bytes)
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            serde_json::json!({"path": path, "size": bytes.len(), "sha256": sum})
        })
        .collect();
    edit(&mut manifest);
    let mut tar = tar::Builder::new(flate2::write::GzEncoder::new(
        std::fs::File::create(out).expect("create"),
        flate2::Compression::fast(),
    ));
    for (path, bytes) in members {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o600);
        tar.append_data(&mut header, path, bytes.as_slice())
            .expect("append");
    }
    let json = serde_json::to_vec(&manifest).expect("json");
    let mut header = tar::Header::new_gnu();
    header.set_size(json.len() as u64 + padding);
    header.set_mode(0o600);
    let body = json.as_slice().chain(std::io::repeat(b' ').take(padding));
    tar.append_data(&mut header, "manifest.json", body)
        .expect("append");
    tar.into_inner()
        .expect("gzip")
        .finish()
        .expect("finish")
        .flush()
        .expect("flush");
}
