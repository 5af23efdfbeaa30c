//! Image decoding bounded in memory, not only in pixels (issue 31), on the real binary: the
//! colour-profile bomb (a 48 × 48 PNG whose `iCCP` chunk inflates to 1 GiB) sent 16 at once to
//! the receipt and profile-picture routes, and the largest honest pictures sent side by side.
//! The server's peak resident memory, read from /proc, stays within the budget the README
//! documents: idle, plus UPLOADS_IN_FLIGHT bodies of 2 MiB, plus DECODE_BUDGET_MB.

use crate::common;

use std::time::Duration;

use common::{
    binary::{free_port, guest_cookie, start_binary},
    pictures::{BOUNDARY, colour_profile_bomb, file, multipart_body, png},
};
use image::{ExtendedColorType, ImageEncoder, Rgb, RgbImage, codecs::png::PngEncoder};
use reqwest::StatusCode;
use tokio::task::JoinSet;
use uuid::Uuid;

const MIB: u64 = 1 << 20;
/// The README's figures (crates/server/src/config/uploads.rs holds the defaults).
const UPLOADS_IN_FLIGHT: u64 = 16;
const DECODE_BUDGET_MB: u64 = 256;
/// What the server's own bookkeeping for 16 uploads may add (connections, multipart buffers,
/// the JPEG encoder's output, allocator slack): measured at about 10 MiB.
const SLACK: u64 = 24 * MIB;

fn budget() -> u64 {
    UPLOADS_IN_FLIGHT * 2 * MIB + DECODE_BUDGET_MB * MIB + SLACK
}

fn status_kib(pid: u32, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap()
        .lines()
        .find_map(|line| line.strip_prefix(field))
        .and_then(|rest| rest.split_whitespace().next()?.parse().ok())
        .unwrap()
}

struct Server {
    child: std::process::Child,
    base: String,
    _dir: tempfile::TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start() -> Server {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let child = start_binary(
        dir.path(),
        port,
        &[
            ("GUEST_RATE_LIMIT_PER_IP_PER_HOUR", "1000"),
            ("GUEST_RATE_LIMIT_PER_HOUR", "1000"),
            ("AUTH_RATE_LIMIT_PER_MINUTE", "1000"),
            ("UPLOADS_PER_USER_PER_MINUTE", "1000"),
            // Uploads queue for the decode budget, and a debug build decodes slowly: the
            // answers, not the time they take, are measured here.
            ("REQUEST_TIMEOUT_SECS", "900"),
        ],
        None,
    );
    Server {
        child,
        base: format!("http://127.0.0.1:{port}"),
        _dir: dir,
    }
}

/// Sends `picture` `copies` times at once, alternating the receipt and the picture routes
/// over a few guests; returns the answers' statuses. A 503 `busy` (the in-flight bound) is
/// sent again until it is taken.
async fn upload_at_once(server: &Server, picture: &[u8], copies: usize) -> Vec<StatusCode> {
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(900))
        .build()
        .unwrap();
    let mut cookies = Vec::new();
    for _ in 0..copies.div_ceil(2) {
        cookies.push(guest_cookie(&http, &server.base).await);
    }
    let body = multipart_body(&[file(picture)]);
    let mut uploads = JoinSet::new();
    for n in 0..copies {
        let (http, body, cookie) = (http.clone(), body.clone(), cookies[n / 2].clone());
        let url = if n % 2 == 0 {
            format!("{}/api/v1/receipts/{}", server.base, Uuid::now_v7())
        } else {
            format!("{}/api/v1/profile/photo", server.base)
        };
        let method = if n % 2 == 0 {
            reqwest::Method::PUT
        } else {
            reqwest::Method::POST
        };
        uploads.spawn(async move {
            loop {
                let reply = http
                    .request(method.clone(), &url)
                    .header("cookie", &cookie)
                    .header(
                        "content-type",
                        format!("multipart/form-data; boundary={BOUNDARY}"),
                    )
                    .body(body.clone())
                    .send()
                    .await
                    .expect("an answer");
                if reply.status() != StatusCode::SERVICE_UNAVAILABLE {
                    return reply.status();
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        });
    }
    let mut statuses = Vec::new();
    while let Some(status) = uploads.join_next().await {
        statuses.push(status.unwrap());
    }
    statuses
}

/// Resident memory once warm: one ordinary upload decoded and answered.
async fn warm(server: &Server) -> u64 {
    let small = png(&RgbImage::from_pixel(64, 64, Rgb([1, 2, 3])));
    let statuses = upload_at_once(server, &small, 2).await;
    assert!(statuses.iter().all(StatusCode::is_success), "{statuses:?}");
    status_kib(server.child.id(), "VmRSS:") * 1024
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sixteen_colour_profile_bombs_at_once_stay_within_the_budget() {
    let server = start();
    let bomb = colour_profile_bomb(1 << 30);
    assert!(bomb.len() < 1_100_000, "a 1 MiB file: {}", bomb.len());
    let idle = warm(&server).await;
    let statuses = upload_at_once(&server, &bomb, 16).await;
    let peak = status_kib(server.child.id(), "VmHWM:") * 1024;
    eprintln!(
        "16 bombs: answers {statuses:?}; idle {} MiB, peak {} MiB, budget {} MiB above idle",
        idle / MIB,
        peak / MIB,
        budget() / MIB
    );
    assert!(
        statuses.iter().all(|s| !s.is_server_error()),
        "{statuses:?}"
    );
    assert!(
        peak <= idle + budget(),
        "peak {} MiB is over idle {} MiB + budget {} MiB",
        peak / MIB,
        idle / MIB,
        budget() / MIB
    );
}

/// Large honest pictures, three at once: 25-megapixel RGBA PNGs (each needs about 110 MiB at
/// its peak, so the budget lets two decode at a time and the third wait).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn large_honest_pictures_at_once_stay_within_the_budget() {
    let server = start();
    let (width, height) = (5_000u32, 5_000u32);
    let rgba: Vec<u8> = (0..width * height)
        .flat_map(|i| {
            let (x, y) = (i % width, i / width);
            let byte = |n: u32| n.to_le_bytes()[0];
            [byte(x / 32), byte(y / 20), byte((x + y) / 64), 255]
        })
        .collect();
    let mut picture = Vec::new();
    PngEncoder::new(&mut picture)
        .write_image(&rgba, width, height, ExtendedColorType::Rgba8)
        .unwrap();
    drop(rgba);
    assert!(picture.len() < 2_000_000, "{} bytes", picture.len());
    let idle = warm(&server).await;
    let statuses = upload_at_once(&server, &picture, 3).await;
    let peak = status_kib(server.child.id(), "VmHWM:") * 1024;
    eprintln!(
        "3 × 25 MP: answers {statuses:?}; idle {} MiB, peak {} MiB, budget {} MiB above idle",
        idle / MIB,
        peak / MIB,
        budget() / MIB
    );
    assert!(statuses.iter().all(StatusCode::is_success), "{statuses:?}");
    assert!(
        peak <= idle + budget(),
        "peak {} MiB is over idle {} MiB + budget {} MiB",
        peak / MIB,
        idle / MIB,
        budget() / MIB
    );
}
