//! Sign-in with an OpenID Connect provider (Google or any issuer) in a popup window:
//! authorization code + PKCE + state + nonce, users keyed by (issuer, subject).

mod handlers;
mod page;
pub mod provider;

use axum::http::{HeaderValue, StatusCode};
use utoipa_axum::{router::OpenApiRouter, routes};

pub use self::provider::Provider;
use crate::{AppState, error::AppError};

/// How long a popup has between `/start` and `/callback`.
const REQUEST_TTL_MS: i64 = 10 * 60 * 1000;

/// The popup must keep its `window.opener` across the provider's pages: a stricter policy on
/// our pages in the popup would move it to a new browsing context group and cut that link.
/// (The opener itself keeps `same-origin-allow-popups`.)
pub const POPUP_COOP: &str = "unsafe-none";

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(handlers::start_oidc))
        .routes(routes!(handlers::finish_oidc))
}

/// Why a sign-in in the popup did not complete; the popup reports the code to the opener.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OidcFailure {
    /// Unknown, reused or expired `state`, or not this browser's sign-in.
    InvalidState,
    /// The provider answered with an error (e.g. the person cancelled).
    ProviderError,
    TokenExchange,
    InvalidToken,
    ProviderUnavailable,
    /// The identity already belongs to another account: never merged.
    IdentityInUse,
    /// Linking needs the guest who started it to still be signed in.
    LinkNotAllowed,
    /// No account has this identity yet and the server takes no new accounts.
    SignupsClosed,
    Internal,
}

impl OidcFailure {
    pub fn code(self) -> &'static str {
        match self {
            OidcFailure::InvalidState => "invalid-state",
            OidcFailure::ProviderError => "provider-error",
            OidcFailure::TokenExchange => "token-exchange-failed",
            OidcFailure::InvalidToken => "invalid-token",
            OidcFailure::ProviderUnavailable => "provider-unavailable",
            OidcFailure::IdentityInUse => "identity-in-use",
            OidcFailure::LinkNotAllowed => "link-not-allowed",
            OidcFailure::SignupsClosed => "signups-closed",
            OidcFailure::Internal => "internal",
        }
    }

    pub fn message(self, label: &str) -> String {
        match self {
            OidcFailure::IdentityInUse => {
                format!("This {label} account is already linked to another account")
            }
            OidcFailure::LinkNotAllowed => {
                format!("Only a guest account that is signed in can link a {label} account")
            }
            OidcFailure::SignupsClosed => format!(
                "This server is not taking new accounts: no account is linked to this {label} \
                 account"
            ),
            _ => format!("Failed to login with {label}"),
        }
    }
}

impl From<crate::store::StoreError> for OidcFailure {
    fn from(err: crate::store::StoreError) -> OidcFailure {
        tracing::error!(error = %err, "store failed during OpenID sign-in");
        OidcFailure::Internal
    }
}

impl From<AppError> for OidcFailure {
    fn from(err: AppError) -> OidcFailure {
        tracing::error!(error = ?err, "OpenID sign-in failed");
        OidcFailure::Internal
    }
}

fn disabled() -> AppError {
    AppError::client(
        StatusCode::NOT_FOUND,
        "oidc-disabled",
        "Sign-in with an OpenID provider is not configured on this server",
    )
}

/// A short-lived cookie that ties a callback to the browser that started the sign-in, so
/// nobody can complete their own sign-in in someone else's browser (login CSRF).
fn binding_cookie_name(secure: bool) -> &'static str {
    if secure { "__Host-oidc" } else { "oidc" }
}

fn binding_cookie(secure: bool, value: &str, max_age_secs: i64) -> HeaderValue {
    let flag = if secure { "; Secure" } else { "" };
    HeaderValue::from_str(&format!(
        "{}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age_secs}{flag}",
        binding_cookie_name(secure)
    ))
    .expect("cookie is ASCII")
}
