//! Accounts and sessions: e-mail/password, phone, OpenID providers, anonymous guests, session
//! cookies, and a user's own account security (sessions list, password change, a guest adding a
//! password), and links e-mailed to reset a password or accept an invitation.

mod account;
pub mod clock;
pub mod email_links;
mod handlers;
pub mod oidc;
pub mod password;
pub mod phone;
pub mod providers;
pub mod rate_limit;
pub mod session;
pub mod session_cache;
pub mod signups;
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
        .routes(routes!(account::list_sessions))
        .routes(routes!(account::end_session))
        .routes(routes!(account::end_other_sessions))
        .routes(routes!(account::change_password))
        .routes(routes!(account::link_password))
        .routes(routes!(providers::get_providers))
        .merge(email_links::router())
        .merge(phone::router())
        .merge(oidc::router())
}
