//! `/oidc/start` (opened in the popup) and `/oidc/callback` (where the provider sends it back).

use axum::{
    extract::{Query, State},
    http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use axum_extra::extract::CookieJar;
use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use domain::{DisplayName, time_fmt::now_ms};
use rand::RngCore;
use serde::Deserialize;
use utoipa::IntoParams;
use uuid::Uuid;

use super::{
    OidcFailure, POPUP_COOP, REQUEST_TTL_MS, binding_cookie, binding_cookie_name, disabled,
    page::{OidcResult, result_page},
    provider::{Provider, VerifiedIdentity},
};
use crate::{
    AppState,
    auth::session::{CurrentUser, begin_session, rotate_session, user_agent},
    error::{ApiResult, ErrorBody},
    http::client_ip::ClientIp,
    store::{ExternalIdentity, NewUser, OidcRequest, StoreError},
};

#[derive(Debug, Deserialize, IntoParams)]
pub struct StartParams {
    /// `1` to link the provider's account to the signed-in guest instead of signing in.
    pub link: Option<String>,
}

#[derive(Debug, Deserialize, IntoParams)]
pub struct CallbackParams {
    pub code: Option<String>,
    pub state: Option<String>,
    /// Set by the provider when the sign-in did not happen (e.g. `access_denied`).
    pub error: Option<String>,
}

fn random_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

fn failure_page(state: &AppState, provider: &Provider, failure: OidcFailure) -> Response {
    let settings = provider.settings();
    result_page(
        &OidcResult::failure(failure.code(), failure.message(&settings.label)),
        &settings.public_origin,
        vec![],
    )
    .with_binding_cleared(state)
}

trait ClearBinding {
    fn with_binding_cleared(self, state: &AppState) -> Response;
}

impl ClearBinding for Response {
    /// Every callback answer drops the binding cookie: a sign-in is tried once.
    fn with_binding_cleared(mut self, state: &AppState) -> Response {
        self.headers_mut().append(
            header::SET_COOKIE,
            binding_cookie(state.config.http.cookie_secure, "", 0),
        );
        self
    }
}

#[utoipa::path(get, path = "/oidc/start", tag = "auth", params(StartParams),
    responses(
        (status = 303, description = "To the provider's authorization endpoint (state, nonce, PKCE S256); sets a short-lived cookie binding the sign-in to this browser"),
        (status = 200, description = "Popup result page (text/html) posting {type:'oidc-result', ok:false, error} to the opener: link-not-allowed, provider-unavailable"),
        (status = 404, description = "oidc-disabled", body = ErrorBody),
        (status = 429, description = "rate-limited", body = ErrorBody),
    ))]
pub async fn start_oidc(
    State(state): State<AppState>,
    client: ClientIp,
    Query(params): Query<StartParams>,
    current: Option<CurrentUser>,
) -> ApiResult<Response> {
    let provider = state.oidc.clone().ok_or_else(disabled)?;
    state.limits.check_ip(client.key())?;
    let link_user_id = if params.link.as_deref() == Some("1") {
        match current {
            Some(current) if current.user.is_anonymous => Some(current.user.id),
            _ => return Ok(failure_page(&state, &provider, OidcFailure::LinkNotAllowed)),
        }
    } else {
        None
    };
    let (request_state, nonce) = (random_token(), random_token());
    let start = match provider.authorization_url(&request_state, &nonce).await {
        Ok(start) => start,
        Err(failure) => return Ok(failure_page(&state, &provider, failure)),
    };
    let now = now_ms();
    state
        .store
        .put_oidc_request(OidcRequest {
            state: request_state.clone(),
            nonce,
            pkce_verifier: start.pkce_verifier,
            link_user_id,
            created_at_ms: now,
            expires_at_ms: now + REQUEST_TTL_MS,
        })
        .await?;
    let location = HeaderValue::from_str(start.url.as_str())
        .map_err(|_| crate::error::AppError::Internal(anyhow::anyhow!("bad authorization URL")))?;
    Ok((
        StatusCode::SEE_OTHER,
        [
            (header::LOCATION, location),
            (
                header::SET_COOKIE,
                binding_cookie(
                    state.config.http.cookie_secure,
                    &request_state,
                    REQUEST_TTL_MS / 1000,
                ),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
            (
                HeaderName::from_static("cross-origin-opener-policy"),
                HeaderValue::from_static(POPUP_COOP),
            ),
        ],
    )
        .into_response())
}

#[utoipa::path(get, path = "/oidc/callback", tag = "auth", params(CallbackParams),
    responses(
        (status = 200, description = "Popup result page (text/html, CSP nonce) posting {type:'oidc-result', ok, isNewUser | error, message} to the opener (own origin only) and closing; on success also sets a fresh session cookie. Errors: invalid-state, provider-error, token-exchange-failed, invalid-token, provider-unavailable, identity-in-use, link-not-allowed, signups-closed (no account yet and SIGNUPS_OPEN=false)"),
        (status = 404, description = "oidc-disabled", body = ErrorBody),
    ))]
