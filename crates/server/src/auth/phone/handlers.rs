//! Phone sign-in endpoints: captcha challenge, send a code, verify it.

use axum::{
    Json,
    extract::State,
    http::{HeaderMap, StatusCode, header},
    response::{IntoResponse, Response},
};
use domain::phone::{CaptchaDifficulty, PHONE_FORMAT_MESSAGE, PhoneNumber, SendScope};
use uuid::Uuid;

use super::{
    CODE_ATTEMPTS, PhoneAuth, captcha, code,
    types::{CaptchaChallenge, SendCodeRequest, SendCodeResponse, VerifyCodeRequest},
};
use crate::{
    AppState,
    auth::{
        session::{CurrentUser, begin_session, rotate_session, user_agent},
        types::{AuthResponse, UserView},
    },
    error::{ApiJson, ApiResult, AppError, ErrorBody},
    http::client_ip::ClientIp,
    store::{
        NewUser,
        phone::{PhoneCodeStart, PhoneSignIn, PhoneSignInRequest},
    },
};

fn phone_auth(state: &AppState) -> ApiResult<&PhoneAuth> {
    state.phone.as_ref().ok_or_else(super::disabled)
}

fn captcha_failed() -> AppError {
    AppError::client(
        StatusCode::BAD_REQUEST,
        "captcha-failed",
        "The security check failed. Please try again.",
    )
}

/// Unknown, expired, exhausted and used codes get one answer: ask for a new one.
fn code_expired() -> AppError {
    AppError::client(
        StatusCode::BAD_REQUEST,
        "code-expired",
        "This code has expired or was tried too many times. Please request a new code.",
    )
}

fn wrong_code() -> AppError {
    AppError::client(
        StatusCode::BAD_REQUEST,
        "invalid-verification-code",
        "The verification code is incorrect",
    )
}

#[utoipa::path(get, path = "/phone/challenge", tag = "auth",
    responses(
        (status = 200, description = "A proof-of-work challenge to solve before asking for a code; its maxnumber rises with the sends of the last minute, overall and from the client's prefix", body = CaptchaChallenge),
        (status = 404, description = "phone-disabled", body = ErrorBody),
    ))]
pub async fn get_challenge(State(state): State<AppState>, client: ClientIp) -> ApiResult<Response> {
    let phone = phone_auth(&state)?;
    let key = phone.captcha_key(&state.store).await?;
    let now = phone.clock.now_ms();
    let max_number = phone
        .captcha_max_number(&state.store, client.key(), now)
        .await?;
    let challenge = captcha::create(key, max_number, now)?;
    let body = CaptchaChallenge {
        algorithm: "SHA-256".into(),
        challenge: challenge.challenge,
        maxnumber: challenge.maxnumber,
        salt: challenge.salt,
        signature: challenge.signature,
    };
    Ok(([(header::CACHE_CONTROL, "no-store")], Json(body)).into_response())
}

#[utoipa::path(post, path = "/phone/send", tag = "auth", request_body = SendCodeRequest,
    responses(
        (status = 202, description = "A code was texted (the same answer whether or not the number has an account; with SIGNUPS_OPEN=false nothing is texted to a number without an account, unless an account is adding it)", body = SendCodeResponse),
        (status = 400, description = "captcha-failed (missing, wrong, expired, already used, or issued at under a quarter of the difficulty now due)", body = ErrorBody),
        (status = 404, description = "phone-disabled", body = ErrorBody),
        (status = 422, description = "validation: not a possible number, with its country code or national in PHONE_DEFAULT_REGION", body = ErrorBody),
        (status = 429, description = "rate-limited: per number (60 s apart, 5 an hour), per client prefix (IPv4 address or IPv6 /64) or overall; Retry-After says when", body = ErrorBody),
        (status = 503, description = "sms-failed: the SMS provider did not take the message", body = ErrorBody),
    ))]
