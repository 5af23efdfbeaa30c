//! The colour-profile bomb (issue 31 item 2): a 48 × 48 PNG of about 1 MiB whose `iCCP` chunk
//! inflates to 1 GiB, sent 16 at once (receipts and profile pictures, 8 guests). Reports the
//! server's peak RSS above idle (sampled every 20 ms and from VmHWM) and the answers.

use std::{
    collections::BTreeMap,
    path::Path,
    time::{Duration, Instant},
};

use image::{ExtendedColorType, ImageEncoder, RgbImage, codecs::png::PngEncoder};
use tokio::task::JoinSet;

use super::{Figure, Server, guest};

const BOUNDARY: &str = "----abuse-bomb-Qk5vYmI";
const ENV: &[(&str, &str)] = &[
    ("GUEST_RATE_LIMIT_PER_IP_PER_HOUR", "1000"),
    ("GUEST_RATE_LIMIT_PER_HOUR", "1000"),
    ("UPLOADS_PER_USER_PER_MINUTE", "1000"),
    ("REQUEST_TIMEOUT_SECS", "120"),
];

pub async fn run(binary: &Path) -> Vec<Figure> {
    let server = Server::start(binary, ENV, None).await;
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(150))
        .build()
        .expect("client");
    let bomb = colour_profile_bomb(1 << 30);
    let mut cookies = Vec::new();
    for _ in 0..8 {
        cookies.push(guest(&http, &server.base).await);
    }
    let idle = server.rss_kib();
    let body = multipart(&bomb);
    let started = Instant::now();
    let mut uploads = JoinSet::new();
    for n in 0..16 {
        let (http, body, cookie) = (http.clone(), body.clone(), cookies[n / 2].clone());
        let (method, url) = if n % 2 == 0 {
            (
                reqwest::Method::PUT,
                format!("{}/api/v1/receipts/{}", server.base, uuid::Uuid::now_v7()),
            )
        } else {
            (
                reqwest::Method::POST,
                format!("{}/api/v1/profile/photo", server.base),
            )
        };
        uploads.spawn(async move {
            match http
                .request(method, url)
                .header("cookie", cookie)
                .header(
                    "content-type",
                    format!("multipart/form-data; boundary={BOUNDARY}"),
                )
                .body(body)
                .send()
                .await
            {
                Ok(reply) => reply.status().as_u16(),
                Err(_) => 0,
            }
        });
    }
    let mut peak = idle;
    let mut statuses = BTreeMap::new();
    let mut tick = tokio::time::interval(Duration::from_millis(20));
    while !uploads.is_empty() {
        tokio::select! {
            Some(status) = uploads.join_next() => {
                *statuses.entry(status.unwrap_or(0)).or_insert(0) += 1;
            }
            _ = tick.tick() => peak = peak.max(server.rss_kib()),
        }
    }
    let elapsed = started.elapsed();
    let peak = peak.max(server.peak_rss_kib());
    let answers: Vec<String> = statuses.iter().map(|(s, n)| format!("{n}× {s}")).collect();
    vec![
        Figure::new(
            "bomb: peak RSS above idle, 16 colour-profile bombs at once (1 MiB PNG, 1 GiB iCCP)",
            format!(
                "{} MiB (idle {} MiB)",
                peak.saturating_sub(idle) / 1024,
                idle / 1024
            ),
        ),
        Figure::new(
            "bomb: answers",
            format!("{} in {:.1} s", answers.join(", "), elapsed.as_secs_f64()),
        ),
    ]
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

/// A 48 × 48 PNG whose `iCCP` chunk is a valid zlib stream of `inflated` zeros: one MiB
/// deflated with a full flush (byte-aligned, window forgotten), repeated.
pub fn colour_profile_bomb(inflated: usize) -> Vec<u8> {
    use flate2::{Compress, Compression, FlushCompress};
    const SEGMENT: usize = 1 << 20;
    let mut deflate = Compress::new(Compression::best(), false);
    let mut segment = Vec::with_capacity(SEGMENT);
    deflate
        .compress_vec(&vec![0; SEGMENT], &mut segment, FlushCompress::Full)
        .expect("deflate");
    let mut profile = b"icc\0\0".to_vec();
    profile.extend_from_slice(&[0x78, 0xDA]);
    for _ in 0..inflated / SEGMENT {
        profile.extend_from_slice(&segment);
    }
    profile.extend_from_slice(&[0x01, 0x00, 0x00, 0xFF, 0xFF]);
    let b = u32::try_from(inflated % 65_521).expect("below the modulus");
    profile.extend_from_slice(&((b << 16) | 1).to_be_bytes());

    let pixels = RgbImage::from_fn(48, 48, |x, y| {
        image::Rgb([
            u8::try_from(x * 5).unwrap_or(0),
            u8::try_from(y * 5).unwrap_or(0),
            90,
        ])
    });
    let mut png = Vec::new();
    PngEncoder::new(&mut png)
        .write_image(&pixels, 48, 48, ExtendedColorType::Rgb8)
        .expect("png");
    let rest = png.split_off(8 + 25);
    png.extend(chunk(b"iCCP", &profile));
    png.extend(rest);
    png
}

fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut out = u32::try_from(data.len())
        .expect("chunk length")
        .to_be_bytes()
        .to_vec();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let mut crc = flate2::Crc::new();
    crc.update(kind);
    crc.update(data);
    out.extend_from_slice(&crc.sum().to_be_bytes());
    out
}
