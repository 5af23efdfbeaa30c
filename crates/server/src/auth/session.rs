//! Sessions: an opaque 256-bit token in an HttpOnly cookie; only its SHA-256 is stored.
//! Idle expiry slides with use (drivers are offline for days); an absolute expiry caps it.

use std::{
    collections::HashMap,
    time::{Duration, Instant},
};

use axum::{
    extract::{FromRef, FromRequestParts},
    http::{HeaderMap, HeaderValue, StatusCode, header, request::Parts},
};
use axum_extra::extract::CookieJar;
use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use domain::time_fmt::{duration_ms, now_ms};
use rand::RngCore;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::{
    AppState,
    error::AppError,
    notify::streams::OpenSession,
    store::{DynStore, SessionRecord, StoreError, UserRecord},
};

use super::session_cache::SessionCache;

/// How stale `last_seen` may get before a request refreshes it: saves a write per request.
const TOUCH_INTERVAL_MS: i64 = 60_000;

#[derive(Clone)]
pub struct SessionManager {
    store: DynStore,
    cookie_name: &'static str,
    secure: bool,
    idle: Duration,
    max: Duration,
    /// Shared with the notifier, whose signals drop entries.
    cache: SessionCache,
}

impl SessionManager {
    pub fn new(
        store: DynStore,
        secure: bool,
        idle: Duration,
        max: Duration,
        cache: SessionCache,
    ) -> SessionManager {
        // `__Host-` binds the cookie to this exact origin; it requires Secure.
        let cookie_name = if secure { "__Host-session" } else { "session" };
        SessionManager {
            store,
            cookie_name,
            secure,
            idle,
            max,
            cache,
        }
    }

    pub fn cookie_name(&self) -> &'static str {
        self.cookie_name
    }

    /// Creates a session for `user_id`; returns the Set-Cookie value to send.
    /// `temporary_password`: signed in with a temporary password (see [`SessionRecord`]).
    pub async fn start(
        &self,
        user_id: Uuid,
        user_agent: Option<String>,
        temporary_password: bool,
    ) -> Result<HeaderValue, AppError> {
        let token = new_token();
        let now = now_ms();
        self.store
            .create_session(SessionRecord {
                token_hash: hash_token(&token),
                user_id,
                created_at_ms: now,
                last_seen_ms: now,
                user_agent: user_agent.map(|ua| ua.chars().take(256).collect()),
                temporary_password,
            })
            .await?;
        Ok(self.set_cookie(&token, self.max.as_secs()))
    }

    /// Deletes the session named by the request's cookie, if any; returns its hash.
    pub async fn end(&self, jar: &CookieJar) -> Result<Option<String>, AppError> {
        let Some(token) = jar.get(self.cookie_name) else {
            return Ok(None);
        };
        let token_hash = hash_token(token.value());
        self.store.delete_session(&token_hash).await?;
        self.cache.forget_session(&token_hash);
        Ok(Some(token_hash))
    }

    /// Of `open` (the sessions of open event streams), those that ended: gone, expired, or not
    /// the user's. One batched read, however many there are.
    pub async fn ended_among(&self, open: &[OpenSession]) -> Result<Vec<String>, StoreError> {
        let hashes: Vec<String> = open.iter().map(|s| s.token_hash.clone()).collect();
        let now = now_ms();
        let live: HashMap<String, SessionRecord> = self
            .store
            .get_sessions(&hashes)
            .await?
            .into_iter()
            .filter(|session| !self.is_expired(session, now))
            .map(|session| (session.token_hash.clone(), session))
            .collect();
        Ok(open
            .iter()
            .filter(|s| {
                live.get(&s.token_hash)
                    .is_none_or(|l| l.user_id != s.user_id)
            })
            .map(|s| s.token_hash.clone())
            .collect())
    }

    fn is_expired(&self, session: &SessionRecord, now: i64) -> bool {
        now - session.last_seen_ms > duration_ms(self.idle)
            || now - session.created_at_ms > duration_ms(self.max)
    }

    pub fn clear_cookie(&self) -> HeaderValue {
        self.set_cookie("", 0)
    }

    /// The signed-in user for this request's cookie, or 401.
    pub async fn resolve(&self, jar: &CookieJar) -> Result<CurrentUser, AppError> {
        let token = jar
            .get(self.cookie_name)
            .ok_or_else(AppError::unauthenticated)?;
        let token_hash = hash_token(token.value());
        let now = now_ms();
        let (session, user) = match self.cache.get(&token_hash, Instant::now()) {
            // A cached row that looks expired is read again: another process may have used it.
            Some((session, user)) if !self.is_expired(&session, now) => (session, user),
            _ => self.read(&token_hash, now).await?,
        };
        if now - session.last_seen_ms > TOUCH_INTERVAL_MS {
            self.store.touch_session(&token_hash, now).await?;
            self.cache.touched(&token_hash, now);
        }
        Ok(CurrentUser {
            signed_in_with_temporary_password: session.temporary_password
                && user.must_change_password,
            user,
            session_token_hash: token_hash,
        })
    }

    /// The session and user from the database (remembered in the cache), or 401.
    async fn read(
        &self,
        token_hash: &str,
        now: i64,
    ) -> Result<(SessionRecord, UserRecord), AppError> {
        let generation = self.cache.generation();
        let (session, user) = self
            .store
            .get_session_user(token_hash)
            .await?
            .ok_or_else(AppError::unauthenticated)?;
        if self.is_expired(&session, now) {
            self.store.delete_session(token_hash).await?;
            self.cache.forget_session(token_hash);
            return Err(AppError::unauthenticated());
        }
        let user = user.ok_or_else(AppError::unauthenticated)?;
        self.cache
            .put(generation, session.clone(), user.clone(), Instant::now());
        Ok((session, user))
    }

    /// Removes expired sessions; run periodically.
    pub async fn sweep(&self) -> Result<u64, AppError> {
        let now = now_ms();
        Ok(self
            .store
            .delete_expired_sessions(now - duration_ms(self.idle), now - duration_ms(self.max))
            .await?)
    }

    fn set_cookie(&self, value: &str, max_age_secs: u64) -> HeaderValue {
        let secure = if self.secure { "; Secure" } else { "" };
        let cookie = format!(
            "{}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={max_age_secs}{secure}",
            self.cookie_name
        );
        HeaderValue::from_str(&cookie).expect("cookie is ASCII")
    }
}