pub async fn send_code(
    State(state): State<AppState>,
    client: ClientIp,
    current: Option<CurrentUser>,
    ApiJson(body): ApiJson<SendCodeRequest>,
) -> ApiResult<Response> {
    let phone = phone_auth(&state)?;
    state.limits.check_ip(client.key())?;
    let number = body
        .phone
        .as_deref()
        .and_then(|typed| PhoneNumber::parse(typed, state.config.phone.phone_default_region))
        .ok_or_else(|| AppError::validation("phone", PHONE_FORMAT_MESSAGE))?;

    let now = phone.clock.now_ms();
    let payload = body
        .captcha
        .as_ref()
        .and_then(captcha::parse)
        .ok_or_else(captcha_failed)?;
    let key = phone.captcha_key(&state.store).await?;
    let solved = captcha::verify(&payload, key, now).map_err(|why| {
        tracing::debug!(?why, "captcha refused");
        captcha_failed()
    })?;
    // Challenges stockpiled while it was quiet do not buy cheap sends during a burst.
    let due = phone
        .captcha_max_number(&state.store, client.key(), now)
        .await?;
    if !CaptchaDifficulty::accepts(solved.max_number, due) {
        tracing::debug!(issued = solved.max_number, due, "captcha too easy for now");
        return Err(captcha_failed());
    }
    if !state
        .store
        .use_captcha(&payload.challenge, solved.expires_at_ms, now)
        .await?
    {
        tracing::debug!("captcha solution replayed");
        return Err(captcha_failed());
    }

    let code = code::new_code();
    let salt = code::new_salt();
    let verification_id = Uuid::new_v4();
    let outcome = state
        .store
        .start_phone_code(
            PhoneCodeStart {
                verification_id,
                phone: number.as_str().to_owned(),
                ip: client.key().to_string(),
                code_hash: code::hash_code(&salt, &code),
                code_salt: salt,
                attempts: CODE_ATTEMPTS,
                expires_at_ms: now + phone.code_ttl_ms,
                now_ms: now,
            },
            phone.limits,
        )
        .await?;
    if let Err(refusal) = outcome {
        tracing::info!(scope = ?refusal.scope, "phone code send refused by a limit");
        let retry_after_secs = refusal.retry_after_secs();
        // One number's next code is a wait the driver can count down; the IP and global
        // limits are too many codes asked for.
        return Err(match refusal.scope {
            SendScope::Number => AppError::TooSoon {
                retry_after_secs,
                before: "asking for another code",
            },
            SendScope::Ip | SendScope::Global => AppError::RateLimited { retry_after_secs },
        });
    }
    let lifetime_mins = (phone.code_ttl_ms / 60_000).max(1).unsigned_abs();
    if !may_text(&state, current.as_ref(), &number).await? {
        // The same answer as a sent code, so the answer says nothing about which numbers have
        // an account; the code could only ever be refused (signups-closed) at verify.
        tracing::info!(
            "sign-in code not texted: no account has the number and sign-ups are closed"
        );
        let body = SendCodeResponse {
            verification_id: verification_id.to_string(),
        };
        return Ok((StatusCode::ACCEPTED, Json(body)).into_response());
    }
    if let Err(err) = phone
        .sender
        .send(number.as_str(), &code, lifetime_mins)
        .await
    {
        tracing::error!(error = format!("{err:#}"), "texting a sign-in code failed");
        return Err(AppError::client(
            StatusCode::SERVICE_UNAVAILABLE,
            "sms-failed",
            "We couldn't send the code. Please try again later.",
        ));
    }
    let body = SendCodeResponse {
        verification_id: verification_id.to_string(),
    };
    Ok((StatusCode::ACCEPTED, Json(body)).into_response())
}

/// Whether a code may be texted to `number`: always while sign-ups are open; when they are
/// closed, only to a number with an account (signing in) or for an account adding its phone
/// (no guest is signed in then: guests are off with sign-ups closed).
async fn may_text(
    state: &AppState,
    current: Option<&CurrentUser>,
    number: &PhoneNumber,
) -> ApiResult<bool> {
    if state.config.signups.signups_open || current.is_some() {
        return Ok(true);
    }
    Ok(state
        .store
        .find_user_by_phone(number.as_str())
        .await?
        .is_some())
}

