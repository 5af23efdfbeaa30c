//! Profile pictures and receipt photos: streamed upload with the size limit enforced while
//! reading, checked and re-encoded off the async runtime, stored under a server-made key and
//! served to their owner only (DESIGN.md §6). Both go through one pipeline (`upload.rs`); they
//! differ in where they are kept (`handlers.rs`, `receipts.rs`) and in their longest side.

mod handlers;
pub mod picture;
mod receipts;
pub mod storage;
mod upload;

use std::sync::{
    Arc,
    atomic::{AtomicI64, Ordering},
};

use axum::extract::DefaultBodyLimit;
use bytes::Bytes;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use utoipa_axum::{router::OpenApiRouter, routes};
use uuid::Uuid;

use crate::{
    AppState,
    auth::rate_limit::Limiter,
    config::{Config, UploadsConfig},
    error::AppError,
};
pub use picture::PictureError;
pub use storage::{FileKey, FileStore, PictureKey, ReceiptKey};

/// The upload routes' body limit: the picture plus multipart boundaries and part headers.
/// The picture's own limit is enforced while its part streams in.
pub const UPLOAD_BODY_LIMIT: usize = picture::MAX_UPLOAD_BYTES + 64 * 1024;

/// The file store plus the upload limits (DESIGN.md §6b): a per-user rate, a bound on upload
/// bodies in flight (each up to 2 MiB in memory) and a memory budget shared by all decodes.
#[derive(Clone)]
pub struct Files {
    pub store: FileStore,
    per_user: Arc<Limiter<Uuid>>,
    in_flight: Arc<Semaphore>,
    /// One permit per MiB that decodes hold at their peak.
    decode_budget: Arc<Semaphore>,
    budget_mb: u32,
    /// The last key timestamp handed out: keys stay unique within this process even for
    /// uploads in the same millisecond.
    last_key_ms: Arc<AtomicI64>,
}

/// An upload's place among those in flight; dropping it lets the next one in.
pub struct UploadSlot(OwnedSemaphorePermit);

impl UploadSlot {
    /// Ends the upload's hold early (its body is no longer in memory).
    pub fn release(self) {
        drop(self.0);
    }
}

impl Files {
    pub fn from_config(config: &Config) -> anyhow::Result<Files> {
        let limits: &UploadsConfig = &config.uploads;
        Ok(Files {
            store: FileStore::from_config(config)?,
            per_user: Arc::new(Limiter::per_minute(limits.uploads_per_user_per_minute)),
            in_flight: Arc::new(Semaphore::new(limits.uploads_in_flight as usize)),
            decode_budget: Arc::new(Semaphore::new(limits.decode_budget_mb as usize)),
            budget_mb: limits.decode_budget_mb,
            last_key_ms: Arc::new(AtomicI64::new(0)),
        })
    }

    /// Admits an upload from `user_id` before its body is read: refused with 429 past the
    /// user's rate, and with 503 at once (rather than queued) when the in-flight bound is full.
    pub fn admit(&self, user_id: Uuid) -> Result<UploadSlot, AppError> {
        self.per_user.check(user_id)?;
        self.in_flight
            .clone()
            .try_acquire_owned()
            .map(UploadSlot)
            .map_err(|_| AppError::Busy {
                retry_after_secs: 1,
            })
    }

    /// A key for a new picture of `user_id`, never equal to `previous` nor to any key this
    /// process handed out before.
    pub fn next_key(&self, user_id: Uuid, now_ms: i64, previous: Option<PictureKey>) -> PictureKey {
        let key = PictureKey::next(user_id, now_ms, previous);
        let last = self
            .last_key_ms
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |last| {
                Some(key.timestamp_ms.max(last + 1))
            })
            .expect("the update always returns a value");
        PictureKey {
            timestamp_ms: key.timestamp_ms.max(last + 1),
            ..key
        }
    }

    /// Checks the header, waits until what the decode needs at its peak
    /// ([`picture::Header::peak_bytes`]) fits the shared decode budget, then runs
    /// [`picture::reencode`] (to at most `max_side` px) on a blocking thread. A picture that
    /// needs more than the whole budget is refused. The body is freed when this returns. A
    /// decoder panic is bad input too: it is logged and refused like any undecodable file.
    pub async fn reencode(&self, bytes: Bytes, max_side: u32) -> Result<Vec<u8>, PictureError> {
        let header = {
            let bytes = bytes.clone();
            tokio::task::spawn_blocking(move || picture::inspect(&bytes))
                .await
                .unwrap_or(Err(PictureError::NotAnImage))?
        };
        let mebibytes = header.peak_bytes(max_side).div_ceil(1 << 20).max(1);
        if mebibytes > u64::from(self.budget_mb) {
            return Err(PictureError::OverBudget);
        }
        let permits = self
            .decode_budget
            .clone()
            .acquire_many_owned(u32::try_from(mebibytes).unwrap_or(self.budget_mb))
            .await
            .expect("the semaphore is never closed");
        let outcome = tokio::task::spawn_blocking(move || {
            let _permits = permits;
            picture::reencode(&bytes, max_side)
        })
        .await;
        outcome.unwrap_or_else(|err| {
            tracing::warn!(error = %err, "image decoder failed on an upload");
            Err(PictureError::NotAnImage)
        })
    }
}

pub fn router() -> OpenApiRouter<AppState> {
    // The receipts' GET and DELETE carry no body; one path keeps one router.
    let upload = OpenApiRouter::new()
        .routes(routes!(handlers::upload_photo))
        .routes(routes!(
            receipts::upload_receipt,
            receipts::get_receipt,
            receipts::delete_receipt
        ))
        .layer(DefaultBodyLimit::max(UPLOAD_BODY_LIMIT));
    OpenApiRouter::new()
        .merge(upload)
        .routes(routes!(handlers::get_file))
}
