//! Auth endpoints: sign-up, login, guest, logout, current session.

use axum::{
    Json,
    extract::State,
    http::{HeaderMap, StatusCode, header},
    response::{IntoResponse, Response},
};
use axum_extra::extract::CookieJar;
use domain::{AccountError, DisplayName, Email, time_fmt::now_ms, validate_password};
use uuid::Uuid;

use super::{
    session::{CurrentUser, begin_session},
    types::{AuthResponse, LoginRequest, SessionCheck, SignupRequest, UserView},
};
use crate::{
    AppState,
    error::{ApiJson, ApiResult, AppError, ErrorBody, FieldErrors},
    http::client_ip::ClientIp,
    store::{NewUser, StoreError, UserRecord},
};

pub(super) fn account_error(err: AccountError) -> AppError {
    let code = match err {
        AccountError::InvalidEmail => "invalid-email",
        AccountError::PasswordTooShort
        | AccountError::PasswordTooLong
        | AccountError::PasswordTooCommon
        | AccountError::PasswordFromEmail
        | AccountError::PasswordFromAppName => "weak-password",
        AccountError::DisplayNameTooLong | AccountError::DisplayNameUnclean => {
            return AppError::validation("displayName", err.message());
        }
    };
    AppError::client(StatusCode::UNPROCESSABLE_ENTITY, code, err.message())
}

/// Checks a new password for the account with `email` (the one rule, `validate_password`):
/// a refusal is 422 `weak-password` and also a field error on `field`, the request's password
/// field, so a form shows the reason under the field the driver is typing in.
pub(super) fn check_new_password(
    password: &str,
    email: Option<&str>,
    field: &str,
) -> ApiResult<()> {
    validate_password(password, email).map_err(|err| AppError::Client {
        status: StatusCode::UNPROCESSABLE_ENTITY,
        code: "weak-password",
        message: err.message().to_owned(),
        fields: Some(FieldErrors::from([(
            field.to_owned(),
            vec![err.message().to_owned()],
        )])),
    })
}

pub(super) fn required(value: Option<String>, field: &str, message: &str) -> ApiResult<String> {
    value
        .filter(|v| !v.is_empty())
        .ok_or_else(|| AppError::validation(field, message))
}

/// Answers with the user and a fresh session cookie. `with_password`: the sign-in proved the
/// account's password, which is temporary when the user must change it.
pub(super) async fn signed_in(
    state: &AppState,
    headers: &HeaderMap,
    user: &UserRecord,
    status: StatusCode,
    is_new_user: bool,
    with_password: bool,
) -> ApiResult<Response> {
    let temporary_password = with_password && user.must_change_password;
    let cookie = begin_session(state, headers, user.id, temporary_password).await?;
    let body = AuthResponse {
        user: UserView::for_session(user, state, temporary_password),
        is_new_user,
    };
    Ok((status, [(header::SET_COOKIE, cookie)], Json(body)).into_response())
}

#[utoipa::path(post, path = "/signup", tag = "auth", request_body = SignupRequest,
    responses(
        (status = 201, description = "Account created and signed in", body = AuthResponse),
        (status = 403, description = "signups-closed: the server takes no new accounts (SIGNUPS_OPEN=false)", body = ErrorBody),
        (status = 409, description = "email-already-in-use", body = ErrorBody),
        (status = 422, description = "invalid-email, weak-password or validation", body = ErrorBody),
        (status = 429, description = "rate-limited", body = ErrorBody),
    ))]
pub async fn create_account(
    State(state): State<AppState>,
    client: ClientIp,
    headers: HeaderMap,
    ApiJson(body): ApiJson<SignupRequest>,
) -> ApiResult<Response> {
    super::signups::check_signups_open(&state)?;
    state.limits.check_ip(client.key())?;
    let email = required(body.email, "email", "Email is required")?;
    let password = required(body.password, "password", "Password is required")?;
    let email = Email::parse(&email).map_err(account_error)?;
    check_new_password(&password, Some(email.as_str()), "password")?;
    let display_name =
        DisplayName::parse_optional(body.display_name.as_deref()).map_err(account_error)?;

    let password_hash = state.passwords.hash(&password).await?;
    let created = state
        .store
        .create_user(NewUser {
            id: Uuid::now_v7(),
            email: Some(email.into_string()),
            display_name,
            password_hash: Some(password_hash),
            is_anonymous: false,
            now_ms: now_ms(),
        })
        .await;
    let user = match created {
        Ok(user) => user,
        Err(StoreError::Conflict(_)) => {
            return Err(AppError::client(
                StatusCode::CONFLICT,
                "email-already-in-use",
                "This email is already registered",
            ));
        }
        Err(err) => return Err(err.into()),
    };
    tracing::info!(user_id = %user.id, "account created");
    signed_in(&state, &headers, &user, StatusCode::CREATED, true, true).await
}

