//! Turns an uploaded picture into a clean JPEG: type from magic bytes (JPEG, PNG, WebP),
//! dimensions bounded from the header before any pixel is decoded, then decoded, shrunk and
//! re-encoded. Re-encoding keeps only pixels: EXIF/GPS, text chunks and anything appended
//! after the image are gone.
//!
//! Memory is bounded in bytes, not only in pixels (issue 31): a PNG's metadata chunks are
//! dropped before its decoder sees them (an `iCCP` colour profile is compressed, so a 1 MiB
//! file could inflate to a gigabyte of "profile"), every decoder's own allocations beyond the
//! pixels are held to [`DECODER_ALLOWANCE`], and [`Header::peak_bytes`] says what a decode
//! holds at its peak, so the shared decode budget (files/mod.rs) can be counted in bytes.

use std::{borrow::Cow, io::Cursor};

use image::{
    DynamicImage, ExtendedColorType, ImageDecoder, ImageEncoder, ImageFormat, ImageReader, Limits,
    RgbImage, codecs::jpeg::JpegEncoder, imageops, imageops::FilterType, metadata::Orientation,
};

use crate::config::MAX_PICTURE_MEGAPIXELS;

/// The largest accepted upload (spec: 2 MB = 2,097,152 bytes).
pub const MAX_UPLOAD_BYTES: usize = 2_097_152;
/// Header bounds checked before decoding (a 60,000 × 60,000 "pixel flood" stops here).
pub const MAX_SIDE: u32 = 8_192;
pub const MAX_PIXELS: u64 = MAX_PICTURE_MEGAPIXELS as u64 * 1_000_000;
/// Pictures up to this many pixels are decoded whatever their file size (about 40 ms).
pub const FREE_PIXELS: u64 = 2_000_000;
/// Above [`FREE_PIXELS`], at most this many claimed pixels per byte of file.
pub const MAX_PIXELS_PER_BYTE: u64 = 256;
/// The decoder's output at most (40 megapixels of 8-bit RGBA): deeper pixels are refused
/// from their header when they would take more.
pub const MAX_DECODED_BYTES: u64 = MAX_PIXELS * 4;
/// What a decoder may allocate besides the picture's pixels (line buffers, the metadata it
/// keeps, a JPEG's copy of its input): its `max_alloc`. Also counted once in every
/// [`Header::peak_bytes`], with the metadata-free copy of a PNG.
pub const DECODER_ALLOWANCE: u64 = 16 * 1024 * 1024;
/// A progressive JPEG's decoder keeps every DCT coefficient until the last scan: two bytes per
/// sample, three samples per pixel at most (no chroma subsampling).
const PROGRESSIVE_JPEG_BYTES_PER_PIXEL: u64 = 6;
/// A WebP decoder's working planes besides its output (lossy: the YUV planes, measured at about
/// one byte per pixel on a 40-megapixel picture).
const WEBP_BYTES_PER_PIXEL: u64 = 2;
/// Downscaling through a filter holds one pass's result as four f32 channels per pixel.
const FILTER_PASS_BYTES_PER_PIXEL: u64 = 16;
/// Ancillary PNG chunks a decode keeps: transparency and the EXIF orientation (neither is
/// compressed, so both are bounded by the file). Every other ancillary chunk is dropped first.
const PNG_KEPT_ANCILLARY: [&[u8; 4]; 2] = [b"tRNS", b"eXIf"];
/// The longest side of a stored profile picture: shown as avatars and on the profile page,
/// this is plenty.
pub const PICTURE_MAX_SIDE: u32 = 1_024;
/// The longest side of a stored receipt photo: small print must stay legible.
pub const RECEIPT_MAX_SIDE: u32 = 2_048;
const JPEG_QUALITY: u8 = 85;

#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum PictureError {
    /// Not JPEG, PNG or WebP, or not decodable as what it claims to be.
    #[error("not a supported image")]
    NotAnImage,
    #[error("image dimensions above the limit")]
    TooManyPixels,
    /// Far more pixels claimed than the file's size can hold (a cheap decompression bomb).
    #[error("image dimensions implausible for the file size")]
    Implausible,
    /// Decoding it would take more memory than the whole decode budget.
    #[error("image needs more memory to decode than the budget")]
    OverBudget,
}

impl From<image::ImageError> for PictureError {
    fn from(err: image::ImageError) -> Self {
        match err {
            image::ImageError::Limits(_) => PictureError::TooManyPixels,
            _ => PictureError::NotAnImage,
        }
    }
}

