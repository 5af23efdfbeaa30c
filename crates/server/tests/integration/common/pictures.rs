//! Uploads and pictures for the file suites (profile pictures, receipt photos): multipart
//! bodies written by hand (full control over names, file names, types and exact sizes),
//! fetching raw bytes, and test pictures made here.

use std::path::{Path, PathBuf};

use image::{
    DynamicImage, ExtendedColorType, ImageEncoder, ImageFormat, Rgb, RgbImage,
    codecs::{jpeg::JpegEncoder, png::PngEncoder, webp::WebPEncoder},
};
use reqwest::{Method, StatusCode, header::HeaderMap};
use serde_json::Value;

use super::{Reply, TestApp};

pub const BOUNDARY: &str = "----delivery-tracker-test-7MA4YWxkTrZu0gW";

pub struct Part<'a> {
    pub name: &'a str,
    pub filename: Option<&'a str>,
    pub content_type: Option<&'a str>,
    pub data: &'a [u8],
}

/// A `file` part as a browser sends it, claiming to be a JPEG whatever it holds.
pub fn file(data: &[u8]) -> Part<'_> {
    Part {
        name: "file",
        filename: Some("photo.jpg"),
        content_type: Some("image/jpeg"),
        data,
    }
}

pub fn multipart_body(parts: &[Part]) -> Vec<u8> {
    let mut body = Vec::new();
    for part in parts {
        body.extend_from_slice(format!("--{BOUNDARY}\r\n").as_bytes());
        let mut disposition = format!("Content-Disposition: form-data; name=\"{}\"", part.name);
        if let Some(filename) = part.filename {
            disposition.push_str(&format!("; filename=\"{filename}\""));
        }
        body.extend_from_slice(disposition.as_bytes());
        body.extend_from_slice(b"\r\n");
        if let Some(content_type) = part.content_type {
            body.extend_from_slice(format!("Content-Type: {content_type}\r\n").as_bytes());
        }
        body.extend_from_slice(b"\r\n");
        body.extend_from_slice(part.data);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    body
}

/// Sends `parts` as `multipart/form-data` to `path`.
pub async fn send_parts(
    app: &TestApp,
    method: Method,
    path: &str,
    cookie: Option<&str>,
    parts: &[Part<'_>],
) -> Reply {
    let mut request = app
        .http
        .request(method, format!("{}{path}", app.base))
        .header(
            "content-type",
            format!("multipart/form-data; boundary={BOUNDARY}"),
        )
        .body(multipart_body(parts));
    if let Some(cookie) = cookie {
        request = request.header("cookie", cookie);
    }
    super::read(request).await
}

pub struct Fetched {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub bytes: Vec<u8>,
}

impl Fetched {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.bytes).unwrap_or(Value::Null)
    }
}

pub async fn fetch(app: &TestApp, path: &str, cookie: Option<&str>) -> Fetched {
    let mut request = app.http.get(format!("{}{path}", app.base));
    if let Some(cookie) = cookie {
        request = request.header("cookie", cookie);
    }
    let response = request.send().await.expect("request sent");
    Fetched {
        status: response.status(),
        headers: response.headers().clone(),
        bytes: response.bytes().await.unwrap().to_vec(),
    }
}

pub fn assert_refused(reply: &Reply, status: StatusCode, code: &str, what: &str) {
    assert_eq!(reply.status, status, "{what}: {}", reply.text);
    assert_eq!(reply.error_code(), code, "{what}: {}", reply.text);
}

pub fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

// ---------------------------------------------------------------------------------------------
// Test pictures, made here.

pub fn gradient(width: u32, height: u32) -> RgbImage {
    RgbImage::from_fn(width, height, |x, y| {
        Rgb([
            u8::try_from(x * 255 / width).unwrap(),
            u8::try_from(y * 255 / height).unwrap(),
            140,
        ])
    })
}

/// Deterministic noise: compresses badly, so files are large for their dimensions.
pub fn noise(width: u32, height: u32) -> RgbImage {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    RgbImage::from_fn(width, height, |_, _| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let [r, g, b, ..] = state.to_le_bytes();
        Rgb([r, g, b])
    })
}

pub fn png(picture: &RgbImage) -> Vec<u8> {
    let mut out = Vec::new();
    PngEncoder::new(&mut out)
        .write_image(
            picture,
            picture.width(),
            picture.height(),
            ExtendedColorType::Rgb8,
        )
        .unwrap();
    out
}

pub fn jpeg(picture: &RgbImage) -> Vec<u8> {
    let mut out = Vec::new();
    JpegEncoder::new_with_quality(&mut out, 90)
        .write_image(
            picture,
            picture.width(),
            picture.height(),
            ExtendedColorType::Rgb8,
        )
        .unwrap();
    out
}

pub fn webp(picture: &RgbImage) -> Vec<u8> {
    let mut out = Vec::new();
    WebPEncoder::new_lossless(&mut out)
        .write_image(
            picture,
            picture.width(),
            picture.height(),
            ExtendedColorType::Rgb8,
        )
        .unwrap();
    out
}