#[utoipa::path(post, path = "/login", tag = "auth", request_body = LoginRequest,
    responses(
        (status = 200, description = "Signed in", body = AuthResponse),
        (status = 401, description = "invalid-credentials (unknown e-mail and wrong password alike)", body = ErrorBody),
        (status = 422, description = "invalid-email or validation", body = ErrorBody),
        (status = 429, description = "rate-limited", body = ErrorBody),
    ))]
pub async fn create_session(
    State(state): State<AppState>,
    client: ClientIp,
    headers: HeaderMap,
    ApiJson(body): ApiJson<LoginRequest>,
) -> ApiResult<Response> {
    state.limits.check_ip(client.key())?;
    let email = required(body.email, "email", "Email is required")?;
    let password = required(body.password, "password", "Password is required")?;
    let email = Email::parse(&email).map_err(account_error)?;
    state.limits.check_email(email.as_str())?;

    let login = state.store.find_password_login(email.as_str()).await?;
    let stored_hash = login.as_ref().map(|(_, hash)| hash.as_str());
    let valid = state.passwords.verify(&password, stored_hash).await?;
    let Some((user, _)) = login.filter(|_| valid) else {
        return Err(AppError::client(
            StatusCode::UNAUTHORIZED,
            "invalid-credentials",
            "Invalid email or password",
        ));
    };
    let now = now_ms();
    state.store.record_login(user.id, now).await?;
    state.notifier.user_changed(user.id);
    let user = UserRecord {
        last_login_ms: now,
        ..user
    };
    signed_in(&state, &headers, &user, StatusCode::OK, false, true).await
}

#[utoipa::path(post, path = "/guest", tag = "auth",
    responses(
        (status = 201, description = "Anonymous account created and signed in", body = AuthResponse),
        (status = 403, description = "guests-disabled: guest accounts are turned off (GUESTS_ENABLED=false)", body = ErrorBody),
        (status = 429, description = "rate-limited", body = ErrorBody),
    ))]
pub async fn create_guest(
    State(state): State<AppState>,
    client: ClientIp,
    headers: HeaderMap,
) -> ApiResult<Response> {
    super::signups::check_guests_enabled(&state)?;
    state.limits.check_ip(client.key())?;
    state.quotas.check_guest(client.key())?;
    let user = state
        .store
        .create_user(NewUser {
            id: Uuid::now_v7(),
            email: None,
            display_name: None,
            password_hash: None,
            is_anonymous: true,
            now_ms: now_ms(),
        })
        .await?;
    tracing::info!(user_id = %user.id, "guest account created");
    signed_in(&state, &headers, &user, StatusCode::CREATED, true, false).await
}

#[utoipa::path(post, path = "/logout", tag = "auth",
    responses((status = 204, description = "Session ended and cookie cleared")))]
pub async fn delete_session(State(state): State<AppState>, jar: CookieJar) -> ApiResult<Response> {
    if let Some(token_hash) = state.sessions.end(&jar).await? {
        state.notifier.session_ended(token_hash);
    }
    Ok((
        StatusCode::NO_CONTENT,
        [(header::SET_COOKIE, state.sessions.clear_cookie())],
    )
        .into_response())
}

#[utoipa::path(get, path = "/session", tag = "auth",
    responses(
        (status = 200, description = "The signed-in user, or `user: null` when signed out", body = SessionCheck),
    ))]
pub async fn get_session(
    State(state): State<AppState>,
    current: Option<CurrentUser>,
) -> Json<SessionCheck> {
    Json(SessionCheck {
        user: current.map(|current| {
            UserView::for_session(
                &current.user,
                &state,
                current.signed_in_with_temporary_password,
            )
        }),
    })
}
