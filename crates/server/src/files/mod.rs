//! Profile pictures: streamed upload with the size limit enforced while reading, checked and
//! re-encoded off the async runtime, stored under a generated key and served to their owner
//! only (DESIGN.md §6).

mod handlers;
pub mod picture;
pub mod storage;

use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use tokio::sync::Semaphore;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::{AppState, config::Config};
pub use picture::PictureError;
pub use storage::{FileStore, PictureKey};

/// The upload route's body limit: the picture plus multipart boundaries and part headers.
/// The picture's own limit is enforced while its part streams in.
pub const UPLOAD_BODY_LIMIT: usize = picture::MAX_UPLOAD_BYTES + 64 * 1024;

/// The file store plus a bound on concurrent decodes (each may need up to ~200 MB).
#[derive(Clone)]
pub struct Files {
    pub store: FileStore,
    decode_slots: Arc<Semaphore>,
}

impl Files {
    pub fn from_config(config: &Config) -> anyhow::Result<Files> {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Ok(Files {
            store: FileStore::from_config(config)?,
            decode_slots: Arc::new(Semaphore::new(cores)),
        })
    }

    /// [`picture::reencode`] on a blocking thread, at most one picture per core at a time.
    /// A decoder panic is bad input too: it is logged and refused like any undecodable file.
    pub async fn reencode(&self, bytes: Vec<u8>) -> Result<Vec<u8>, PictureError> {
        let slot = self
            .decode_slots
            .clone()
            .acquire_owned()
            .await
            .expect("the semaphore is never closed");
        let outcome = tokio::task::spawn_blocking(move || {
            let _slot = slot;
            picture::reencode(&bytes)
        })
        .await;
        outcome.unwrap_or_else(|err| {
            tracing::warn!(error = %err, "image decoder failed on an upload");
            Err(PictureError::NotAnImage)
        })
    }
}

pub fn router() -> OpenApiRouter<AppState> {
    let upload = OpenApiRouter::new()
        .routes(routes!(handlers::upload_photo))
        .layer(DefaultBodyLimit::max(UPLOAD_BODY_LIMIT));
    OpenApiRouter::new()
        .merge(upload)
        .routes(routes!(handlers::get_file))
}
