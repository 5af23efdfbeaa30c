//! Exactly-once push, paged pull and poke events: the server half of offline-first sync.

mod handlers;
pub mod mutations;
pub mod stream_check;

use utoipa_axum::{router::OpenApiRouter, routes};

use crate::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(handlers::push_changes))
        .routes(routes!(handlers::pull_changes))
        .routes(routes!(handlers::stream_events))
}
