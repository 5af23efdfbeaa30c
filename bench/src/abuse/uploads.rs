//! Upload abuse (issue 10 item 4): orphaned files after concurrent uploads from one session,
//! memory and answers under 200 concurrent 2 MiB uploads, and the cost of a tiny JPEG whose
//! header claims 8000 × 5000 pixels. Counts answers by status, so it measures any binary.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use image::{ExtendedColorType, ImageEncoder, Rgb, RgbImage, codecs::jpeg::JpegEncoder};
use tokio::task::JoinSet;

use super::{Figure, Server, guest};

const UPLOAD: &str = "/api/v1/profile/photo";
const MAX_UPLOAD_BYTES: usize = 2_097_152;
const BOUNDARY: &str = "----abuse-uploads-7MA4YWxkTrZu0gW";

pub async fn run(binary: &Path) -> Vec<Figure> {
    let mut figures = Vec::new();
    figures.extend(orphans(binary).await);
    figures.extend(many_large_uploads(binary).await);
    figures.extend(cheap_header(binary).await);
    figures
}

fn figure(name: &str, value: String) -> Figure {
    Figure {
        name: name.to_owned(),
        value,
    }
}

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(50))
        .build()
        .expect("HTTP client")
}

// Generous auth and guest limits so creating the guests is never what gets refused (an
// older binary ignores the settings it does not know).
const ENV: &[(&str, &str)] = &[
    ("AUTH_RATE_LIMIT_PER_MINUTE", "100000"),
    ("GUEST_RATE_LIMIT_PER_IP_PER_HOUR", "100000"),
    ("GUEST_RATE_LIMIT_PER_HOUR", "100000"),
];

/// Eight concurrent uploads from one session after a first one: files under DATA_DIR/files.
async fn orphans(binary: &Path) -> Vec<Figure> {
    let server = Server::start(binary, ENV, None).await;
    let http = client();
    let cookie = guest(&http, &server.base).await;
    let picture = noisy_png(600);
    let first = upload(&http, &server.base, &cookie, picture.clone()).await;
    let mut uploads = JoinSet::new();
    for _ in 0..8 {
        let (http, base, cookie, picture) = (
            http.clone(),
            server.base.clone(),
            cookie.clone(),
            picture.clone(),
        );
        uploads.spawn(async move { upload(&http, &base, &cookie, picture).await });
    }
    let mut statuses = BTreeMap::new();
    statuses.insert(first, 1);
    while let Some(status) = uploads.join_next().await {
        *statuses.entry(status.expect("upload task")).or_insert(0) += 1;
    }
    let files = count_files(&server.data_dir().join("files"));
    vec![figure(
        "uploads: orphan files after 8 concurrent uploads (1 file expected)",
        format!(
            "{} orphaned ({files} files; answers {})",
            files.saturating_sub(1),
            shares(&statuses)
        ),
    )]
}

/// 200 concurrent 2 MiB uploads from 20 guests (10 each, within any per-user rate): server RSS
/// sampled while they run and 3 s after, and the answers by status.
async fn many_large_uploads(binary: &Path) -> Vec<Figure> {
    let server = Server::start(binary, ENV, None).await;
    let http = client();
    let mut cookies = Vec::new();
    for _ in 0..20 {
        cookies.push(guest(&http, &server.base).await);
    }
    let body = multipart(&noisy_png_of_at_most(MAX_UPLOAD_BYTES));
    let before = server.rss_kib();

    let mut peak = before;
    let started = Instant::now();
    let mut uploads = JoinSet::new();
    for n in 0..200 {
        let (http, base, cookie, body) = (
            http.clone(),
            server.base.clone(),
            cookies[n % cookies.len()].clone(),
            body.clone(),
        );
        uploads.spawn(async move { send(&http, &base, &cookie, body).await });
    }
    let mut statuses = BTreeMap::new();
    let mut tick = tokio::time::interval(Duration::from_millis(20));
    while !uploads.is_empty() {
        tokio::select! {
            Some(status) = uploads.join_next() => {
                *statuses.entry(status.expect("upload task")).or_insert(0) += 1;
            }
            _ = tick.tick() => peak = peak.max(server.rss_kib()),
        }
    }
    let elapsed = started.elapsed();
    let peak = peak.max(server.rss_kib());
    tokio::time::sleep(Duration::from_secs(3)).await;
    let after = server.rss_kib();
    vec![
        figure(
            "uploads: RSS peak / after, 200 concurrent 2 MiB uploads",
            format!(
                "{} MiB / {} MiB (idle before {} MiB)",
                peak / 1024,
                after / 1024,
                before / 1024
            ),
        ),
        figure(
            "uploads: answers to 200 concurrent 2 MiB uploads",
            format!("{} in {:.1} s", shares(&statuses), elapsed.as_secs_f64()),
        ),
    ]
}