/// The format named by the file's first bytes, if it is one we accept.
pub fn sniff(bytes: &[u8]) -> Option<ImageFormat> {
    match image::guess_format(bytes) {
        Ok(format @ (ImageFormat::Jpeg | ImageFormat::Png | ImageFormat::WebP)) => Some(format),
        _ => None,
    }
}

/// A picture as its header describes it, read without decoding any pixel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    pub width: u32,
    pub height: u32,
    /// The decoder's output: every pixel at the file's own depth and channels.
    pub decoded_bytes: u64,
    /// The decoder's output is 8-bit RGB or RGBA, which becomes RGB without a copy.
    pub eight_bit_rgb: bool,
    /// What the decoder holds per pixel besides its output (a progressive JPEG's
    /// coefficients, a WebP's planes).
    pub working_bytes_per_pixel: u64,
}

impl Header {
    pub fn pixels(&self) -> u64 {
        u64::from(self.width) * u64::from(self.height)
    }

    /// The most memory [`reencode`] holds at once for this picture with output side
    /// `max_side`, in bytes, counting [`DECODER_ALLOWANCE`] on top: the decode (output plus the
    /// decoder's working memory), the 8-bit RGB copy when the output is deeper or grey,
    /// then the RGB picture with its downscale (see [`shrink`]).
    pub fn peak_bytes(&self, max_side: u32) -> u64 {
        let pixels = self.pixels();
        let decoding = self.decoded_bytes + pixels * self.working_bytes_per_pixel;
        let to_rgb = if self.eight_bit_rgb { 0 } else { pixels * 4 };
        let converting = self.decoded_bytes + to_rgb;
        let (out_width, out_height) = shrunk(self.width, self.height, max_side);
        let out = u64::from(out_width) * u64::from(out_height) * 3;
        let pass = match shrink_method(self.width, self.height, max_side) {
            Shrink::Filter => {
                u64::from(self.width) * u64::from(out_height) * FILTER_PASS_BYTES_PER_PIXEL
            }
            Shrink::None | Shrink::Average => 0,
        };
        // The shrunk picture, turned upright (a copy) and encoded (smaller than the pixels).
        let shrinking = pixels * 3 + pass + out;
        let finishing = out * 3;
        decoding.max(converting).max(shrinking).max(finishing) + DECODER_ALLOWANCE
    }
}

/// Checks the type, completeness and claimed dimensions (cheap: headers only) so a caller
/// can reserve decode capacity for the picture's [`Header::peak_bytes`] before [`reencode`].
pub fn inspect(bytes: &[u8]) -> Result<Header, PictureError> {
    let bytes = without_metadata(bytes)?;
    let decoder = checked_decoder(&bytes)?;
    let (width, height) = decoder.dimensions();
    Ok(Header {
        width,
        height,
        decoded_bytes: decoder.total_bytes(),
        eight_bit_rgb: matches!(
            decoder.color_type(),
            image::ColorType::Rgb8 | image::ColorType::Rgba8
        ),
        working_bytes_per_pixel: match sniff(&bytes) {
            Some(ImageFormat::Jpeg) if jpeg_is_progressive(&bytes) => {
                PROGRESSIVE_JPEG_BYTES_PER_PIXEL
            }
            Some(ImageFormat::WebP) => WEBP_BYTES_PER_PIXEL,
            _ => 0,
        },
    })
}

/// A decoder positioned after the header, once every check before decoding has passed.
/// `bytes` have been through [`without_metadata`].
fn checked_decoder(bytes: &[u8]) -> Result<impl ImageDecoder + '_, PictureError> {
    let format = sniff(bytes).ok_or(PictureError::NotAnImage)?;
    if format == ImageFormat::Jpeg && !jpeg_is_complete(bytes) {
        return Err(PictureError::NotAnImage);
    }
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    // The decoders' own allocations: the pixels are allocated by `DynamicImage::from_decoder`
    // (bounded below), not counted here.
    limits.max_alloc = Some(DECODER_ALLOWANCE);
    reader.limits(limits);
    // Reads the header only; the limits above refuse oversized dimensions here.
    let decoder = reader.into_decoder()?;
    let (width, height) = decoder.dimensions();
    if width == 0 || height == 0 {
        return Err(PictureError::NotAnImage);
    }
    let pixels = u64::from(width) * u64::from(height);
    // The second test catches deep pixels (16-bit RGBA) that would pass the first.
    if pixels > MAX_PIXELS || decoder.total_bytes() > MAX_DECODED_BYTES {
        return Err(PictureError::TooManyPixels);
    }
    if !plausible_size(pixels, bytes.len()) {
        return Err(PictureError::Implausible);
    }
    Ok(decoder)
}

