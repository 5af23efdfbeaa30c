//! Receipt photos: uploaded by id from a device's queue (often long after the expense that
//! lists them was saved offline), so an upload is idempotent: a resend of a stored id answers
//! 200 and stores nothing. Same pipeline as profile pictures, at a larger size; counted against
//! the user's receipt quota, served to their owner.
//!
//! Each upload writes its photo under a key of its own (`users/{uid}/receipt_{id}_{version}`)
//! and only then records it: the row that wins says which object is the photo, so two uploads
//! of one id at once never overwrite each other, and the one that loses (or is over the
//! quota) removes only its own object. The version is also the photo's ETag and the `v` of its
//! cacheable URL, so a photo deleted and uploaded again under the same id is never served
//! from an old copy.

use axum::{
    Json,
    extract::{
        Path, State,
        multipart::{Multipart, MultipartRejection},
        rejection::PathRejection,
    },
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use domain::{
    fields::canonical_uuid,
    time_fmt::{now_ms, rfc3339_from_ms},
};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::{
    ReceiptKey,
    handlers::{PhotoUpload, remove_quietly},
    picture::RECEIPT_MAX_SIDE,
    upload::{answer, multipart_rejection, receive_picture},
};
use crate::{
    AppState,
    auth::session::CurrentUser,
    error::{ApiQuery, ApiResult, AppError, ErrorBody},
    store::{ReceiptHolder, ReceiptInsert, ReceiptRecord},
};

/// A stored receipt photo.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReceiptView {
    pub id: String,
    /// The stored (re-encoded) photo's size, as counted against the quota.
    pub bytes: i64,
    pub created_at: String,
    /// This photo's URL, cacheable for good: it changes when the photo does.
    pub url: String,
}

impl From<ReceiptRecord> for ReceiptView {
    fn from(receipt: ReceiptRecord) -> Self {
        ReceiptView {
            id: receipt.id.to_string(),
            bytes: receipt.bytes,
            created_at: rfc3339_from_ms(receipt.created_at_ms),
            url: format!("/api/v1/receipts/{}?v={}", receipt.id, version_of(&receipt)),
        }
    }
}

/// The photo's version as the API shows it (ETag, `v`): the upload's own, or for a photo
/// stored before uploads had one, its time of upload.
fn version_of(receipt: &ReceiptRecord) -> String {
    receipt
        .version
        .clone()
        .unwrap_or_else(|| format!("t{}", receipt.created_at_ms))
}

/// The receipt id in the path: only a canonical UUID names one (anything else is not found).
fn receipt_id(path: Result<Path<String>, PathRejection>) -> ApiResult<Uuid> {
    path.ok()
        .and_then(|Path(raw)| canonical_uuid(&raw))
        .ok_or_else(AppError::not_found)
}

#[utoipa::path(put, path = "/api/v1/receipts/{id}", tag = "files",
    params(("id" = String, Path, description = "The receipt's id: a canonical (lowercase, hyphenated) UUID made by the device and listed in its expense's `receipts`")),
    request_body(content = PhotoUpload, content_type = "multipart/form-data"),
    responses(
        (status = 201, description = "Stored now", body = ReceiptView),
        (status = 200, description = "Already stored (a resend): nothing was read or stored again", body = ReceiptView),
        (status = 400, description = "bad-request: a malformed or interrupted multipart body", body = ErrorBody),
        (status = 401, description = "unauthenticated", body = ErrorBody),
        (status = 404, description = "not-found: the id is another account's, or not a canonical UUID", body = ErrorBody),
        (status = 413, description = "file-too-large: more than 2,097,152 bytes; or quota-exceeded: the user's receipts would pass MAX_RECEIPT_BYTES_PER_USER (nothing is stored)", body = ErrorBody),
        (status = 415, description = "unsupported-media-type: not multipart/form-data", body = ErrorBody),
        (status = 422, description = "invalid-image (not a JPEG, PNG or WebP, undecodable, too many pixels, or far more pixels claimed than the file can hold), or validation when there is no `file` part", body = ErrorBody),
        (status = 429, description = "rate-limited: more than UPLOADS_PER_USER_PER_MINUTE uploads; Retry-After", body = ErrorBody),
        (status = 503, description = "busy: UPLOADS_IN_FLIGHT uploads are already being received or decoded; Retry-After", body = ErrorBody),
    ))]
pub async fn upload_receipt(
    State(state): State<AppState>,
    current: CurrentUser,
    headers: HeaderMap,
    path: Result<Path<String>, PathRejection>,
    multipart: Result<Multipart, MultipartRejection>,
) -> Response {
    let mut multipart = match multipart {
        Ok(multipart) => multipart,
        Err(rejection) => return multipart_rejection(&headers, rejection).into_response(),
    };
    let outcome = store_receipt(&state, current.user.id, path, &mut multipart).await;
    answer(&mut multipart, outcome).await
}

