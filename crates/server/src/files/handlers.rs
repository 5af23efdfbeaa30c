//! Picture upload and download. The client's file name and content type are never used:
//! the type comes from the bytes and the key is generated here.

use axum::{
    Json,
    extract::{
        Path, State,
        multipart::{Multipart, MultipartError, MultipartRejection},
        rejection::PathRejection,
    },
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use domain::time_fmt::now_ms;

use super::{PictureError, PictureKey, UploadSlot, picture::MAX_UPLOAD_BYTES};
use crate::{
    AppState,
    auth::{
        session::CurrentUser,
        types::{SessionResponse, UserView},
    },
    error::{ApiResult, AppError, ErrorBody},
};

/// The multipart form of an upload (documentation only: the body is streamed by hand).
#[derive(utoipa::ToSchema)]
#[allow(dead_code)]
pub struct PhotoUpload {
    /// A JPEG, PNG or WebP picture of at most 2,097,152 bytes.
    #[schema(value_type = String, format = Binary)]
    file: Vec<u8>,
}

fn too_large() -> AppError {
    AppError::client(
        StatusCode::PAYLOAD_TOO_LARGE,
        "file-too-large",
        "Image size must be less than 2MB",
    )
}

fn not_an_image() -> AppError {
    AppError::client(
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid-image",
        "Please select an image file",
    )
}

fn picture_error(err: PictureError) -> AppError {
    match err {
        PictureError::NotAnImage => not_an_image(),
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

fn multipart_rejection(headers: &HeaderMap, rejection: MultipartRejection) -> AppError {
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

#[utoipa::path(post, path = "/api/v1/profile/photo", tag = "files",
    request_body(content = PhotoUpload, content_type = "multipart/form-data"),
    responses(
        (status = 200, description = "Picture stored and photoURL set (the change syncs to every device)", body = SessionResponse),
        (status = 400, description = "bad-request: a malformed or interrupted multipart body", body = ErrorBody),
        (status = 401, description = "unauthenticated", body = ErrorBody),
        (status = 413, description = "file-too-large: more than 2,097,152 bytes", body = ErrorBody),
        (status = 415, description = "unsupported-media-type: not multipart/form-data", body = ErrorBody),
        (status = 422, description = "invalid-image (not a JPEG, PNG or WebP, undecodable, too many pixels, or far more pixels claimed than the file can hold), or validation when there is no `file` part", body = ErrorBody),
        (status = 429, description = "rate-limited: more than UPLOADS_PER_USER_PER_MINUTE uploads; Retry-After says when to try again", body = ErrorBody),
        (status = 503, description = "busy: UPLOADS_IN_FLIGHT uploads are already being received or decoded; Retry-After", body = ErrorBody),
    ))]
pub async fn upload_photo(
    State(state): State<AppState>,
    current: CurrentUser,
    headers: HeaderMap,
    multipart: Result<Multipart, MultipartRejection>,
) -> Response {
    let multipart = multipart.map_err(|rejection| multipart_rejection(&headers, rejection));
    let outcome = match state.files.admit(current.user.id) {
        Ok(slot) => store_photo(state, current, slot, multipart).await,
        Err(refusal) => {
            // Read (not kept) so the client gets the answer rather than a reset connection.
            if let Ok(mut multipart) = multipart {
                discard_rest(&mut multipart).await;
            }
            Err(refusal)
        }
    };
    match outcome {
        Ok(reply) => reply.into_response(),
        Err(err) => {
            let too_large = err.code() == "file-too-large";
            let mut response = err.into_response();
            if too_large {
                // The rest of an oversized body may be left unread, and then the server
                // closes the connection: say so, so the client does not reuse it.
                response
                    .headers_mut()
                    .insert(header::CONNECTION, HeaderValue::from_static("close"));
            }
            response
        }
    }
}

async fn store_photo(
    state: AppState,
    current: CurrentUser,
    slot: UploadSlot,
    multipart: ApiResult<Multipart>,
) -> ApiResult<Json<SessionResponse>> {
    let mut multipart = multipart?;
    let upload = read_file_part(&mut multipart).await?;
    let jpeg = state
        .files
        .reencode(upload.into())
        .await
        .map_err(picture_error)?;
    // The body is gone; the re-encoded picture is small.
    slot.release();

    let user = current.user;
    let previous = user
        .photo_url
        .as_deref()
        .and_then(PictureKey::from_url)
        .filter(|key| key.user_id == user.id);
    let now = now_ms();
    let key = state.files.next_key(user.id, now, previous);
    state.files.store.put(&key, jpeg.into()).await?;
    // One atomic swap: each concurrent upload replaces a different picture and deletes
    // exactly that one, so none is left behind whatever the interleaving.
    let swap = match state.store.set_photo(user.id, Some(key.url()), now).await {
        Ok(swap) => swap,
        Err(err) => {
            remove_quietly(&state, &key).await;
            return Err(err.into());
        }
    };
    let replaced = swap
        .replaced
        .as_deref()
        .and_then(PictureKey::from_url)
        .filter(|replaced| replaced.user_id == user.id && *replaced != key);
    if let Some(replaced) = replaced {
        remove_quietly(&state, &replaced).await;
    }
    let cursor = swap.cursor;
    state.notifier.changed(user.id, cursor);
    tracing::info!(user_id = %user.id, key = key.object_key(), "profile picture stored");

    let user = state
        .store
        .get_user(user.id)
        .await?
        .ok_or_else(AppError::unauthenticated)?;
    Ok(Json(SessionResponse {
        user: UserView::from(&user),
    }))
}

/// Best effort: a leftover object costs storage, never correctness.
async fn remove_quietly(state: &AppState, key: &PictureKey) {
    if let Err(err) = state.files.store.delete(key).await {
        tracing::warn!(
            error = format!("{err:#}"),
            "could not delete a replaced picture"
        );
    }
}

#[utoipa::path(get, path = "/api/v1/files/users/{uid}/{name}", tag = "files",
    params(
        ("uid" = String, Path, description = "The owner's user id (only your own)"),
        ("name" = String, Path, description = "`profile_<timestamp>`"),
    ),
    responses(
        (status = 200, description = "The picture (JPEG, cacheable by the browser only)", content_type = "image/jpeg"),
        (status = 401, description = "unauthenticated", body = ErrorBody),
        (status = 404, description = "not-found: no such picture, or another user's", body = ErrorBody),
    ))]
pub async fn get_file(
    State(state): State<AppState>,
    current: CurrentUser,
    path: Result<Path<(String, String)>, PathRejection>,
) -> ApiResult<Response> {
    let Ok(Path((uid, name))) = path else {
        return Err(AppError::not_found());
    };
    let key = PictureKey::from_segments(&uid, &name)
        .filter(|key| key.user_id == current.user.id)
        .ok_or_else(AppError::not_found)?;
    let bytes = state
        .files
        .store
        .get(&key)
        .await?
        .ok_or_else(AppError::not_found)?;
    Ok((
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("image/jpeg")),
            (
                header::CACHE_CONTROL,
                // Keys are never reused, so a cached copy never goes stale.
                HeaderValue::from_static("private, max-age=31536000, immutable"),
            ),
            (
                header::CONTENT_DISPOSITION,
                HeaderValue::from_static("inline"),
            ),
        ],
        bytes,
    )
        .into_response())
}