/// A PNG without the ancillary chunks a decode does not need (all but [`PNG_KEPT_ANCILLARY`])
/// and without anything after its end; other formats unchanged. Chunks are copied whole, CRC
/// included, so the decoder still checks every one it reads. A chunk that runs past the end of
/// the file is not a picture.
fn without_metadata(bytes: &[u8]) -> Result<Cow<'_, [u8]>, PictureError> {
    const SIGNATURE: usize = 8;
    if sniff(bytes) != Some(ImageFormat::Png) {
        return Ok(Cow::Borrowed(bytes));
    }
    let mut kept = bytes[..SIGNATURE].to_vec();
    let mut at = SIGNATURE;
    while at < bytes.len() {
        let (Some(length), Some(kind)) = (bytes.get(at..at + 4), bytes.get(at + 4..at + 8)) else {
            return Err(PictureError::NotAnImage);
        };
        let length = usize::try_from(u32::from_be_bytes([
            length[0], length[1], length[2], length[3],
        ]))
        .map_err(|_| PictureError::NotAnImage)?;
        let end = at
            .checked_add(12)
            .and_then(|n| n.checked_add(length))
            .filter(|&end| end <= bytes.len())
            .ok_or(PictureError::NotAnImage)?;
        let critical = kind[0].is_ascii_uppercase();
        if critical
            || PNG_KEPT_ANCILLARY
                .iter()
                .any(|keep| keep.as_slice() == kind)
        {
            kept.extend_from_slice(&bytes[at..end]);
        }
        at = end;
        if kind == b"IEND" {
            break;
        }
    }
    Ok(Cow::Owned(kept))
}

/// How a picture is brought down to `max_side`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shrink {
    None,
    /// At least halved: each output pixel is the mean of the input pixels it covers, computed
    /// straight into the output (`imageops::thumbnail`).
    Average,
    /// Less than halved, where whole-pixel means would alias: a triangle filter, whose first
    /// pass holds [`FILTER_PASS_BYTES_PER_PIXEL`] per pixel of width × output height.
    Filter,
}

fn shrink_method(width: u32, height: u32, max_side: u32) -> Shrink {
    let long = width.max(height);
    if long <= max_side {
        Shrink::None
    } else if long >= max_side.saturating_mul(2) {
        Shrink::Average
    } else {
        Shrink::Filter
    }
}

/// The output size: the long side at most `max_side`, proportions kept.
fn shrunk(width: u32, height: u32, max_side: u32) -> (u32, u32) {
    let long = width.max(height);
    if long <= max_side {
        return (width, height);
    }
    let scale = |side: u32| {
        let scaled =
            (u64::from(side) * u64::from(max_side) + u64::from(long) / 2) / u64::from(long);
        u32::try_from(scaled).unwrap_or(max_side).max(1)
    };
    (scale(width), scale(height))
}

fn shrink(picture: RgbImage, max_side: u32) -> RgbImage {
    let (width, height) = shrunk(picture.width(), picture.height(), max_side);
    match shrink_method(picture.width(), picture.height(), max_side) {
        Shrink::None => picture,
        Shrink::Average => imageops::thumbnail(&picture, width, height),
        Shrink::Filter => imageops::resize(&picture, width, height, FilterType::Triangle),
    }
}

/// Whether a file of `len` bytes can honestly hold `pixels` pixels. Decoders fill missing
/// data with grey, so a header claiming 40 megapixels in a few hundred bytes would cost a full
/// decode (0.8 s) for nothing. Real photos and screenshots stay far below the ratio
/// (measured with this crate's encoders on 12-megapixel pictures: a flat colour is 36 pixels
/// per byte as JPEG and 65 as PNG, a smooth gradient 29 and 65); small pictures are always
/// allowed because they are cheap to decode whatever they claim.
fn plausible_size(pixels: u64, len: usize) -> bool {
    pixels <= FREE_PIXELS || pixels <= (len as u64).saturating_mul(MAX_PIXELS_PER_BYTE)
}

