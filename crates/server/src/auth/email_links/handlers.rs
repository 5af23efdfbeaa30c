//! The routes of e-mailed links: ask for a reset link, look at a link before using it, set a
//! new password with a reset link, create an account with an invitation.

use axum::{
    Json,
    extract::State,
    http::{HeaderMap, StatusCode},
    response::Response,
};
use domain::{DisplayName, Email, time_fmt::rfc3339_from_ms};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::reset_queue::Worker;
use crate::{
    AppState,
    auth::{
        handlers::{account_error, check_new_password, required, signed_in},
        session::hash_token,
        types::AuthResponse,
    },
    error::{ApiJson, ApiResult, AppError, ErrorBody},
    http::client_ip::ClientIp,
    store::{InviteUse, LinkPurpose, NewUser},
};

#[derive(Deserialize, ToSchema)]
pub struct ForgotPasswordRequest {
    pub email: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct ResetRequested {
    /// Always true: the answer is the same whether or not the address has an account.
    pub accepted: bool,
}

#[utoipa::path(post, path = "/password/forgot", tag = "auth", request_body = ForgotPasswordRequest,
    responses(
        (status = 202, description = "Taken. If the address has an account, a link to choose a new password is e-mailed to it (it works once, within an hour). The same answer, in the same time, for an address without one", body = ResetRequested),
        (status = 403, description = "password-reset-off: this server cannot e-mail links (no SMTP_URL or no PUBLIC_URL); the operator resets passwords (`delivery-tracker users reset-password`)", body = ErrorBody),
        (status = 422, description = "invalid-email or validation", body = ErrorBody),
        (status = 429, description = "rate-limited: too many requests from this client or for this address (PASSWORD_RESET_PER_CLIENT_PER_HOUR, PASSWORD_RESET_PER_ADDRESS_PER_HOUR)", body = ErrorBody),
        (status = 503, description = "busy: too many requests waiting", body = ErrorBody),
    ))]
pub async fn request_password_reset(
    State(state): State<AppState>,
    client: ClientIp,
    ApiJson(body): ApiJson<ForgotPasswordRequest>,
) -> ApiResult<(StatusCode, Json<ResetRequested>)> {
    let links = &state.email_links;
    let Some(mail) = &links.mail else {
        return Err(AppError::client(
            StatusCode::FORBIDDEN,
            "password-reset-off",
            "This server cannot e-mail reset links. Ask its operator to reset your password",
        ));
    };
    state.limits.check_ip(client.key())?;
    let email = required(body.email, "email", "Email is required")?;
    let email = Email::parse(&email).map_err(account_error)?;
    // Per address first: a request refused for its address costs the client nothing.
    links.per_address.check(email.as_str().to_owned())?;
    links.per_client.check(client.key())?;
    // Whether the address has an account is looked up after this answer, by the queue's worker.
    let queued = links.queue.push(email, || Worker {
        store: state.store.clone(),
        mail: mail.clone(),
        clock: links.clock.clone(),
    });
    if !queued {
        return Err(AppError::Busy {
            retry_after_secs: 60,
        });
    }
    Ok((
        StatusCode::ACCEPTED,
        Json(ResetRequested { accepted: true }),
    ))
}

#[derive(Deserialize, ToSchema)]
pub struct LinkRequest {
    /// The token from the link (after its `#`).
    pub token: Option<String>,
}

#[derive(Serialize, ToSchema, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum LinkKind {
    PasswordReset,
    Invite,
}

impl From<LinkPurpose> for LinkKind {
    fn from(purpose: LinkPurpose) -> Self {
        match purpose {
            LinkPurpose::PasswordReset => LinkKind::PasswordReset,
            LinkPurpose::Invite => LinkKind::Invite,
        }
    }
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LinkView {
    pub kind: LinkKind,
    /// The account's address (a reset) or the address invited (the new account's, fixed).
    pub email: String,
    pub expires_at: String,
}

#[utoipa::path(post, path = "/links/check", tag = "auth", request_body = LinkRequest,
    responses(
        (status = 200, description = "The link works: what it is for and the address it was sent to. Nothing is used up", body = LinkView),
        (status = 410, description = "link-expired: no such link, or it expired or was used", body = ErrorBody),
        (status = 422, description = "validation", body = ErrorBody),
        (status = 429, description = "rate-limited", body = ErrorBody),
    ))]
pub async fn check_link(
    State(state): State<AppState>,
    client: ClientIp,
    ApiJson(body): ApiJson<LinkRequest>,
) -> ApiResult<Json<LinkView>> {
    state.limits.check_ip(client.key())?;
    let token = required(body.token, "token", "The link has no token")?;
    let now = state.email_links.clock.now_ms();
    let link = state
        .store
        .find_email_link(&hash_token(&token), now)
        .await?
        .ok_or_else(link_expired)?;
    Ok(Json(LinkView {
        kind: link.purpose.into(),
        email: link.email,
        expires_at: rfc3339_from_ms(link.expires_at_ms),
    }))
}

