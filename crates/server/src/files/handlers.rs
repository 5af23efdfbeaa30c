//! Picture upload and download. The client's file name and content type are never used:
//! the type comes from the bytes and the key is generated here.

use axum::{
    Json,
    extract::{
        Path, State,
        multipart::{Multipart, MultipartRejection},
        rejection::PathRejection,
    },
    http::{HeaderMap, HeaderValue, header},
    response::{IntoResponse, Response},
};
use domain::time_fmt::now_ms;

use super::{
    FileKey, PictureKey,
    picture::PICTURE_MAX_SIDE,
    upload::{answer, multipart_rejection, receive_picture},
};
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
    let mut multipart = match multipart {
        Ok(multipart) => multipart,
        Err(rejection) => return multipart_rejection(&headers, rejection).into_response(),
    };
    let outcome = store_photo(&state, current, &mut multipart).await;
    answer(&mut multipart, outcome).await
}

async fn store_photo(
    state: &AppState,
    current: CurrentUser,
    multipart: &mut Multipart,
) -> ApiResult<Json<SessionResponse>> {
    let slot = state.files.admit(current.user.id)?;
    let jpeg = receive_picture(&state.files, slot, multipart, PICTURE_MAX_SIDE).await?;

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
            remove_quietly(state, &key).await;
            return Err(err.into());
        }
    };
    let replaced = swap
        .replaced
        .as_deref()
        .and_then(PictureKey::from_url)
        .filter(|replaced| replaced.user_id == user.id && *replaced != key);
    if let Some(replaced) = replaced {
        remove_quietly(state, &replaced).await;
    }
    let cursor = swap.cursor;
    state.notifier.user_changed(user.id);
    state.notifier.changed(user.id, cursor);
    tracing::info!(user_id = %user.id, key = key.object_key(), "profile picture stored");

    let user = state
        .store
        .get_user(user.id)
        .await?
        .ok_or_else(AppError::unauthenticated)?;
    Ok(Json(SessionResponse {
        user: UserView::new(&user, state),
    }))
}

/// Best effort: a leftover object costs storage, never correctness.
pub(super) async fn remove_quietly(state: &AppState, key: &impl FileKey) {
    if let Err(err) = state.files.store.delete(key).await {
        tracing::warn!(
            error = format!("{err:#}"),
            key = key.object_key(),
            "could not delete a replaced or refused file"
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