/// The answer time of a 633-byte JPEG claiming 8000 × 5000 pixels, next to that of an honest
/// 16 × 16 JPEG of the same size class (median of 3 each).
async fn cheap_header(binary: &Path) -> Vec<Figure> {
    let server = Server::start(binary, ENV, None).await;
    let http = client();
    let honest = tiny_jpeg();
    let mut bomb = honest.clone();
    let sof = bomb
        .windows(2)
        .position(|pair| pair == [0xFF, 0xC0])
        .expect("a baseline JPEG frame header");
    bomb[sof + 5..sof + 7].copy_from_slice(&5000u16.to_be_bytes());
    bomb[sof + 7..sof + 9].copy_from_slice(&8000u16.to_be_bytes());

    let mut timings = Vec::new();
    for picture in [&honest, &bomb] {
        let mut times = Vec::new();
        let mut status = 0;
        for _ in 0..3 {
            // A fresh guest each time, so no per-user rate is reached.
            let cookie = guest(&http, &server.base).await;
            let started = Instant::now();
            status = upload(&http, &server.base, &cookie, picture.clone()).await;
            times.push(started.elapsed());
        }
        times.sort();
        timings.push((times[1], status));
    }
    let [(honest_time, honest_status), (bomb_time, bomb_status)] = timings[..] else {
        unreachable!("two timings");
    };
    vec![figure(
        "uploads: decode time of a 633-byte 8000×5000 JPEG header",
        format!(
            "{:.0} ms, answered {bomb_status} ({}-byte file; an honest 16×16 JPEG: {:.0} ms, {honest_status})",
            bomb_time.as_secs_f64() * 1000.0,
            bomb.len(),
            honest_time.as_secs_f64() * 1000.0,
        ),
    )]
}

async fn upload(http: &reqwest::Client, base: &str, cookie: &str, picture: Vec<u8>) -> u16 {
    send(http, base, cookie, multipart(&picture)).await
}

/// The answer's status, or 0 when the connection failed before one arrived.
async fn send(http: &reqwest::Client, base: &str, cookie: &str, body: Vec<u8>) -> u16 {
    let sent = http
        .post(format!("{base}{UPLOAD}"))
        .header("cookie", cookie)
        .header(
            "content-type",
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )
        .body(body)
        .send()
        .await;
    match sent {
        Ok(response) => {
            let status = response.status().as_u16();
            let _ = response.bytes().await;
            status
        }
        Err(_) => 0,
    }
}

fn multipart(picture: &[u8]) -> Vec<u8> {
    let mut body = format!(
        "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"p.png\"\r\n\
         Content-Type: image/png\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(picture);
    body.extend_from_slice(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
    body
}

/// "status: share %" for each status (0 = no answer), most frequent first.
fn shares(statuses: &BTreeMap<u16, usize>) -> String {
    let total: usize = statuses.values().sum();
    let mut rows: Vec<_> = statuses.iter().collect();
    rows.sort_by(|a, b| b.1.cmp(a.1));
    rows.iter()
        .map(|(status, n)| {
            let name = if **status == 0 {
                "no answer".to_owned()
            } else {
                status.to_string()
            };
            format!("{name}: {:.0} %", **n as f64 * 100.0 / total.max(1) as f64)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn count_files(dir: &Path) -> usize {
    let mut count = 0;
    let mut pending: Vec<PathBuf> = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else {
                count += 1;
            }
        }
    }
    count
}

/// Deterministic noise: incompressible, so the PNG is about 3 bytes per pixel.
pub(super) fn noisy_png(side: u32) -> Vec<u8> {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let picture = RgbImage::from_fn(side, side, |_, _| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let [r, g, b, ..] = state.to_le_bytes();
        Rgb([r, g, b])
    });
    let mut out = Vec::new();
    image::codecs::png::PngEncoder::new(&mut out)
        .write_image(&picture, side, side, ExtendedColorType::Rgb8)
        .expect("PNG encoding");
    out
}

/// The largest square noisy PNG within `limit` bytes (just under 2 MiB for the limit).
fn noisy_png_of_at_most(limit: usize) -> Vec<u8> {
    let mut side = u32::try_from((limit / 3).isqrt()).expect("a picture side fits u32") + 2;
    loop {
        let png = noisy_png(side);
        if png.len() <= limit {
            return png;
        }
        side -= 2;
    }
}

/// A flat 16 × 16 baseline JPEG: nearly all of its ~630 bytes are tables and headers.
fn tiny_jpeg() -> Vec<u8> {
    let mut out = Vec::new();
    JpegEncoder::new_with_quality(&mut out, 90)
        .write_image(
            &RgbImage::from_pixel(16, 16, Rgb([90, 120, 150])),
            16,
            16,
            ExtendedColorType::Rgb8,
        )
        .expect("JPEG encoding");
    out
}