fn link_expired() -> AppError {
    AppError::client(
        StatusCode::GONE,
        "link-expired",
        "This link has expired or has already been used",
    )
}

#[derive(Deserialize, ToSchema)]
pub struct ResetPasswordRequest {
    pub token: Option<String>,
    pub password: Option<String>,
}

#[utoipa::path(post, path = "/password/reset", tag = "auth", request_body = ResetPasswordRequest,
    responses(
        (status = 200, description = "The new password is set and this browser signed in; every other session of the account ended, and every other reset link for it stopped working", body = AuthResponse),
        (status = 410, description = "link-expired: no such reset link, or it expired or was used", body = ErrorBody),
        (status = 422, description = "weak-password (also as a field error on `password`) or validation", body = ErrorBody),
        (status = 429, description = "rate-limited", body = ErrorBody),
    ))]
pub async fn reset_password(
    State(state): State<AppState>,
    client: ClientIp,
    headers: HeaderMap,
    ApiJson(body): ApiJson<ResetPasswordRequest>,
) -> ApiResult<Response> {
    state.limits.check_ip(client.key())?;
    let token = required(body.token, "token", "The link has no token")?;
    let password = required(body.password, "password", "Password is required")?;
    let token_hash = hash_token(&token);
    let link = state
        .store
        .find_email_link(&token_hash, state.email_links.clock.now_ms())
        .await?
        .filter(|link| link.purpose == LinkPurpose::PasswordReset)
        .ok_or_else(link_expired)?;
    check_new_password(&password, Some(&link.email), "password")?;
    let hash = state.passwords.hash(&password).await?;
    // The clock is read again: hashing takes a while, and the link must still be live now.
    let now = state.email_links.clock.now_ms();
    let reset = state
        .store
        .reset_password_with_link(&token_hash, &hash, now)
        .await?
        .ok_or_else(link_expired)?;
    for token_hash in reset.ended_sessions {
        state.notifier.session_ended(token_hash);
    }
    state.notifier.user_changed(reset.user.id);
    state.store.record_login(reset.user.id, now).await?;
    tracing::info!(user_id = %reset.user.id, "password reset with an e-mailed link");
    signed_in(&state, &headers, &reset.user, StatusCode::OK, false, false).await
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AcceptInviteRequest {
    pub token: Option<String>,
    pub password: Option<String>,
    pub display_name: Option<String>,
}

#[utoipa::path(post, path = "/invite/accept", tag = "auth", request_body = AcceptInviteRequest,
    responses(
        (status = 201, description = "The account is created for the invited address and signed in. Works while sign-ups are closed (SIGNUPS_OPEN=false): the operator invited this address", body = AuthResponse),
        (status = 409, description = "email-already-in-use: the address has an account by now (the invitation stands)", body = ErrorBody),
        (status = 410, description = "link-expired: no such invitation, or it expired or was used", body = ErrorBody),
        (status = 422, description = "weak-password (also as a field error on `password`) or validation", body = ErrorBody),
        (status = 429, description = "rate-limited", body = ErrorBody),
    ))]
pub async fn accept_invite(
    State(state): State<AppState>,
    client: ClientIp,
    headers: HeaderMap,
    ApiJson(body): ApiJson<AcceptInviteRequest>,
) -> ApiResult<Response> {
    state.limits.check_ip(client.key())?;
    let token = required(body.token, "token", "The link has no token")?;
    let password = required(body.password, "password", "Password is required")?;
    let display_name =
        DisplayName::parse_optional(body.display_name.as_deref()).map_err(account_error)?;
    let token_hash = hash_token(&token);
    let link = state
        .store
        .find_email_link(&token_hash, state.email_links.clock.now_ms())
        .await?
        .filter(|link| link.purpose == LinkPurpose::Invite)
        .ok_or_else(link_expired)?;
    check_new_password(&password, Some(&link.email), "password")?;
    let password_hash = state.passwords.hash(&password).await?;
    let used = state
        .store
        .sign_up_with_invite(
            &token_hash,
            NewUser {
                id: Uuid::now_v7(),
                email: None,
                display_name,
                password_hash: Some(password_hash),
                is_anonymous: false,
                now_ms: state.email_links.clock.now_ms(),
            },
        )
        .await?;
    let user = match used {
        InviteUse::Created(user) => user,
        InviteUse::Gone => return Err(link_expired()),
        InviteUse::EmailTaken => {
            return Err(AppError::client(
                StatusCode::CONFLICT,
                "email-already-in-use",
                "This email is already registered",
            ));
        }
    };
    tracing::info!(user_id = %user.id, "account created with an invitation");
    signed_in(&state, &headers, &user, StatusCode::CREATED, true, false).await
}
