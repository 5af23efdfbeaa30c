//! Accounts and sessions: e-mail/password, anonymous guests, session cookies.

mod handlers;
pub mod password;
pub mod rate_limit;
pub mod session;
pub mod types;

use utoipa_axum::{router::OpenApiRouter, routes};

use crate::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(handlers::create_account))
        .routes(routes!(handlers::create_session))
        .routes(routes!(handlers::create_guest))
        .routes(routes!(handlers::delete_session))
        .routes(routes!(handlers::get_session))
}
