//! `delivery-tracker backup` and `restore` with the real binary: a backup taken while a client
//! pushes restores into a fresh directory where a new server finds every entry acknowledged
//! before the backup began, and every stored file; a damaged archive or a non-empty target is
//! refused with nothing written.

use crate::common;

use std::{
    io::{Read, Write},
    path::{Path, PathBuf},
    process::{Child, Command, Output},
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
    time::Duration,
};

use common::{
    binary::{free_port, guest_cookie, start_binary},
    pictures::{BOUNDARY, file, gradient, multipart_body, png},
};
use reqwest::StatusCode;
use serde_json::{Value, json};
use uuid::Uuid;

const BINARY: &str = env!("CARGO_BIN_EXE_delivery-tracker");
/// Entries acknowledged before the backup starts, so there is something to lose.
const BEFORE_BACKUP: usize = 25;

struct Server {
    child: Child,
    base: String,
}

impl Server {
    fn start(data_dir: &Path) -> Server {
        let port = free_port();
        let child = start_binary(
            data_dir,
            port,
            &[("AUTH_RATE_LIMIT_PER_MINUTE", "100000")],
            None,
        );
        Server {
            child,
            base: format!("http://127.0.0.1:{port}"),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs an operator command of the binary over `data_dir`.
fn operator(data_dir: &Path, args: &[&str]) -> Output {
    Command::new(BINARY)
        .args(args)
        .env("DATA_DIR", data_dir)
        .env("LOG", "error")
        .output()
        .expect("the binary runs")
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

async fn upload(
    http: &reqwest::Client,
    method: reqwest::Method,
    url: String,
    cookie: &str,
) -> Value {
    let picture = png(&gradient(64, 48));
    let response = http
        .request(method, url)
        .header("cookie", cookie)
        .header(
            "content-type",
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )
        .body(multipart_body(&[file(&picture)]))
        .send()
        .await
        .unwrap();
    assert!(response.status().is_success(), "{}", response.status());
    response.json().await.unwrap()
}

async fn fetch(http: &reqwest::Client, url: String, cookie: &str) -> Vec<u8> {
    let response = http.get(url).header("cookie", cookie).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    response.bytes().await.unwrap().to_vec()
}

/// Every record id the user can pull.
async fn pulled_ids(http: &reqwest::Client, base: &str, cookie: &str) -> Vec<String> {
    let (mut ids, mut cursor) = (Vec::new(), 0);
    loop {
        let page: Value = http
            .get(format!(
                "{base}/api/v1/sync/pull?cursor={cursor}&limit=1000"
            ))
            .header("cookie", cookie)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        for change in page["changes"].as_array().unwrap() {
            ids.push(change["id"].as_str().unwrap().to_owned());
        }
        cursor = page["cursor"].as_i64().unwrap();
        if !page["hasMore"].as_bool().unwrap() {
            return ids;
        }
    }
}

/// Pushes one new entry per request until `stop`; `sent` gets every entry id before its
/// push, `acked` after the server acknowledged it.
async fn push_until(
    http: reqwest::Client,
    base: String,
    cookie: String,
    stop: Arc<AtomicBool>,
    sent: Arc<Mutex<Vec<String>>>,
    acked: Arc<Mutex<Vec<String>>>,
) {
    let mut n = 0;
    while !stop.load(Ordering::SeqCst) {
        n += 1;
        let id = Uuid::now_v7().to_string();
        sent.lock().unwrap().push(id.clone());
        let mutation = json!({"id": Uuid::new_v4().to_string(), "name": "entry.put", "args": {
            "id": id, "date": "2026-03-21", "stops": n % 200, "extra": 0,
            "notes": format!("push {n}"), "total": (n % 200) * 198}});
        let response = http
            .post(format!("{base}/api/v1/sync/push"))
            .header("cookie", &cookie)
            .json(&json!({"clientId": "pusher", "mutations": [mutation]}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["results"][0]["status"], "applied", "{body}");
        acked.lock().unwrap().push(id);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn backup_while_pushing_restores_every_acknowledged_entry_and_file() {
    let dir = tempfile::tempdir().unwrap();
    let (live_dir, restored_dir) = (dir.path().join("live"), dir.path().join("restored"));
    let archive = dir.path().join("backup.tar.gz");
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .unwrap();

    let live = Server::start(&live_dir);
    let credentials = json!({"email": "restored@example.com", "password": "van-route-42"});
    let signup = http
        .post(format!("{}/api/v1/auth/signup", live.base))
        .json(&credentials)
        .send()
        .await
        .unwrap();
    assert_eq!(signup.status(), StatusCode::CREATED);
    let cookie = common::binary::cookie_of(&signup);
    let profile = upload(
        &http,
        reqwest::Method::POST,
        format!("{}/api/v1/profile/photo", live.base),
        &cookie,
    )
    .await;
    let photo_url = profile["user"]["photoURL"].as_str().unwrap().to_owned();
    let receipt_url = format!("/api/v1/receipts/{}", Uuid::new_v4());
    upload(
        &http,
        reqwest::Method::PUT,
        format!("{}{receipt_url}", live.base),
        &cookie,
    )
    .await;
    let photo = fetch(&http, format!("{}{photo_url}", live.base), &cookie).await;
    let receipt = fetch(&http, format!("{}{receipt_url}", live.base), &cookie).await;

    let (stop, sent, acked) = (
        Arc::new(AtomicBool::new(false)),
        Arc::new(Mutex::new(Vec::new())),
        Arc::new(Mutex::new(Vec::new())),
    );
    let pusher = tokio::spawn(push_until(
        http.clone(),
        live.base.clone(),
        cookie.clone(),
        stop.clone(),
        sent.clone(),
        acked.clone(),
    ));
    // Waits on the pusher's progress, not on time.
    while acked.lock().unwrap().len() < BEFORE_BACKUP {
        tokio::task::yield_now().await;
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let acked_before_backup = acked.lock().unwrap().clone();
    let backup = {
        let (live_dir, archive) = (live_dir.clone(), archive.clone());
        tokio::task::spawn_blocking(move || {
            operator(&live_dir, &["backup", "--out", archive.to_str().unwrap()])
        })
        .await
        .unwrap()
    };
    stop.store(true, Ordering::SeqCst);
    pusher.await.unwrap();
    assert!(backup.status.success(), "{}", text(&backup));
    let pushed_during = acked.lock().unwrap().len() - acked_before_backup.len();
    println!("{pushed_during} entries were acknowledged while the backup ran");
    drop(live);

    let restore = operator(&restored_dir, &["restore", archive.to_str().unwrap()]);
    assert!(restore.status.success(), "{}", text(&restore));
    assert!(
        text(&restore).contains("1 session in the archive was signed out"),
        "{}",
        text(&restore)
    );
    // Counts in words ("1 file", "2 files"), never "file(s)".
    for said in [text(&backup), text(&restore)] {
        assert!(!said.contains("(s)"), "{said}");
    }
    assert!(
        counts_restored_files_in_words(&text(&restore)),
        "{}",
        text(&restore)
    );

    let restored = Server::start(&restored_dir);
    // Sessions in the archive are signed out (they may have ended since): the old cookie is
    // refused, and the driver signs in again.
    let old = http
        .get(format!("{}/api/v1/sync/pull", restored.base))
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(old.status(), StatusCode::UNAUTHORIZED);
    let login = http
        .post(format!("{}/api/v1/auth/login", restored.base))
        .json(&credentials)
        .send()
        .await
        .unwrap();
    assert_eq!(login.status(), StatusCode::OK);
    let cookie = common::binary::cookie_of(&login);
    let ids = pulled_ids(&http, &restored.base, &cookie).await;
    for id in &acked_before_backup {
        assert!(ids.contains(id), "acknowledged entry {id} was not restored");
    }
    // A snapshot of one instant: nothing that was never pushed, nothing twice.
    let sent = sent.lock().unwrap().clone();
    let entries: Vec<&String> = ids.iter().filter(|id| sent.contains(id)).collect();
    let mut unique = entries.clone();
    unique.dedup();
    assert_eq!(unique.len(), entries.len(), "no entry twice");
    assert!(entries.len() >= acked_before_backup.len());
    assert_eq!(
        fetch(&http, format!("{}{photo_url}", restored.base), &cookie).await,
        photo
    );
    assert_eq!(
        fetch(&http, format!("{}{receipt_url}", restored.base), &cookie).await,
        receipt
    );
}

/// A backup of a small live data directory, for the refusal tests.
async fn small_backup(dir: &Path) -> PathBuf {
    let live_dir = dir.join("live");
    let archive = dir.join("backup.tar.gz");
    let http = reqwest::Client::new();
    let live = Server::start(&live_dir);
    let cookie = guest_cookie(&http, &live.base).await;
    upload(
        &http,
        reqwest::Method::POST,
        format!("{}/api/v1/profile/photo", live.base),
        &cookie,
    )
    .await;
    let backup = operator(&live_dir, &["backup", "--out", archive.to_str().unwrap()]);
    assert!(backup.status.success(), "{}", text(&backup));
    archive
}

/// `archive` rewritten with one byte of the member `path` flipped, everything else (the
/// manifest too) as it was.
fn damage(archive: &Path, path: &str, out: &Path) {
    let mut reader = tar::Archive::new(flate2::read::GzDecoder::new(
        std::fs::File::open(archive).unwrap(),
    ));
    let mut writer = tar::Builder::new(flate2::write::GzEncoder::new(
        std::fs::File::create(out).unwrap(),
        flate2::Compression::default(),
    ));
    let mut damaged = false;
    for entry in reader.entries().unwrap() {
        let mut entry = entry.unwrap();
        let mut header = entry.header().clone();
        let name = entry.path().unwrap().to_string_lossy().into_owned();
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).unwrap();
        if name == path {
            let middle = bytes.len() / 2;
            bytes[middle] ^= 0x01;
            damaged = true;
        }
        writer
            .append_data(&mut header, &name, bytes.as_slice())
            .unwrap();
    }
    writer
        .into_inner()
        .unwrap()
        .finish()
        .unwrap()
        .flush()
        .unwrap();
    assert!(damaged, "{path} is in the archive");
}

#[tokio::test]
async fn a_damaged_archive_is_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let archive = small_backup(dir.path()).await;
    let picture = {
        let listing = std::process::Command::new("tar")
            .arg("tzf")
            .arg(&archive)
            .output()
            .unwrap();
        String::from_utf8(listing.stdout)
            .unwrap()
            .lines()
            .find(|line| line.starts_with("files/"))
            .expect("the picture is in the archive")
            .to_owned()
    };
    for member in ["database.sqlite3", picture.as_str()] {
        let damaged = dir.path().join("damaged.tar.gz");
        damage(&archive, member, &damaged);
        let target = dir.path().join(format!("target-{}", member.len()));
        let restore = operator(&target, &["restore", damaged.to_str().unwrap()]);
        assert!(!restore.status.success(), "{member}: {}", text(&restore));
        assert!(
            text(&restore).contains("checksum"),
            "{member}: {}",
            text(&restore)
        );
        assert!(!target.exists(), "{member}: nothing may be written");
    }
    // The undamaged archive restores.
    let target = dir.path().join("target-ok");
    let restore = operator(&target, &["restore", archive.to_str().unwrap()]);
    assert!(restore.status.success(), "{}", text(&restore));
}

#[tokio::test]
async fn a_non_empty_target_is_refused_and_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let archive = small_backup(dir.path()).await;
    let target = dir.path().join("target");
    std::fs::create_dir_all(&target).unwrap();
    std::fs::write(target.join("keep.txt"), b"mine").unwrap();
    let restore = operator(&target, &["restore", archive.to_str().unwrap()]);
    assert!(!restore.status.success());
    assert!(text(&restore).contains("not empty"), "{}", text(&restore));
    let left: Vec<_> = std::fs::read_dir(&target)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["keep.txt"]);
    assert_eq!(std::fs::read(target.join("keep.txt")).unwrap(), b"mine");
}

#[tokio::test]
async fn backup_refuses_a_data_dir_without_a_database() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nowhere");
    let out = dir.path().join("b.tar.gz");
    let backup = operator(&missing, &["backup", "--out", out.to_str().unwrap()]);
    assert!(!backup.status.success());
    assert!(text(&backup).contains("no database"), "{}", text(&backup));
    assert!(!missing.exists(), "no database was created");
    assert!(!out.exists());
}

/// The manifest of `archive`, read with the system's `tar`.
fn manifest_of(archive: &Path) -> Value {
    let output = std::process::Command::new("tar")
        .arg("xzOf")
        .arg(archive)
        .arg("manifest.json")
        .output()
        .unwrap();
    assert!(output.status.success());
    serde_json::from_slice(&output.stdout).unwrap()
}

#[tokio::test]
async fn on_postgresql_the_archive_holds_the_files_and_says_the_database_is_not_in_it() {
    // The commands never connect to PostgreSQL (pg_dump does that part): a dead address works.
    let url = "postgres://nobody@127.0.0.1:1/none";
    let dir = tempfile::tempdir().unwrap();
    let (live_dir, target) = (dir.path().join("live"), dir.path().join("target"));
    let key = "users/0195e0a8-0000-7000-8000-000000000001/profile_1";
    std::fs::create_dir_all(live_dir.join("files").join(key).parent().unwrap()).unwrap();
    std::fs::write(live_dir.join("files").join(key), b"picture bytes").unwrap();
    let archive = dir.path().join("pg.tar.gz");
    let run = |data_dir: &Path, args: &[&str]| {
        Command::new(BINARY)
            .args(args)
            .env("DATA_DIR", data_dir)
            .env("DATABASE_URL", url)
            .env("LOG", "error")
            .output()
            .unwrap()
    };

    let backup = run(&live_dir, &["backup", "--out", archive.to_str().unwrap()]);
    assert!(backup.status.success(), "{}", text(&backup));
    assert!(text(&backup).contains("pg_dump"), "{}", text(&backup));
    let manifest = manifest_of(&archive);
    assert_eq!(manifest["database"], "postgres");
    assert!(manifest["schemaVersion"].is_null());
    let paths: Vec<&str> = manifest["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, [format!("files/{key}")]);

    let restore = run(&target, &["restore", archive.to_str().unwrap()]);
    assert!(restore.status.success(), "{}", text(&restore));
    assert!(text(&restore).contains("pg_restore"), "{}", text(&restore));
    assert_eq!(
        std::fs::read(target.join("files").join(key)).unwrap(),
        b"picture bytes"
    );
}

#[tokio::test]
async fn scheduled_backups_are_written_while_serving_and_restore() {
    let dir = tempfile::tempdir().unwrap();
    let (live_dir, backups, target) = (
        dir.path().join("live"),
        dir.path().join("backups"),
        dir.path().join("target"),
    );
    let port = free_port();
    let mut live = start_binary(
        &live_dir,
        port,
        &[
            ("BACKUP_DIR", backups.to_str().unwrap()),
            ("BACKUP_KEEP", "2"),
        ],
        None,
    );
    // The first backup is taken at start; wait for it to appear (complete: it is renamed
    // into place only when whole).
    let archive = loop {
        let found = std::fs::read_dir(&backups).ok().and_then(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .find(|p| p.to_string_lossy().ends_with(".tar.gz"))
        });
        if let Some(path) = found {
            break path;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let _ = live.kill();
    let _ = live.wait();
    assert_eq!(manifest_of(&archive)["database"], "sqlite");
    let restore = operator(&target, &["restore", archive.to_str().unwrap()]);
    assert!(restore.status.success(), "{}", text(&restore));
    assert!(target.join("delivery-tracker.db").exists());
}

#[cfg(unix)]
#[tokio::test]
async fn the_archive_is_readable_by_its_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let archive = small_backup(dir.path()).await;
    let mode = std::fs::metadata(&archive).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600, "{mode:o}");
}

/// "restored into …: database, 1 file" or "…, N files" with N other than 1.
fn counts_restored_files_in_words(said: &str) -> bool {
    said.lines().any(|line| {
        line.starts_with("restored into ")
            && line
                .rsplit_once(", ")
                .is_some_and(|(_, count)| match count.split_once(' ') {
                    Some(("1", noun)) => noun == "file",
                    Some((n, noun)) => n.parse::<u64>().is_ok() && noun == "files",
                    None => false,
                })
    })
}
