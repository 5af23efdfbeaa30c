//! A signed-in user's own account security: their sessions (see, end one, end all others),
//! changing their password, and a guest adding an e-mail and password in place.

use axum::{
    Json,
    extract::{Path, State},
    http::{HeaderMap, StatusCode, header},
    response::{IntoResponse, Response},
};
use domain::{
    Email,
    device::describe_device,
    time_fmt::{now_ms, rfc3339_from_ms},
};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use super::{
    handlers::{account_error, check_new_password, required},
    session::{CurrentUser, SignedInForPasswordChange, rotate_session, user_agent},
    types::{AuthResponse, UserView},
};
use crate::{
    AppState,
    error::{ApiJson, ApiResult, AppError, ErrorBody},
    http::client_ip::ClientIp,
    store::{StoreError, UserRecord},
};

/// What the API calls a session: derived from the stored token hash, so neither the token nor
/// the lookup key leaves the server.
fn public_id(token_hash: &str) -> String {
    let digest = Sha256::digest(format!("session-id:{token_hash}").as_bytes());
    hex::encode(&digest[..16])
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionView {
    pub id: String,
    /// e.g. "Chrome on Android".
    pub device: String,
    pub created_at: String,
    pub last_seen_at: String,
    /// The session making this request.
    pub current: bool,
}

#[derive(Serialize, ToSchema)]
pub struct SessionsResponse {
    pub sessions: Vec<SessionView>,
}

#[utoipa::path(get, path = "/sessions", tag = "auth",
    responses(
        (status = 200, description = "The user's sessions, most recently used first", body = SessionsResponse),
        (status = 401, description = "unauthenticated", body = ErrorBody),
    ))]
pub async fn list_sessions(
    State(state): State<AppState>,
    current: CurrentUser,
) -> ApiResult<Json<SessionsResponse>> {
    let sessions = state.store.list_sessions(current.user.id).await?;
    Ok(Json(SessionsResponse {
        sessions: sessions
            .iter()
            .map(|s| SessionView {
                id: public_id(&s.token_hash),
                device: describe_device(s.user_agent.as_deref()),
                created_at: rfc3339_from_ms(s.created_at_ms),
                last_seen_at: rfc3339_from_ms(s.last_seen_ms),
                current: s.token_hash == current.session_token_hash,
            })
            .collect(),
    }))
}

#[utoipa::path(delete, path = "/sessions/{id}", tag = "auth",
    params(("id" = String, Path, description = "A session id from GET /sessions")),
    responses(
        (status = 204, description = "Session ended; its device is signed out and its event stream closed"),
        (status = 401, description = "unauthenticated", body = ErrorBody),
        (status = 404, description = "session-not-found: no such session of this user", body = ErrorBody),
    ))]
pub async fn end_session(
    State(state): State<AppState>,
    current: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let sessions = state.store.list_sessions(current.user.id).await?;
    let Some(target) = sessions
        .into_iter()
        .find(|s| public_id(&s.token_hash) == id)
    else {
        return Err(AppError::client(
            StatusCode::NOT_FOUND,
            "session-not-found",
            "That session has already ended",
        ));
    };
    state
        .store
        .delete_user_session(current.user.id, &target.token_hash)
        .await?;
    let ended_own = target.token_hash == current.session_token_hash;
    state.notifier.session_ended(target.token_hash);
    tracing::info!(user_id = %current.user.id, "session ended by its user");
    if ended_own {
        return Ok((
            StatusCode::NO_CONTENT,
            [(header::SET_COOKIE, state.sessions.clear_cookie())],
        )
            .into_response());
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}

#[derive(Serialize, ToSchema)]
pub struct EndedSessions {
    pub ended: u64,
}

#[utoipa::path(post, path = "/sessions/end-others", tag = "auth",
    responses(
        (status = 200, description = "Every other session ended", body = EndedSessions),
        (status = 401, description = "unauthenticated", body = ErrorBody),
    ))]
pub async fn end_other_sessions(
    State(state): State<AppState>,
    current: CurrentUser,
) -> ApiResult<Json<EndedSessions>> {
    let ended = end_others(&state, &current).await?;
    Ok(Json(EndedSessions { ended }))
}

/// Ends every session but the caller's, closing their event streams.
async fn end_others(state: &AppState, current: &CurrentUser) -> ApiResult<u64> {
    let ended = state
        .store
        .delete_other_sessions(current.user.id, &current.session_token_hash)
        .await?;
    let count = ended.len() as u64;
    for token_hash in ended {
        state.notifier.session_ended(token_hash);
    }
    Ok(count)
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChangePasswordRequest {
    pub current_password: Option<String>,
    pub new_password: Option<String>,
    /// Also sign out every other device.
    #[serde(default)]
    pub end_other_sessions: bool,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PasswordChanged {
    pub ended_sessions: u64,
}

#[utoipa::path(post, path = "/password", tag = "auth", request_body = ChangePasswordRequest,
    responses(
        (status = 200, description = "Password changed; this session gets a new token. Also the way out of a temporary password (`mustChangePassword`): the only write it allows, and a session signed in with that password (`signedInWithTemporaryPassword`) need not send `currentPassword`", body = PasswordChanged),
        (status = 401, description = "unauthenticated", body = ErrorBody),
        (status = 403, description = "wrong-password: the current password is not right", body = ErrorBody),
        (status = 409, description = "no-password: the account signs in another way (add a password first)", body = ErrorBody),
        (status = 422, description = "weak-password or validation", body = ErrorBody),
        (status = 429, description = "rate-limited", body = ErrorBody),
    ))]