/// Decodes `bytes` (CPU-bound: call from a blocking thread) and returns a JPEG of at most
/// `max_side` pixels on its long side, upright. At its peak it holds no more than the
/// picture's [`Header::peak_bytes`].
pub fn reencode(bytes: &[u8], max_side: u32) -> Result<Vec<u8>, PictureError> {
    let bytes = without_metadata(bytes)?;
    let mut decoder = checked_decoder(&bytes)?;
    let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
    let picture = DynamicImage::from_decoder(decoder)?;
    drop(bytes);
    // To 8-bit RGB at full size first (in place when it already is 8-bit), then smaller: the
    // downscale's buffers are then the smallest they can be.
    let mut picture = DynamicImage::ImageRgb8(shrink(flatten(picture), max_side));
    // Phones store rotation as EXIF, which re-encoding drops: apply it to the pixels.
    picture.apply_orientation(orientation);
    let rgb = picture.into_rgb8();
    let mut jpeg = Vec::new();
    JpegEncoder::new_with_quality(&mut jpeg, JPEG_QUALITY)
        .write_image(&rgb, rgb.width(), rgb.height(), ExtendedColorType::Rgb8)
        .map_err(|_| PictureError::NotAnImage)?;
    Ok(jpeg)
}

/// Whether the JPEG's image data runs to its end-of-image marker. The decoder is lenient and
/// fills a cut-off file with grey; a truncated upload is refused instead. Segments before the
/// first scan are skipped by length (an EXIF thumbnail holds an end marker of its own); inside
/// entropy-coded data every 0xFF byte is escaped, so the first FF D9 there is the real end.
fn jpeg_is_complete(bytes: &[u8]) -> bool {
    let mut at = 2;
    loop {
        let (Some(&0xFF), Some(&marker)) = (bytes.get(at), bytes.get(at + 1)) else {
            return false;
        };
        match marker {
            // A fill byte before a marker.
            0xFF => at += 1,
            // Markers without a length.
            0x01 | 0xD0..=0xD8 => at += 2,
            _ => {
                let Some(len) = bytes.get(at + 2..at + 4) else {
                    return false;
                };
                at += 2 + usize::from(u16::from_be_bytes([len[0], len[1]]));
                if marker == 0xDA {
                    break;
                }
            }
        }
    }
    bytes
        .get(at..)
        .is_some_and(|scan| scan.windows(2).any(|pair| pair == [0xFF, 0xD9]))
}

/// The picture as 8-bit RGB. JPEG has no transparency: transparent areas become white rather
/// than black. 8-bit RGB is taken as it is and 8-bit RGBA is flattened in its own buffer, so
/// the common pictures cost no second copy.
fn flatten(picture: DynamicImage) -> RgbImage {
    if !picture.has_alpha() {
        return picture.into_rgb8();
    }
    let rgba = picture.into_rgba8();
    let (width, height) = rgba.dimensions();
    let mut samples = rgba.into_raw();
    let over_white = |c: u8, a: u8| {
        let (c, a) = (u32::from(c), u32::from(a));
        // A weighted mean of two bytes is a byte.
        u8::try_from((c * a + 255 * (255 - a) + 127) / 255).unwrap_or(u8::MAX)
    };
    // Pixel i moves from 4i to 3i: never past a pixel not yet read.
    for i in 0..samples.len() / 4 {
        let [r, g, b, a] = [
            samples[4 * i],
            samples[4 * i + 1],
            samples[4 * i + 2],
            samples[4 * i + 3],
        ];
        samples[3 * i] = over_white(r, a);
        samples[3 * i + 1] = over_white(g, a);
        samples[3 * i + 2] = over_white(b, a);
    }
    samples.truncate(samples.len() / 4 * 3);
    RgbImage::from_raw(width, height, samples).expect("three samples per pixel")
}