async fn store_receipt(
    state: &AppState,
    user_id: Uuid,
    path: Result<Path<String>, PathRejection>,
    multipart: &mut Multipart,
) -> ApiResult<(StatusCode, Json<ReceiptView>)> {
    let id = receipt_id(path)?;
    // Looked at before the body is used: a resend costs no decode and no admission.
    match state.store.find_receipt(user_id, id).await? {
        ReceiptHolder::Me(stored) => return Ok((StatusCode::OK, Json(stored.into()))),
        ReceiptHolder::Other => return Err(AppError::not_found()),
        ReceiptHolder::Nobody => {}
    }
    let max_bytes = state.quotas.max_receipt_bytes();
    if state.store.receipt_bytes(user_id).await? >= max_bytes {
        return Err(state.quotas.receipts_full());
    }
    let slot = state.files.admit(user_id)?;
    let jpeg = receive_picture(&state.files, slot, multipart, RECEIPT_MAX_SIDE).await?;
    let bytes = i64::try_from(jpeg.len()).unwrap_or(i64::MAX);
    // Stored before it is recorded, so a recorded receipt always has its photo, under a key of
    // this upload's own: a concurrent upload of the same id writes another. Whichever records
    // first wins; every other outcome removes this upload's object, so nothing unrecorded (or
    // past the quota) stays.
    let key = ReceiptKey::new_upload(user_id, id);
    let version = key.version.clone().unwrap_or_default();
    state.files.store.put(&key, jpeg.into()).await?;
    let inserted = state
        .store
        .insert_receipt(user_id, id, bytes, &version, now_ms(), max_bytes)
        .await;
    match inserted {
        Ok(ReceiptInsert::Stored(stored)) => {
            tracing::info!(%user_id, receipt = %id, bytes, "receipt photo stored");
            Ok((StatusCode::CREATED, Json(stored.into())))
        }
        Ok(ReceiptInsert::Existing(stored)) => {
            remove_quietly(state, &key).await;
            Ok((StatusCode::OK, Json(stored.into())))
        }
        Ok(ReceiptInsert::OtherHolder) => {
            remove_quietly(state, &key).await;
            Err(AppError::not_found())
        }
        Ok(ReceiptInsert::OverQuota) => {
            remove_quietly(state, &key).await;
            Err(state.quotas.receipts_full())
        }
        Err(err) => {
            remove_quietly(state, &key).await;
            Err(err.into())
        }
    }
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct ReceiptVersion {
    /// The photo's version from its `url`: the answer may then be cached for good.
    v: Option<String>,
}

#[utoipa::path(get, path = "/api/v1/receipts/{id}", tag = "files",
    params(("id" = String, Path, description = "The receipt's id"), ReceiptVersion),
    responses(
        (status = 200, description = "The photo (JPEG) with its version as ETag. Without `v`, `Cache-Control: private, no-cache` (revalidated, 304 while it is the same photo); with the current `v`, cacheable by the browser for a year", content_type = "image/jpeg"),
        (status = 304, description = "If-None-Match names the current version"),
        (status = 401, description = "unauthenticated", body = ErrorBody),
        (status = 404, description = "not-found: no such receipt of this user's (another account's is not found either), or `v` names a photo it no longer is", body = ErrorBody),
    ))]
pub async fn get_receipt(
    State(state): State<AppState>,
    current: CurrentUser,
    headers: HeaderMap,
    path: Result<Path<String>, PathRejection>,
    ApiQuery(asked): ApiQuery<ReceiptVersion>,
) -> ApiResult<Response> {
    let id = receipt_id(path)?;
    let user_id = current.user.id;
    let ReceiptHolder::Me(record) = state.store.find_receipt(user_id, id).await? else {
        return Err(AppError::not_found());
    };
    let version = version_of(&record);
    if asked.v.as_ref().is_some_and(|v| *v != version) {
        return Err(AppError::not_found());
    }
    let etag = HeaderValue::from_str(&format!("\"{version}\""))
        .map_err(|err| AppError::Internal(anyhow::anyhow!("receipt version {version:?}: {err}")))?;
    let cache = if asked.v.is_some() {
        "private, max-age=31536000, immutable"
    } else {
        "private, no-cache"
    };
    let fresh = headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|tag| tag.trim().trim_start_matches("W/") == etag);
    let cached = [
        (header::ETAG, etag),
        (header::CACHE_CONTROL, HeaderValue::from_static(cache)),
    ];
    if fresh {
        return Ok((StatusCode::NOT_MODIFIED, cached).into_response());
    }
    let bytes = state
        .files
        .store
        .get(&ReceiptKey::of(user_id, &record))
        .await?
        .ok_or_else(AppError::not_found)?;
    Ok((
        cached,
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("image/jpeg")),
            (
                header::CONTENT_DISPOSITION,
                HeaderValue::from_static("inline"),
            ),
        ],
        bytes,
    )
        .into_response())
}

#[utoipa::path(delete, path = "/api/v1/receipts/{id}", tag = "files",
    params(("id" = String, Path, description = "The receipt's id")),
    responses(
        (status = 204, description = "Deleted (or there was none): its bytes no longer count against the quota"),
        (status = 401, description = "unauthenticated", body = ErrorBody),
        (status = 404, description = "not-found: the id is another account's", body = ErrorBody),
    ))]
pub async fn delete_receipt(
    State(state): State<AppState>,
    current: CurrentUser,
    path: Result<Path<String>, PathRejection>,
) -> ApiResult<StatusCode> {
    let id = receipt_id(path)?;
    let user_id = current.user.id;
    if state.store.find_receipt(user_id, id).await? == ReceiptHolder::Other {
        return Err(AppError::not_found());
    }
    // The row first: once it is gone the photo is neither counted nor listed, and a leftover
    // object (a failed delete) is removed with the user's files at the latest.
    if let Some(removed) = state.store.delete_receipt(user_id, id).await? {
        state
            .files
            .store
            .delete(&ReceiptKey::of(user_id, &removed))
            .await?;
    }
    Ok(StatusCode::NO_CONTENT)
}
