//! The operator's switches on who may create an account (SIGNUPS_OPEN, GUESTS_ENABLED), as
//! every path that creates one checks them: e-mail sign-up, phone and OpenID first sign-in,
//! guests, and a guest adding a sign-in (which turns it into an account). With guests off,
//! guests made before are signed out too.

use axum::http::StatusCode;

use crate::{AppState, error::AppError};

/// Refuses a new (non-guest) account when sign-ups are closed.
pub fn check_signups_open(state: &AppState) -> Result<(), AppError> {
    if state.config.signups.signups_open {
        return Ok(());
    }
    Err(AppError::client(
        StatusCode::FORBIDDEN,
        "signups-closed",
        "This server is not taking new accounts. Ask its operator for one",
    ))
}

/// Refuses a guest's session while guests are turned off: 401, so the device shows the
/// sign-in page, with words saying why.
pub fn guest_signed_out() -> AppError {
    AppError::client(
        StatusCode::UNAUTHORIZED,
        "guests-disabled",
        "Guest accounts are turned off on this server. Sign up or sign in",
    )
}

/// Refuses a new guest when guests are turned off.
pub fn check_guests_enabled(state: &AppState) -> Result<(), AppError> {
    if state.config.signups.guests_enabled {
        return Ok(());
    }
    Err(AppError::client(
        StatusCode::FORBIDDEN,
        "guests-disabled",
        "Guest accounts are turned off on this server. Sign up or sign in",
    ))
}
