//! Links sent to one e-mail address, the one mechanism for both kinds: a password reset ("Forgot
//! password?" on the login page) and an invitation to sign up (the operator's `users invite`,
//! which works while sign-ups are closed). A link carries a random 256-bit token; only its
//! SHA-256 is stored; it works once and expires (a reset after an hour, an invitation after the
//! days the operator chose).
//!
//! E-mailing links needs SMTP (SMTP_URL and its two addresses) and PUBLIC_URL: a link must name
//! the address users open, and taking it from a request's Host header would let anyone have a
//! reset link for someone else's account point at their own site.

mod handlers;
pub mod messages;
mod reset_queue;

use std::net::SocketAddr;

use domain::Email;
use utoipa_axum::{router::OpenApiRouter, routes};
use uuid::Uuid;

use super::{
    clock::Clock,
    rate_limit::Limiter,
    session::{hash_token, new_token},
};
use crate::{
    AppState,
    config::Config,
    http::client_ip::IpKey,
    mail::Mailer,
    store::{DynStore, LinkPurpose, NewEmailLink, StoreResult},
};

/// Spec of issue 26: a reset link works for one hour.
pub const RESET_LINK_TTL_MS: i64 = 60 * 60 * 1000;
/// The web app's pages that links open (web/src/lib/paths.ts). The token goes after `#`: a
/// fragment never leaves the browser, so it is in no access log, proxy log or Referer.
pub const RESET_PAGE: &str = "/reset-password";
pub const INVITE_PAGE: &str = "/invite";

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(handlers::request_password_reset))
        .routes(routes!(handlers::check_link))
        .routes(routes!(handlers::reset_password))
        .routes(routes!(handlers::accept_invite))
}

/// How links are e-mailed: the SMTP transport and the origin links name.
#[derive(Clone)]
pub struct LinkMail {
    pub mailer: Mailer,
    /// PUBLIC_URL's origin, e.g. `https://tracker.example.com`.
    pub origin: String,
}

impl LinkMail {
    /// Present when SMTP and PUBLIC_URL are both configured.
    pub fn from_config(config: &Config) -> anyhow::Result<Option<LinkMail>> {
        let (smtp, origin) = (config.smtp.contact_email()?, config.http.public_origin()?);
        if smtp.is_some() && origin.is_none() {
            tracing::warn!(
                "SMTP is set but PUBLIC_URL is not: \"Forgot password?\" cannot e-mail links \
                 (they must name the address users open) and tells users to ask you instead; \
                 set PUBLIC_URL to turn it on"
            );
        }
        let (Some(smtp), Some(origin)) = (smtp, origin) else {
            return Ok(None);
        };
        Ok(Some(LinkMail {
            mailer: Mailer::new(&smtp)?,
            origin,
        }))
    }
}

/// Reset and invitation links as the server handles them; in [`AppState`].
pub struct EmailLinks {
    /// E-mailing links; None without SMTP or PUBLIC_URL (then "Forgot password?" says to ask
    /// the operator).
    pub mail: Option<LinkMail>,
    /// Tests swap in a hand-moved clock, to cross the hour without waiting.
    pub clock: Clock,
    /// Reset e-mails per address (known or not, so the limit tells nothing) and per client.
    per_address: Limiter<String>,
    per_client: Limiter<IpKey>,
    /// Reset requests waiting for the worker that looks the address up and sends the e-mail.
    queue: reset_queue::ResetQueue,
}

impl EmailLinks {
    pub fn from_config(config: &Config) -> anyhow::Result<EmailLinks> {
        let limits = &config.rate_limits;
        Ok(EmailLinks {
            mail: LinkMail::from_config(config)?,
            clock: Clock::System,
            per_address: Limiter::per_hour(limits.password_reset_per_address_per_hour),
            per_client: Limiter::per_hour(limits.password_reset_per_client_per_hour),
            queue: reset_queue::ResetQueue::default(),
        })
    }
}

/// A link's token: 256 random bits, URL-safe. Returned once, to put in the e-mail or printout.
pub struct LinkToken(String);

impl LinkToken {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Stores a new link for `email` (and, for a reset, its account `user_id`), live until
/// `now_ms + ttl_ms`; returns its token.
pub async fn issue_link(
    store: &DynStore,
    purpose: LinkPurpose,
    email: &Email,
    user_id: Option<Uuid>,
    now_ms: i64,
    ttl_ms: i64,
) -> StoreResult<LinkToken> {
    let token = new_token();
    store
        .create_email_link(NewEmailLink {
            token_hash: hash_token(&token),
            purpose,
            email: email.as_str().to_owned(),
            user_id,
            now_ms,
            expires_at_ms: now_ms.saturating_add(ttl_ms),
        })
        .await?;
    Ok(LinkToken(token))
}

/// The page a link opens, on `origin`, carrying `token`.
pub fn link_url(origin: &str, purpose: LinkPurpose, token: &LinkToken) -> String {
    let page = match purpose {
        LinkPurpose::PasswordReset => RESET_PAGE,
        LinkPurpose::Invite => INVITE_PAGE,
    };
    format!("{}{page}#{}", origin.trim_end_matches('/'), token.as_str())
}

/// The origin links name when PUBLIC_URL is not set (an operator's printed invitation): the
/// listening address, with a wildcard address read as this machine.
pub fn fallback_origin(listen: SocketAddr) -> String {
    let mut address = listen;
    if address.ip().is_unspecified() {
        address.set_ip(std::net::Ipv4Addr::LOCALHOST.into());
    }
    format!("http://{address}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_carry_the_token_after_the_hash() {
        let token = LinkToken("abc_-123".into());
        assert_eq!(
            link_url(
                "https://dt.example.com/",
                LinkPurpose::PasswordReset,
                &token
            ),
            "https://dt.example.com/reset-password#abc_-123"
        );
        assert_eq!(
            link_url("http://127.0.0.1:8080", LinkPurpose::Invite, &token),
            "http://127.0.0.1:8080/invite#abc_-123"
        );
    }

    #[test]
    fn a_wildcard_listen_address_is_read_as_this_machine() {
        assert_eq!(
            fallback_origin("0.0.0.0:8080".parse().unwrap()),
            "http://127.0.0.1:8080"
        );
        assert_eq!(
            fallback_origin("192.0.2.7:80".parse().unwrap()),
            "http://192.0.2.7:80"
        );
    }
}