pub async fn change_password(
    State(state): State<AppState>,
    client: ClientIp,
    headers: HeaderMap,
    SignedInForPasswordChange(current): SignedInForPasswordChange,
    ApiJson(body): ApiJson<ChangePasswordRequest>,
) -> ApiResult<Response> {
    state.limits.check_ip(client.key())?;
    // Per account too (keyed like the per-e-mail login limit): a stolen session cannot try
    // current passwords from many addresses at once.
    state.limits.check_email(&current.user.id.to_string())?;
    // A session that signed in with the temporary password has just proved it: asking for it
    // again only makes the driver copy it twice. Every other session proves the current one.
    let current_password = if current.signed_in_with_temporary_password {
        None
    } else {
        Some(required(
            body.current_password,
            "currentPassword",
            "Current password is required",
        )?)
    };
    let new_password = required(body.new_password, "newPassword", "New password is required")?;
    let Some(stored) = state.store.password_hash(current.user.id).await? else {
        return Err(AppError::client(
            StatusCode::CONFLICT,
            "no-password",
            "This account has no password yet",
        ));
    };
    if let Some(current_password) = current_password
        && !state
            .passwords
            .verify(&current_password, Some(&stored))
            .await?
    {
        return Err(AppError::client(
            StatusCode::FORBIDDEN,
            "wrong-password",
            "Current password is incorrect",
        ));
    }
    check_new_password(&new_password, current.user.email.as_deref(), "newPassword")?;
    let hash = state.passwords.hash(&new_password).await?;
    state
        .store
        .set_password(current.user.id, &hash, false, now_ms())
        .await?;
    state.notifier.user_changed(current.user.id);
    let ended_sessions = if body.end_other_sessions {
        end_others(&state, &current).await?
    } else {
        0
    };
    let cookie = rotate_session(
        &state,
        &current.session_token_hash,
        current.user.id,
        user_agent(&headers),
    )
    .await?;
    tracing::info!(user_id = %current.user.id, ended_sessions, "password changed");
    Ok((
        [(header::SET_COOKIE, cookie)],
        Json(PasswordChanged { ended_sessions }),
    )
        .into_response())
}

#[derive(Deserialize, ToSchema)]
pub struct LinkPasswordRequest {
    pub email: Option<String>,
    pub password: Option<String>,
}

#[utoipa::path(post, path = "/link/password", tag = "auth", request_body = LinkPasswordRequest,
    responses(
        (status = 200, description = "The guest now signs in with this e-mail and password: same account, all data kept; new session token", body = AuthResponse),
        (status = 401, description = "unauthenticated", body = ErrorBody),
        (status = 409, description = "email-already-in-use (another account has it, nothing is merged) or not-a-guest", body = ErrorBody),
        (status = 422, description = "invalid-email, weak-password or validation", body = ErrorBody),
        (status = 429, description = "rate-limited", body = ErrorBody),
    ))]
pub async fn link_password(
    State(state): State<AppState>,
    client: ClientIp,
    headers: HeaderMap,
    current: CurrentUser,
    ApiJson(body): ApiJson<LinkPasswordRequest>,
) -> ApiResult<Response> {
    state.limits.check_ip(client.key())?;
    if !current.user.is_anonymous {
        return Err(not_a_guest());
    }
    let email = required(body.email, "email", "Email is required")?;
    let password = required(body.password, "password", "Password is required")?;
    let email = Email::parse(&email).map_err(account_error)?;
    check_new_password(&password, Some(email.as_str()), "password")?;
    let hash = state.passwords.hash(&password).await?;
    let now = now_ms();
    let cursor = match state
        .store
        .link_password(current.user.id, email.as_str(), &hash, now)
        .await
    {
        Ok(Some(cursor)) => cursor,
        Ok(None) => return Err(not_a_guest()),
        Err(StoreError::Conflict(_)) => {
            return Err(AppError::client(
                StatusCode::CONFLICT,
                "email-already-in-use",
                "This email is already registered",
            ));
        }
        Err(err) => return Err(err.into()),
    };
    state.notifier.user_changed(current.user.id);
    state.notifier.changed(current.user.id, cursor);
    let cookie = rotate_session(
        &state,
        &current.session_token_hash,
        current.user.id,
        user_agent(&headers),
    )
    .await?;
    let user = UserRecord {
        email: Some(email.into_string()),
        is_anonymous: false,
        ..current.user
    };
    tracing::info!(user_id = %user.id, "guest added an e-mail and password");
    let body = AuthResponse {
        user: UserView::new(&user, &state),
        is_new_user: false,
    };
    Ok(([(header::SET_COOKIE, cookie)], Json(body)).into_response())
}

fn not_a_guest() -> AppError {
    AppError::client(
        StatusCode::CONFLICT,
        "not-a-guest",
        "This account already has a sign-in method",
    )
}

#[cfg(test)]
mod tests {
    use super::public_id;

    #[test]
    fn public_ids_are_stable_and_not_the_stored_hash() {
        let hash = "ab".repeat(32);
        assert_eq!(public_id(&hash), public_id(&hash));
        assert_eq!(public_id(&hash).len(), 32);
        assert!(!hash.contains(&public_id(&hash)));
        assert_ne!(public_id(&hash), public_id(&"cd".repeat(32)));
    }
}