#[utoipa::path(post, path = "/phone/verify", tag = "auth", request_body = VerifyCodeRequest,
    responses(
        (status = 200, description = "Signed in (isNewUser when the number was new). With a session, the number is linked to that user in place and the session is renewed", body = AuthResponse),
        (status = 400, description = "invalid-verification-code (attempts remain) or code-expired (expired, used, replaced or tried 5 times)", body = ErrorBody),
        (status = 403, description = "signups-closed: the number has no account and the server takes no new ones", body = ErrorBody),
        (status = 404, description = "phone-disabled", body = ErrorBody),
        (status = 409, description = "identity-in-use (the number belongs to another account) or phone-already-linked", body = ErrorBody),
        (status = 422, description = "validation: the code is missing", body = ErrorBody),
        (status = 429, description = "rate-limited", body = ErrorBody),
    ))]
pub async fn verify_code(
    State(state): State<AppState>,
    client: ClientIp,
    current: Option<CurrentUser>,
    headers: HeaderMap,
    ApiJson(body): ApiJson<VerifyCodeRequest>,
) -> ApiResult<Response> {
    let phone = phone_auth(&state)?;
    state.limits.check_ip(client.key())?;
    let entered = body
        .code
        .map(|c| c.trim().to_owned())
        .filter(|c| !c.is_empty())
        .ok_or_else(|| AppError::validation("code", "The verification code is required"))?;
    let verification_id = body
        .verification_id
        .as_deref()
        .and_then(|id| Uuid::parse_str(id).ok())
        .ok_or_else(code_expired)?;
    if !code::is_well_formed(&entered) {
        return Err(wrong_code());
    }

    let now = phone.clock.now_ms();
    let stored = state
        .store
        .spend_phone_code_attempt(verification_id, now)
        .await?
        .ok_or_else(code_expired)?;
    if !code::code_matches(&stored.code_salt, &entered, &stored.code_hash) {
        return Err(wrong_code());
    }
    // Signing in without a session to link to would make a new account for an unknown number.
    if current.is_none()
        && state
            .store
            .find_user_by_phone(&stored.phone)
            .await?
            .is_none()
    {
        crate::auth::signups::check_signups_open(&state)?;
    }
    let outcome = state
        .store
        .complete_phone_sign_in(PhoneSignInRequest {
            verification_id,
            link_to: current.as_ref().map(|c| c.user.id),
            new_user: NewUser {
                id: Uuid::now_v7(),
                email: None,
                display_name: None,
                password_hash: None,
                is_anonymous: false,
                now_ms: domain::time_fmt::now_ms(),
            },
            now_ms: domain::time_fmt::now_ms(),
        })
        .await?;
    let (user, is_new_user, profile_cursor) = match outcome {
        PhoneSignIn::SignedIn {
            user,
            is_new_user,
            profile_cursor,
        } => (user, is_new_user, profile_cursor),
        PhoneSignIn::CodeGone => return Err(code_expired()),
        PhoneSignIn::IdentityInUse => {
            return Err(AppError::client(
                StatusCode::CONFLICT,
                "identity-in-use",
                "This phone number is already linked to another account",
            ));
        }
        PhoneSignIn::AlreadyHasPhone => {
            return Err(AppError::client(
                StatusCode::CONFLICT,
                "phone-already-linked",
                "This account already has a phone number",
            ));
        }
    };
    state.notifier.user_changed(user.id);
    if let Some(cursor) = profile_cursor {
        tracing::info!(user_id = %user.id, "phone linked to the signed-in account");
        state.notifier.changed(user.id, cursor);
    } else if is_new_user {
        tracing::info!(user_id = %user.id, "account created by phone");
    }
    // A new token at every sign-in and link: the old one (if any) stops working.
    let cookie = match current {
        Some(current) => {
            rotate_session(
                &state,
                &current.session_token_hash,
                user.id,
                user_agent(&headers),
            )
            .await?
        }
        None => begin_session(&state, &headers, user.id, false).await?,
    };
    let body = AuthResponse {
        user: UserView::new(&user, &state),
        is_new_user,
    };
    Ok((StatusCode::OK, [(header::SET_COOKIE, cookie)], Json(body)).into_response())
}