pub fn crc32(bytes: &[u8]) -> u32 {
    let mut table = [0u32; 256];
    for (n, entry) in table.iter_mut().enumerate() {
        let mut c = u32::try_from(n).unwrap();
        for _ in 0..8 {
            c = if c & 1 == 1 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
        *entry = c;
    }
    !bytes.iter().fold(!0u32, |c, &b| {
        table[((c ^ u32::from(b)) & 0xFF) as usize] ^ (c >> 8)
    })
}

pub fn png_chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut chunk = u32::try_from(data.len()).unwrap().to_be_bytes().to_vec();
    chunk.extend_from_slice(kind);
    chunk.extend_from_slice(data);
    let mut crc_input = kind.to_vec();
    crc_input.extend_from_slice(data);
    chunk.extend_from_slice(&crc32(&crc_input).to_be_bytes());
    chunk
}

/// A valid PNG of exactly `len` bytes: a private ancillary chunk (which decoders skip) fills
/// the space before IEND.
pub fn png_of_exactly(len: usize) -> Vec<u8> {
    let mut picture = png(&noise(256, 256));
    let iend = picture.split_off(picture.len() - 12);
    let filler = len - picture.len() - iend.len() - 12;
    picture.extend(png_chunk(b"prVt", &vec![0x5A; filler]));
    picture.extend(iend);
    assert_eq!(picture.len(), len);
    picture
}

/// Only a header claiming `width` × `height` plus a token IDAT: decoding it would need
/// gigabytes, checking it needs nothing.
pub fn png_claiming(width: u32, height: u32) -> Vec<u8> {
    let mut ihdr = width.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    out.extend(png_chunk(b"IHDR", &ihdr));
    out.extend(png_chunk(
        b"IDAT",
        &[0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01],
    ));
    out.extend(png_chunk(b"IEND", b""));
    out
}

/// Offset of the first JPEG segment with this marker (walking segments, not scanning bytes).
pub fn jpeg_segment(bytes: &[u8], marker: u8) -> usize {
    let mut at = 2;
    loop {
        assert_eq!(bytes[at], 0xFF, "segment start");
        if bytes[at + 1] == marker {
            return at;
        }
        at += 2 + usize::from(u16::from_be_bytes([bytes[at + 2], bytes[at + 3]]));
    }
}

/// A real JPEG whose frame header (SOF0) is rewritten to claim `width` × `height`.
pub fn jpeg_claiming(width: u16, height: u16) -> Vec<u8> {
    let mut bytes = jpeg(&gradient(64, 64));
    let sof = jpeg_segment(&bytes, 0xC0);
    bytes[sof + 5..sof + 7].copy_from_slice(&height.to_be_bytes());
    bytes[sof + 7..sof + 9].copy_from_slice(&width.to_be_bytes());
    bytes
}

/// A JPEG carrying an EXIF segment with a recognisable GPS-like secret.
pub fn jpeg_with_exif(secret: &[u8]) -> Vec<u8> {
    let plain = jpeg(&gradient(320, 200));
    let mut exif = b"Exif\0\0".to_vec();
    exif.extend_from_slice(b"II*\0\x08\0\0\0\0\0");
    exif.extend_from_slice(secret);
    let mut segment = vec![0xFF, 0xE1];
    segment.extend_from_slice(&u16::try_from(exif.len() + 2).unwrap().to_be_bytes());
    segment.extend(exif);
    let mut out = plain[..2].to_vec();
    out.extend(segment);
    out.extend_from_slice(&plain[2..]);
    out
}

pub fn decode_jpeg(bytes: &[u8]) -> DynamicImage {
    assert!(bytes.starts_with(&[0xFF, 0xD8, 0xFF]), "a JPEG");
    image::load_from_memory_with_format(bytes, ImageFormat::Jpeg).expect("decodable JPEG")
}

/// Every file under `dir`, recursively.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else {
                found.push(path);
            }
        }
    }
    found
}

/// The colour-profile bomb of issue 31: a 48 × 48 PNG whose `iCCP` chunk is a valid zlib
/// stream of `inflated` zero bytes in about `inflated / 1030` bytes of file (1 GiB in 1 MiB).
/// One MiB of zeros is deflated once with a full flush, which byte-aligns the output and
/// forgets the window, so each further MiB is the same bytes again.
pub fn colour_profile_bomb(inflated: usize) -> Vec<u8> {
    use flate2::{Compress, Compression, FlushCompress};
    const SEGMENT: usize = 1 << 20;
    assert_eq!(inflated % SEGMENT, 0);
    let mut deflate = Compress::new(Compression::best(), false);
    let mut segment = Vec::with_capacity(SEGMENT);
    deflate
        .compress_vec(&vec![0; SEGMENT], &mut segment, FlushCompress::Full)
        .unwrap();
    assert_eq!(deflate.total_in(), SEGMENT as u64, "one MiB in one call");
    let mut profile = b"icc\0\0".to_vec(); // name, NUL, compression method 0
    profile.extend_from_slice(&[0x78, 0xDA]); // zlib header
    for _ in 0..inflated / SEGMENT {
        profile.extend_from_slice(&segment);
    }
    profile.extend_from_slice(&[0x01, 0x00, 0x00, 0xFF, 0xFF]); // final empty stored block
    // Adler-32 of zeros: a stays 1, b adds 1 per byte.
    let b = u32::try_from(inflated % 65_521).unwrap();
    profile.extend_from_slice(&((b << 16) | 1).to_be_bytes());

    let mut picture = png(&noise(48, 48));
    let after_ihdr = 8 + 25;
    let rest = picture.split_off(after_ihdr);
    picture.extend(png_chunk(b"iCCP", &profile));
    picture.extend(rest);
    picture
}
