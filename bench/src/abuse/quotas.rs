//! Quotas that count everything (issue 31 items 3 and 5): receipts uploaded twice under one id
//! at the same moment (a tiny and a large picture, 20 pairs) against a 2 MiB quota, and one
//! guest's replay records after 5,000 edits (MAX_REPLAY_RECORDS_PER_USER=1000 where the binary
//! knows it). Counts what is on disk and in the database, whatever the binary.

use std::{path::Path, time::Duration};

use image::{ExtendedColorType, ImageEncoder, RgbImage, codecs::png::PngEncoder};
use serde_json::{Value, json};
use uuid::Uuid;

use super::{Figure, Server, guest, uploads::noisy_png};

const BOUNDARY: &str = "----abuse-quotas-UmFjZQ";
const QUOTA: u64 = 2 * 1_048_576;

pub async fn run(binary: &Path) -> Vec<Figure> {
    let mut figures = receipt_race(binary).await;
    figures.extend(replay_records(binary).await);
    figures
}

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .expect("client")
}

/// The signed-in user's id.
pub(super) async fn user_id(http: &reqwest::Client, base: &str, cookie: &str) -> String {
    let session: Value = http
        .get(format!("{base}/api/v1/auth/session"))
        .header("cookie", cookie)
        .send()
        .await
        .expect("session")
        .json()
        .await
        .expect("session JSON");
    session["user"]["id"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

async fn receipt_race(binary: &Path) -> Vec<Figure> {
    let quota = QUOTA.to_string();
    let server = Server::start(
        binary,
        &[
            ("MAX_RECEIPT_BYTES_PER_USER", quota.as_str()),
            ("UPLOADS_PER_USER_PER_MINUTE", "1000"),
        ],
        None,
    )
    .await;
    let http = client();
    let cookie = guest(&http, &server.base).await;
    let me = user_id(&http, &server.base, &cookie).await;
    let tiny = {
        let mut out = Vec::new();
        PngEncoder::new(&mut out)
            .write_image(
                &RgbImage::from_pixel(16, 16, image::Rgb([9, 9, 9])),
                16,
                16,
                ExtendedColorType::Rgb8,
            )
            .expect("png");
        out
    };
    let large = noisy_png(700);
    for _ in 0..20 {
        let url = format!("{}/api/v1/receipts/{}", server.base, Uuid::now_v7());
        let put = |picture: &[u8]| {
            http.put(&url)
                .header("cookie", &cookie)
                .header(
                    "content-type",
                    format!("multipart/form-data; boundary={BOUNDARY}"),
                )
                .body(multipart(picture))
                .send()
        };
        let _ = tokio::join!(put(&tiny), put(&large));
    }
    let folder = server.data_dir().join("files/users").join(&me);
    let on_disk: u64 = std::fs::read_dir(&folder).map_or(0, |entries| {
        entries
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().starts_with("receipt_"))
            .filter_map(|e| e.metadata().ok())
            .map(|m| m.len())
            .sum()
    });
    let recorded: i64 = sqlite(&server, |conn| {
        conn.query_row(
            "SELECT COALESCE(SUM(bytes), 0) FROM receipts WHERE user_id = ?1",
            [&me],
            |r| r.get(0),
        )
    })
    .unwrap_or(-1);
    let times = |bytes: u64| bytes as f64 / QUOTA as f64;
    vec![Figure::new(
        "quotas: receipts on disk after 20 pairs of uploads under one id at once (2 MiB quota)",
        format!(
            "{:.1} kB on disk ({:.2}× the quota), {:.1} kB recorded",
            on_disk as f64 / 1e3,
            times(on_disk),
            recorded as f64 / 1e3
        ),
    )]
}

async fn replay_records(binary: &Path) -> Vec<Figure> {
    let server = Server::start(
        binary,
        &[
            ("MAX_REPLAY_RECORDS_PER_USER", "1000"),
            ("PUSH_MUTATIONS_PER_MINUTE", "1000000"),
        ],
        None,
    )
    .await;
    let http = client();
    let cookie = guest(&http, &server.base).await;
    let me = user_id(&http, &server.base, &cookie).await;
    let entry = Uuid::now_v7().to_string();
    let (mut applied, mut refused) = (0, 0);
    for batch in 0..10 {
        let mutations: Vec<Value> = (0..500)
            .map(|n| {
                json!({"id": Uuid::now_v7().to_string(), "name": "entry.put",
                       "args": {"id": entry, "date": "2026-01-05", "stops": (batch * 500 + n) % 900 + 1,
                                "extra": 0, "notes": "", "total": 0}})
            })
            .collect();
        let reply: Value = http
            .post(format!("{}/api/v1/sync/push", server.base))
            .header("cookie", &cookie)
            .json(&json!({"clientId": "abuse", "mutations": mutations}))
            .send()
            .await
            .expect("push")
            .json()
            .await
            .unwrap_or(Value::Null);
        for result in reply["results"].as_array().into_iter().flatten() {
            if result["status"] == "applied" {
                applied += 1;
            } else {
                refused += 1;
            }
        }
    }
    let kept: i64 = sqlite(&server, |conn| {
        conn.query_row(
            "SELECT COUNT(*) FROM applied_mutations WHERE user_id = ?1",
            [&me],
            |r| r.get(0),
        )
    })
    .unwrap_or(-1);
    vec![Figure::new(
        "quotas: one guest's replay records after 5,000 edits (cap 1,000 where known)",
        format!("{kept} kept ({applied} applied, {refused} refused)"),
    )]
}

/// A read of the server's SQLite database from beside it.
pub(super) fn sqlite<T>(
    server: &Server,
    read: impl FnOnce(&rusqlite::Connection) -> rusqlite::Result<T>,
) -> rusqlite::Result<T> {
    let conn = rusqlite::Connection::open_with_flags(
        server.data_dir().join("delivery-tracker.db"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )?;
    read(&conn)
}

fn multipart(picture: &[u8]) -> Vec<u8> {
    let mut body = format!(
        "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"r.png\"\r\n\
         Content-Type: image/png\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(picture);
    body.extend_from_slice(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
    body
}