/// An opaque 256-bit random token, URL-safe: sessions and e-mailed links.
pub(crate) fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// Every signed-in request hashes its cookie's token to find the session: a per-byte
/// `format!` here was 1.4 % of a push's CPU.
pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

pub fn user_agent(headers: &HeaderMap) -> Option<String> {
    headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

/// Signs `user_id` in on the browser that sent `headers`. The browser keeps only the new cookie,
/// so the session its old cookie named (a guest's, or another account's) ends too: left alive it
/// would be a working credential nobody holds on purpose, and a guest's would never look idle.
/// `temporary_password`: the sign-in proved the account's temporary password (only a password
/// sign-in while the password must change does).
pub async fn begin_session(
    state: &AppState,
    headers: &HeaderMap,
    user_id: Uuid,
    temporary_password: bool,
) -> Result<HeaderValue, AppError> {
    let cookie = state
        .sessions
        .start(user_id, user_agent(headers), temporary_password)
        .await?;
    let jar = CookieJar::from_headers(headers);
    if let Some(old) = jar.get(state.sessions.cookie_name()) {
        end_session(state, &hash_token(old.value())).await?;
    }
    Ok(cookie)
}

/// A new session for `user_id` in place of `old_token_hash` (a sign-in method was linked or the
/// password changed): the old token stops working and its event streams close.
pub async fn rotate_session(
    state: &AppState,
    old_token_hash: &str,
    user_id: Uuid,
    user_agent: Option<String>,
) -> Result<HeaderValue, AppError> {
    // Never a temporary-password session: linking and changing the password both end that state.
    let cookie = state.sessions.start(user_id, user_agent, false).await?;
    end_session(state, old_token_hash).await?;
    Ok(cookie)
}

/// Ends a session server-side and closes its event streams at once.
pub async fn end_session(state: &AppState, token_hash: &str) -> Result<(), AppError> {
    state.store.delete_session(token_hash).await?;
    state.notifier.session_ended(token_hash.to_owned());
    Ok(())
}

/// The signed-in user. A handler that takes this cannot forget to check authentication.
#[derive(Debug, Clone)]
pub struct CurrentUser {
    pub user: UserRecord,
    pub session_token_hash: String,
    /// This session signed in with the account's temporary password, which is still in force:
    /// it may choose the new password without typing the temporary one again.
    pub signed_in_with_temporary_password: bool,
}

impl<S> FromRequestParts<S> for CurrentUser
where
    AppState: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let SignedInForPasswordChange(current) =
            SignedInForPasswordChange::from_request_parts(parts, state).await?;
        // A temporary password (an operator's reset) lets its holder read and choose a new
        // password, nothing else: the operator passed it on by some channel they trust less.
        if current.user.must_change_password && !parts.method.is_safe() {
            return Err(password_change_required());
        }
        Ok(current)
    }
}

/// 403 for any write but choosing a new password while the password is temporary.
pub fn password_change_required() -> AppError {
    AppError::client(
        StatusCode::FORBIDDEN,
        "password-change-required",
        "Choose a new password first: this one was set by the operator and is temporary",
    )
}

/// The signed-in user, even one whose password is temporary: only for choosing a new one.
/// Every other handler takes [`CurrentUser`], which refuses their writes.
#[derive(Debug, Clone)]
pub struct SignedInForPasswordChange(pub CurrentUser);

impl<S> FromRequestParts<S> for SignedInForPasswordChange
where
    AppState: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let state = AppState::from_ref(state);
        let jar = CookieJar::from_headers(&parts.headers);
        let current = state.sessions.resolve(&jar).await?;
        // Guests made before GUESTS_ENABLED=false are signed out with the rest: the switch
        // means no guest uses the server, not only that no new one is made.
        if current.user.is_anonymous && !state.config.signups.guests_enabled {
            return Err(super::signups::guest_signed_out());
        }
        crate::http::access::record_user(current.user.id);
        Ok(SignedInForPasswordChange(current))
    }
}

/// Routes open to everyone that also want to know who is asking (e.g. the contact form).
impl<S> axum::extract::OptionalFromRequestParts<S> for CurrentUser
where
    AppState: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &S,
    ) -> Result<Option<Self>, Self::Rejection> {
        match <CurrentUser as FromRequestParts<S>>::from_request_parts(parts, state).await {
            Ok(user) => Ok(Some(user)),
            Err(AppError::Client {
                status: StatusCode::UNAUTHORIZED,
                ..
            }) => Ok(None),
            Err(other) => Err(other),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_256_bit() {
        let a = new_token();
        let b = new_token();
        assert_ne!(a, b);
        assert_eq!(URL_SAFE_NO_PAD.decode(&a).unwrap().len(), 32);
        assert_eq!(hash_token(&a).len(), 64);
        assert_ne!(hash_token(&a), a);
    }
}
