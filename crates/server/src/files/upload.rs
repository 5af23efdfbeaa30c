//! What every upload route shares: the streamed multipart reader with the size limit enforced
//! while reading, the refusals in the API's words, reading and re-encoding an admitted upload,
//! and framing the answer so the client always gets it.

use axum::{
    extract::multipart::{Multipart, MultipartError, MultipartRejection},
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};

use super::{Files, PictureError, UploadSlot, picture::MAX_UPLOAD_BYTES};
use crate::error::{ApiResult, AppError};

fn too_large() -> AppError {
    AppError::client(
        StatusCode::PAYLOAD_TOO_LARGE,
        "file-too-large",
        "Image size must be less than 2MB",
    )
}

fn picture_error(err: PictureError) -> AppError {
    match err {
        PictureError::NotAnImage => AppError::client(
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid-image",
            "Please select an image file",
        ),
        PictureError::TooManyPixels => AppError::client(
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid-image",
            "Image dimensions are too large (at most 8192 pixels per side and 40 megapixels)",
        ),
        PictureError::Implausible => AppError::client(
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid-image",
            "The image file is too small for the dimensions it claims",
        ),
        PictureError::OverBudget => AppError::client(
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid-image",
            "This image is too large to process here. Please send a smaller one",
        ),
    }
}

fn multipart_error(err: MultipartError) -> AppError {
    if err.status() == StatusCode::PAYLOAD_TOO_LARGE {
        return too_large();
    }
    AppError::client(
        StatusCode::BAD_REQUEST,
        "bad-request",
        "The upload was malformed or interrupted",
    )
}

/// The refusal of a body that is not a readable multipart form.
pub(super) fn multipart_rejection(headers: &HeaderMap, rejection: MultipartRejection) -> AppError {
    let is_multipart = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.trim_start()
                .to_ascii_lowercase()
                .starts_with("multipart/form-data")
        });
    if !is_multipart {
        return AppError::client(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported-media-type",
            "Send the picture as multipart/form-data with a `file` part",
        );
    }
    AppError::client(
        StatusCode::BAD_REQUEST,
        "bad-request",
        rejection.body_text(),
    )
}

/// The bytes of the first `file` part, refused as soon as they pass the limit.
async fn read_file_part(multipart: &mut Multipart) -> ApiResult<Vec<u8>> {
    while let Some(mut field) = multipart.next_field().await.map_err(multipart_error)? {
        if field.name() != Some("file") {
            continue;
        }
        let mut data = Vec::new();
        while let Some(chunk) = field.chunk().await.map_err(multipart_error)? {
            let needed = data.len() + chunk.len();
            if needed > MAX_UPLOAD_BYTES {
                while let Ok(Some(_)) = field.chunk().await {}
                drop(field);
                discard_rest(multipart).await;
                return Err(too_large());
            }
            if needed > data.capacity() {
                // Doubling, but never past the limit: at most 2 MiB held per upload.
                let grown = needed.max(data.capacity() * 2).min(MAX_UPLOAD_BYTES);
                data.reserve_exact(grown - data.len());
            }
            data.extend_from_slice(&chunk);
        }
        drop(field);
        discard_rest(multipart).await;
        return Ok(data);
    }
    Err(AppError::validation("file", "Please select an image file"))
}

/// Reads what is left of the body (bounded by the route's body limit) without keeping it:
/// a connection closed with unread data can reset before the client reads the answer.
async fn discard_rest(multipart: &mut Multipart) {
    while let Ok(Some(mut next)) = multipart.next_field().await {
        while let Ok(Some(_)) = next.chunk().await {}
    }
}

/// Reads the `file` part of an admitted upload and re-encodes it as a JPEG of at most
/// `max_side` px on its long side. The upload's slot is released once the body is gone.
pub(super) async fn receive_picture(
    files: &Files,
    slot: UploadSlot,
    multipart: &mut Multipart,
    max_side: u32,
) -> ApiResult<Vec<u8>> {
    let upload = read_file_part(multipart).await?;
    let jpeg = files
        .reencode(upload.into(), max_side)
        .await
        .map_err(picture_error)?;
    slot.release();
    Ok(jpeg)
}

/// The answer to an upload. Whatever is left of the body is read (not kept) first, so an
/// upload refused before its body was used still gets its answer rather than a reset
/// connection; an oversized one, whose rest may stay unread, says the connection closes.
pub(super) async fn answer(
    multipart: &mut Multipart,
    outcome: ApiResult<impl IntoResponse>,
) -> Response {
    discard_rest(multipart).await;
    match outcome {
        Ok(reply) => reply.into_response(),
        Err(err) => {
            let too_large = err.code() == "file-too-large";
            let mut response = err.into_response();
            if too_large {
                response
                    .headers_mut()
                    .insert(header::CONNECTION, HeaderValue::from_static("close"));
            }
            response
        }
    }
}
