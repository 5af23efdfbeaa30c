//! Receipt photos: uploaded by id from a device's queue (often long after the expense that
//! lists them was saved offline), so an upload is idempotent: a resend of a stored id answers
//! 200 and stores nothing. Same pipeline as profile pictures, at a larger size; kept at
//! `users/{uid}/receipt_{id}`, counted against the user's receipt quota, served to their owner.

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
use serde::Serialize;
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
    error::{ApiResult, AppError, ErrorBody},
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
}

impl From<ReceiptRecord> for ReceiptView {
    fn from(receipt: ReceiptRecord) -> Self {
        ReceiptView {
            id: receipt.id.to_string(),
            bytes: receipt.bytes,
            created_at: rfc3339_from_ms(receipt.created_at_ms),
        }
    }
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
    // Stored before it is recorded, so a recorded receipt always has its photo. A concurrent
    // upload of the same id writes the same key; whichever records first wins, the other
    // answers as a resend and leaves the object alone.
    let key = ReceiptKey { user_id, id };
    state.files.store.put(&key, jpeg.into()).await?;
    let inserted = state
        .store
        .insert_receipt(user_id, id, bytes, now_ms(), max_bytes)
        .await;
    match inserted {
        Ok(ReceiptInsert::Stored(stored)) => {
            tracing::info!(%user_id, receipt = %id, bytes, "receipt photo stored");
            Ok((StatusCode::CREATED, Json(stored.into())))
        }
        Ok(ReceiptInsert::Existing(stored)) => Ok((StatusCode::OK, Json(stored.into()))),
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

#[utoipa::path(get, path = "/api/v1/receipts/{id}", tag = "files",
    params(("id" = String, Path, description = "The receipt's id")),
    responses(
        (status = 200, description = "The photo (JPEG, cacheable by the browser only: ids are never reused)", content_type = "image/jpeg"),
        (status = 401, description = "unauthenticated", body = ErrorBody),
        (status = 404, description = "not-found: no such receipt of this user's (another account's is not found either)", body = ErrorBody),
    ))]
pub async fn get_receipt(
    State(state): State<AppState>,
    current: CurrentUser,
    path: Result<Path<String>, PathRejection>,
) -> ApiResult<Response> {
    let id = receipt_id(path)?;
    // The key holds the user's id: only their own photo can be found.
    let key = ReceiptKey {
        user_id: current.user.id,
        id,
    };
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
    state.store.delete_receipt(user_id, id).await?;
    state
        .files
        .store
        .delete(&ReceiptKey { user_id, id })
        .await?;
    Ok(StatusCode::NO_CONTENT)
}