pub async fn finish_oidc(
    State(state): State<AppState>,
    Query(params): Query<CallbackParams>,
    jar: CookieJar,
    headers: HeaderMap,
    current: Option<CurrentUser>,
) -> ApiResult<Response> {
    let provider = state.oidc.clone().ok_or_else(disabled)?;
    let bound = jar
        .get(binding_cookie_name(state.config.http.cookie_secure))
        .map(|c| c.value().to_owned());
    match complete(&state, &provider, params, bound, &headers, current).await {
        Ok((cookie, is_new_user)) => Ok(result_page(
            &OidcResult::success(is_new_user),
            &provider.settings().public_origin,
            vec![(header::SET_COOKIE, cookie)],
        )
        .with_binding_cleared(&state)),
        Err(failure) => {
            tracing::info!(error = failure.code(), "OpenID sign-in refused");
            Ok(failure_page(&state, &provider, failure))
        }
    }
}

/// Checks the callback, redeems the code and signs in (or links); returns the session cookie.
async fn complete(
    state: &AppState,
    provider: &Provider,
    params: CallbackParams,
    bound: Option<String>,
    headers: &HeaderMap,
    current: Option<CurrentUser>,
) -> Result<(HeaderValue, bool), OidcFailure> {
    let request_state = params.state.ok_or(OidcFailure::InvalidState)?;
    if bound.as_deref() != Some(request_state.as_str()) {
        return Err(OidcFailure::InvalidState);
    }
    // Taken (deleted) before anything else: whatever happens next, it is never used twice.
    let request = state
        .store
        .take_oidc_request(&request_state, now_ms())
        .await?
        .ok_or(OidcFailure::InvalidState)?;
    if let Some(error) = params.error {
        tracing::info!(provider_error = %error.chars().take(64).collect::<String>(), "provider refused the sign-in");
        return Err(OidcFailure::ProviderError);
    }
    let code = params.code.ok_or(OidcFailure::ProviderError)?;
    let identity = provider
        .redeem(code, request.pkce_verifier, &request.nonce)
        .await?;
    match request.link_user_id {
        Some(guest_id) => link_guest(state, guest_id, identity, current, user_agent(headers)).await,
        None => sign_in(state, identity, headers).await,
    }
}

/// The provider's `name`, when it fits our display-name rules (else the usual fallback).
fn display_name(identity: &VerifiedIdentity) -> Option<String> {
    DisplayName::parse_optional(identity.name.as_deref())
        .ok()
        .flatten()
}

fn external(identity: &VerifiedIdentity) -> ExternalIdentity {
    ExternalIdentity {
        issuer: identity.issuer.clone(),
        subject: identity.subject.clone(),
    }
}

async fn sign_in(
    state: &AppState,
    identity: VerifiedIdentity,
    headers: &HeaderMap,
) -> Result<(HeaderValue, bool), OidcFailure> {
    let key = external(&identity);
    let now = now_ms();
    if let Some(user_id) = state.store.find_identity_user(&key).await? {
        state.store.record_login(user_id, now).await?;
        state.notifier.user_changed(user_id);
        return Ok((begin_session(state, headers, user_id, false).await?, false));
    }
    if !state.config.signups.signups_open {
        return Err(OidcFailure::SignupsClosed);
    }
    // No e-mail on the account: here an e-mail means a password sign-in (and its uniqueness
    // would let a provider's address collide with, or block, someone's password account).
    let new_user = NewUser {
        id: Uuid::now_v7(),
        email: None,
        display_name: display_name(&identity),
        password_hash: None,
        is_anonymous: false,
        now_ms: now,
    };
    let created = state
        .store
        .create_user_with_identity(new_user, key.clone())
        .await;
    match created {
        Ok(user) => {
            tracing::info!(user_id = %user.id, "account created with an OpenID identity");
            Ok((begin_session(state, headers, user.id, false).await?, true))
        }
        // A simultaneous first sign-in of the same person won: use that account.
        Err(StoreError::Conflict("identity")) => {
            let user_id = state
                .store
                .find_identity_user(&key)
                .await?
                .ok_or(OidcFailure::Internal)?;
            Ok((begin_session(state, headers, user_id, false).await?, false))
        }
        Err(err) => Err(err.into()),
    }
}

/// Attaches the identity to the guest in place (same id, all data kept) and rotates the
/// session; an identity owned by another account is refused, never merged.
async fn link_guest(
    state: &AppState,
    guest_id: Uuid,
    identity: VerifiedIdentity,
    current: Option<CurrentUser>,
    user_agent: Option<String>,
) -> Result<(HeaderValue, bool), OidcFailure> {
    let current = current
        .filter(|c| c.user.id == guest_id)
        .ok_or(OidcFailure::LinkNotAllowed)?;
    let key = external(&identity);
    match state.store.find_identity_user(&key).await? {
        Some(owner) if owner != guest_id => return Err(OidcFailure::IdentityInUse),
        Some(_) => {}
        None => {
            match state
                .store
                .link_identity(guest_id, key, display_name(&identity), now_ms())
                .await
            {
                Ok(user) => {
                    state.notifier.user_changed(user.id);
                    tracing::info!(user_id = %user.id, "guest linked an OpenID identity");
                }
                Err(StoreError::Conflict("identity")) => return Err(OidcFailure::IdentityInUse),
                Err(err) => return Err(err.into()),
            }
        }
    }
    let cookie = rotate_session(state, &current.session_token_hash, guest_id, user_agent).await?;
    Ok((cookie, false))
}