/// Whether a JPEG's frame is progressive (SOF2; also SOF6, SOF10 and SOF14, which the decoder
/// refuses anyway), walking the segments before the first scan as [`jpeg_is_complete`] does.
fn jpeg_is_progressive(bytes: &[u8]) -> bool {
    let mut at = 2;
    while let (Some(&0xFF), Some(&marker)) = (bytes.get(at), bytes.get(at + 1)) {
        match marker {
            0xFF => at += 1,
            0x01 | 0xD0..=0xD8 => at += 2,
            0xC2 | 0xC6 | 0xCA | 0xCE => return true,
            0xDA => return false,
            _ => {
                let Some(len) = bytes.get(at + 2..at + 4) else {
                    return false;
                };
                at += 2 + usize::from(u16::from_be_bytes([len[0], len[1]]));
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::{Rgba, RgbaImage, codecs::png::PngEncoder};

    fn png(width: u32, height: u32, pixel: Rgba<u8>) -> Vec<u8> {
        let picture = RgbaImage::from_pixel(width, height, pixel);
        let mut out = Vec::new();
        PngEncoder::new(&mut out)
            .write_image(&picture, width, height, ExtendedColorType::Rgba8)
            .unwrap();
        out
    }

    fn decode(jpeg: &[u8]) -> DynamicImage {
        assert_eq!(sniff(jpeg), Some(ImageFormat::Jpeg));
        image::load_from_memory_with_format(jpeg, ImageFormat::Jpeg).unwrap()
    }

    #[test]
    fn large_pictures_are_shrunk_to_the_output_bound_keeping_proportions() {
        let wide = png(2_000, 1_000, Rgba([10, 120, 200, 255]));
        let out = decode(&reencode(&wide, PICTURE_MAX_SIDE).unwrap());
        assert_eq!((out.width(), out.height()), (1_024, 512));
        let small = png(300, 200, Rgba([10, 120, 200, 255]));
        let small = decode(&reencode(&small, PICTURE_MAX_SIDE).unwrap());
        assert_eq!((small.width(), small.height()), (300, 200));
    }

    #[test]
    fn receipts_keep_twice_the_side_of_a_picture() {
        let tall = png(1_500, 3_000, Rgba([250, 250, 240, 255]));
        let out = decode(&reencode(&tall, RECEIPT_MAX_SIDE).unwrap());
        assert_eq!((out.width(), out.height()), (1_024, 2_048));
        let fits = png(2_000, 1_000, Rgba([250, 250, 240, 255]));
        let out = decode(&reencode(&fits, RECEIPT_MAX_SIDE).unwrap());
        assert_eq!((out.width(), out.height()), (2_000, 1_000));
    }

    #[test]
    fn transparency_becomes_white() {
        let out = decode(&reencode(&png(16, 16, Rgba([0, 0, 0, 0])), PICTURE_MAX_SIDE).unwrap())
            .into_rgb8();
        let [r, g, b] = out.get_pixel(8, 8).0;
        assert!(r > 245 && g > 245 && b > 245, "{r} {g} {b}");
    }

    #[test]
    fn truncated_jpegs_are_refused_but_trailing_data_is_not() {
        let mut whole = Vec::new();
        JpegEncoder::new_with_quality(&mut whole, 90)
            .write_image(
                &RgbImage::from_fn(64, 64, |x, y| {
                    let (x, y) = (u8::try_from(x).unwrap(), u8::try_from(y).unwrap());
                    image::Rgb([x * 4, y * 4, 99])
                }),
                64,
                64,
                ExtendedColorType::Rgb8,
            )
            .unwrap();
        assert!(jpeg_is_complete(&whole));
        assert!(reencode(&whole, PICTURE_MAX_SIDE).is_ok());
        for cut in [whole.len() - 1, whole.len() / 2, 200, 20, 4, 3] {
            assert_eq!(
                reencode(&whole[..cut], PICTURE_MAX_SIDE),
                Err(PictureError::NotAnImage),
                "{cut}"
            );
        }
        let mut appended = whole.clone();
        appended.extend_from_slice(b"<html>payload</html>");
        assert!(reencode(&appended, PICTURE_MAX_SIDE).is_ok());
    }

    #[test]
    fn headers_claiming_far_more_pixels_than_the_bytes_hold_are_refused() {
        // A real 64 × 64 JPEG whose frame header claims 8000 × 5000 (633 bytes in the attack).
        let mut bomb = Vec::new();
        JpegEncoder::new_with_quality(&mut bomb, 90)
            .write_image(
                &RgbImage::from_pixel(64, 64, image::Rgb([9, 9, 9])),
                64,
                64,
                ExtendedColorType::Rgb8,
            )
            .unwrap();
        let sof = bomb.windows(2).position(|w| w == [0xFF, 0xC0]).unwrap();
        bomb[sof + 5..sof + 7].copy_from_slice(&5000u16.to_be_bytes());
        bomb[sof + 7..sof + 9].copy_from_slice(&8000u16.to_be_bytes());
        assert_eq!(
            reencode(&bomb, PICTURE_MAX_SIDE),
            Err(PictureError::Implausible)
        );
        assert_eq!(inspect(&bomb), Err(PictureError::Implausible));

        assert!(plausible_size(FREE_PIXELS, 1));
        assert!(!plausible_size(FREE_PIXELS + 1, 1));
        assert!(plausible_size(40_000_000, 40_000_000 / 256 + 1));
        assert!(!plausible_size(40_000_000, 40_000_000 / 256 - 1));
        // A flat 3000 × 2000 picture, the most compressible honest case, passes.
        let flat = png(3_000, 2_000, Rgba([200, 30, 30, 255]));
        assert_eq!(
            inspect(&flat),
            Ok(Header {
                width: 3_000,
                height: 2_000,
                decoded_bytes: 3_000 * 2_000 * 4,
                eight_bit_rgb: true,
                working_bytes_per_pixel: 0,
            })
        );
    }

    /// A PNG chunk, CRC included.
    fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
        let mut out = u32::try_from(data.len()).unwrap().to_be_bytes().to_vec();
        out.extend_from_slice(kind);
        out.extend_from_slice(data);
        let mut crc = flate2::Crc::new();
        crc.update(kind);
        crc.update(data);
        out.extend_from_slice(&crc.sum().to_be_bytes());
        out
    }

    /// `picture` with `extra` chunks right after IHDR and some bytes after IEND.
    fn png_with(picture: &[u8], extra: &[Vec<u8>]) -> Vec<u8> {
        let mut out = picture[..33].to_vec();
        for chunk in extra {
            out.extend_from_slice(chunk);
        }
        out.extend_from_slice(&picture[33..]);
        out.extend_from_slice(b"trailing bytes");
        out
    }

    fn chunk_kinds(png: &[u8]) -> Vec<String> {
        let mut kinds = Vec::new();
        let mut at = 8;
        while at + 8 <= png.len() {
            let len = u32::from_be_bytes(png[at..at + 4].try_into().unwrap()) as usize;
            kinds.push(String::from_utf8_lossy(&png[at + 4..at + 8]).into_owned());
            at += 12 + len;
        }
        kinds
    }

    #[test]
    fn png_metadata_is_dropped_before_decoding_but_transparency_and_orientation_stay() {
        let picture = png(8, 8, Rgba([1, 2, 3, 128]));
        let compressed_profile = {
            let mut data = b"icc\0\0".to_vec();
            let mut zlib = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
            std::io::Write::write_all(&mut zlib, &vec![0; 1 << 20]).unwrap();
            data.extend(zlib.finish().unwrap());
            data
        };
        let with_metadata = png_with(
            &picture,
            &[
                chunk(b"iCCP", &compressed_profile),
                chunk(b"zTXt", b"Comment\0\0x"),
                chunk(b"tEXt", b"Author\0someone"),
                chunk(b"eXIf", b"MM\0*\0\0\0\x08\0\0"),
                chunk(b"tRNS", &[0, 0]),
                chunk(b"prVt", b"private"),
            ],
        );
        let kept = without_metadata(&with_metadata).unwrap();
        assert_eq!(
            chunk_kinds(&kept),
            ["IHDR", "eXIf", "tRNS", "IDAT", "IEND"],
            "critical chunks, transparency and orientation only; nothing after IEND"
        );
        assert!(reencode(&with_metadata, PICTURE_MAX_SIDE).is_ok());
        // Other formats pass untouched.
        let jpeg = reencode(&picture, PICTURE_MAX_SIDE).unwrap();
        assert!(matches!(without_metadata(&jpeg), Ok(Cow::Borrowed(_))));
        // A chunk that claims more than the file holds is not a picture.
        let mut cut = picture.clone();
        cut.truncate(picture.len() - 6);
        assert_eq!(without_metadata(&cut).err(), Some(PictureError::NotAnImage));
    }

    #[test]
    fn the_peak_estimate_follows_the_path_the_pixels_take() {
        let header = |width, height, bytes_per_pixel, eight_bit_rgb, working| Header {
            width,
            height,
            decoded_bytes: u64::from(width) * u64::from(height) * bytes_per_pixel,
            eight_bit_rgb,
            working_bytes_per_pixel: working,
        };
        let mib = |bytes: u64| (bytes - DECODER_ALLOWANCE) >> 20;
        // 40 MP baseline JPEG: the RGB picture and its averaged output.
        let jpeg = header(8_000, 5_000, 3, true, 0);
        assert_eq!(
            shrink_method(8_000, 5_000, RECEIPT_MAX_SIDE),
            Shrink::Average
        );
        assert_eq!(mib(jpeg.peak_bytes(RECEIPT_MAX_SIDE)), 121);
        // The same as a progressive JPEG: its coefficients come first.
        let progressive = header(8_000, 5_000, 3, true, PROGRESSIVE_JPEG_BYTES_PER_PIXEL);
        assert_eq!(mib(progressive.peak_bytes(RECEIPT_MAX_SIDE)), 343);
        // Less than halved: the filter's first pass, width × output height × 16 bytes.
        let filtered = header(3_000, 3_000, 3, true, 0);
        assert_eq!(
            shrink_method(3_000, 3_000, RECEIPT_MAX_SIDE),
            Shrink::Filter
        );
        assert_eq!(
            mib(filtered.peak_bytes(RECEIPT_MAX_SIDE)),
            (3_000 * 3_000 * 3 + 3_000 * 2_048 * 16 + 2_048 * 2_048 * 3) >> 20
        );
        // 16-bit RGBA: the decoder's output, then an 8-bit copy beside it.
        let deep = header(4_000, 4_000, 8, false, 0);
        assert_eq!(
            mib(deep.peak_bytes(RECEIPT_MAX_SIDE)),
            (16_000_000 * 12) >> 20
        );
        // Small enough already: no shrinking.
        let small = header(1_000, 800, 3, true, 0);
        assert_eq!(shrink_method(1_000, 800, PICTURE_MAX_SIDE), Shrink::None);
        assert_eq!(mib(small.peak_bytes(PICTURE_MAX_SIDE)), (800_000 * 9) >> 20);
        assert_eq!(shrunk(8_000, 5_000, 2_048), (2_048, 1_280));
        assert_eq!(shrunk(1_500, 3_000, 2_048), (1_024, 2_048));
        assert_eq!(shrunk(5_000, 1, 2_048), (2_048, 1));
    }

    #[test]
    fn progressive_jpegs_are_told_from_baseline_ones() {
        let mut baseline = Vec::new();
        JpegEncoder::new_with_quality(&mut baseline, 90)
            .write_image(
                &RgbImage::from_pixel(16, 16, image::Rgb([9, 9, 9])),
                16,
                16,
                ExtendedColorType::Rgb8,
            )
            .unwrap();
        assert!(!jpeg_is_progressive(&baseline));
        let sof = baseline.windows(2).position(|w| w == [0xFF, 0xC0]).unwrap();
        let mut progressive = baseline.clone();
        progressive[sof + 1] = 0xC2;
        assert!(jpeg_is_progressive(&progressive));
        assert_eq!(
            inspect(&progressive).unwrap().working_bytes_per_pixel,
            PROGRESSIVE_JPEG_BYTES_PER_PIXEL
        );
    }

    #[test]
    fn rgba_is_flattened_over_white_in_its_own_buffer() {
        let rgba = RgbaImage::from_fn(3, 2, |x, _| {
            Rgba([200, 100, 0, if x == 0 { 255 } else { 0 }])
        });
        let rgb = flatten(DynamicImage::ImageRgba8(rgba));
        assert_eq!(rgb.dimensions(), (3, 2));
        assert_eq!(rgb.get_pixel(0, 1).0, [200, 100, 0]);
        assert_eq!(rgb.get_pixel(2, 0).0, [255, 255, 255]);
    }

    #[test]
    fn only_jpeg_png_and_webp_are_accepted() {
        assert_eq!(
            reencode(b"", PICTURE_MAX_SIDE),
            Err(PictureError::NotAnImage)
        );
        assert_eq!(
            reencode(b"GIF89a\x01\x00\x01\x00", PICTURE_MAX_SIDE),
            Err(PictureError::NotAnImage)
        );
        assert_eq!(
            reencode(b"BM\x00\x00\x00\x00", PICTURE_MAX_SIDE),
            Err(PictureError::NotAnImage)
        );
        assert_eq!(
            reencode(
                b"<svg xmlns='http://www.w3.org/2000/svg'/>",
                PICTURE_MAX_SIDE
            ),
            Err(PictureError::NotAnImage)
        );
    }
}
