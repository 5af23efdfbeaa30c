//! Turns an uploaded picture into a clean JPEG: type from magic bytes (JPEG, PNG, WebP),
//! dimensions bounded from the header before any pixel is decoded, then decoded, shrunk and
//! re-encoded. Re-encoding keeps only pixels: EXIF/GPS, text chunks and anything appended
//! after the image are gone.

use std::io::Cursor;

use image::{
    DynamicImage, ExtendedColorType, ImageDecoder, ImageEncoder, ImageFormat, ImageReader, Limits,
    RgbImage, codecs::jpeg::JpegEncoder, imageops::FilterType, metadata::Orientation,
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
/// Decoder allocations, a second line behind the dimension checks.
const MAX_DECODER_ALLOC: u64 = 256 * 1024 * 1024;
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

/// A picture's dimensions, read from its header without decoding any pixel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    pub width: u32,
    pub height: u32,
}

impl Header {
    pub fn pixels(&self) -> u64 {
        u64::from(self.width) * u64::from(self.height)
    }
}

/// Checks the type, completeness and claimed dimensions (cheap: headers only) so a caller
/// can reserve decode capacity for `width × height` before [`reencode`].
pub fn inspect(bytes: &[u8]) -> Result<Header, PictureError> {
    let decoder = checked_decoder(bytes)?;
    let (width, height) = decoder.dimensions();
    Ok(Header { width, height })
}

/// A decoder positioned after the header, once every check before decoding has passed.
fn checked_decoder(bytes: &[u8]) -> Result<impl ImageDecoder + '_, PictureError> {
    let format = sniff(bytes).ok_or(PictureError::NotAnImage)?;
    if format == ImageFormat::Jpeg && !jpeg_is_complete(bytes) {
        return Err(PictureError::NotAnImage);
    }
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_DECODER_ALLOC);
    reader.limits(limits);
    // Reads the header only; the limits above refuse oversized dimensions here.
    let decoder = reader.into_decoder()?;
    let (width, height) = decoder.dimensions();
    if width == 0 || height == 0 {
        return Err(PictureError::NotAnImage);
    }
    let pixels = u64::from(width) * u64::from(height);
    // The second test catches deep pixels (16-bit RGBA) that would pass the first.
    if pixels > MAX_PIXELS || decoder.total_bytes() > MAX_DECODER_ALLOC {
        return Err(PictureError::TooManyPixels);
    }
    if !plausible_size(pixels, bytes.len()) {
        return Err(PictureError::Implausible);
    }
    Ok(decoder)
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
/// `max_side` pixels on its long side, upright.
pub fn reencode(bytes: &[u8], max_side: u32) -> Result<Vec<u8>, PictureError> {
    let mut decoder = checked_decoder(bytes)?;
    let (width, height) = decoder.dimensions();
    let orientation = decoder.orientation().unwrap_or(Orientation::NoTransforms);
    let mut picture = DynamicImage::from_decoder(decoder)?;
    if width.max(height) > max_side {
        picture = picture.resize(max_side, max_side, FilterType::Triangle);
    }
    // Phones store rotation as EXIF, which re-encoding drops: apply it to the pixels.
    picture.apply_orientation(orientation);
    let rgb = flatten(picture);
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

/// JPEG has no transparency: transparent areas become white rather than black.
fn flatten(picture: DynamicImage) -> RgbImage {
    if !picture.has_alpha() {
        return picture.into_rgb8();
    }
    let rgba = picture.into_rgba8();
    RgbImage::from_fn(rgba.width(), rgba.height(), |x, y| {
        let [r, g, b, a] = rgba.get_pixel(x, y).0;
        let over_white = |c: u8| {
            let (c, a) = (u32::from(c), u32::from(a));
            // A weighted mean of two bytes is a byte.
            u8::try_from((c * a + 255 * (255 - a) + 127) / 255).unwrap_or(u8::MAX)
        };
        image::Rgb([over_white(r), over_white(g), over_white(b)])
    })
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
                height: 2_000
            })
        );
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
