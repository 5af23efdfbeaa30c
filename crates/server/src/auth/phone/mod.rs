//! Phone sign-in: an invisible proof-of-work captcha, a six-digit code by SMS, then sign-in,
//! sign-up or linking the number to the signed-in (guest) user in place.

mod captcha;
mod code;
mod handlers;
pub mod sender;
pub mod types;

use std::sync::Arc;

use axum::http::StatusCode;
use domain::phone::{CaptchaDifficulty, SendLimits};
use rand::{RngCore, rngs::OsRng};
use tokio::sync::OnceCell;
use utoipa_axum::{router::OpenApiRouter, routes};

use self::{clock::Clock, sender::SmsSender};
pub use super::clock;
use crate::{AppState, config::Config, error::AppError, http::client_ip::IpKey, store::DynStore};

/// Wrong guesses a code survives (the fifth attempt is its last).
pub const CODE_ATTEMPTS: u32 = 5;
const CAPTCHA_KEY_NAME: &str = "captcha-hmac-sha256";

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(handlers::get_challenge))
        .routes(routes!(handlers::send_code))
        .routes(routes!(handlers::verify_code))
}

/// Phone sign-in as configured; absent from [`AppState`] when SMS_SENDER is unset.
#[derive(Clone)]
pub struct PhoneAuth {
    pub sender: SmsSender,
    /// Tests swap in a hand-moved clock.
    pub clock: Clock,
    pub limits: SendLimits,
    /// Rises with recent send volume (see [`CaptchaDifficulty::max_number`]).
    pub captcha: CaptchaDifficulty,
    pub code_ttl_ms: i64,
    /// The captcha signing key (hex), loaded from the store on first use.
    captcha_key: Arc<OnceCell<String>>,
}

impl PhoneAuth {
    pub fn from_config(config: &Config, http: reqwest::Client) -> anyhow::Result<Option<Self>> {
        let phone = &config.phone;
        let Some(setup) = phone.sender()? else {
            return Ok(None);
        };
        Ok(Some(PhoneAuth {
            sender: SmsSender::new(setup, &config.data_dir, http),
            clock: Clock::System,
            limits: phone.send_limits(),
            captcha: phone.captcha_difficulty(),
            code_ttl_ms: i64::try_from(phone.phone_code_ttl_secs.saturating_mul(1000))
                .unwrap_or(i64::MAX),
            captcha_key: Arc::default(),
        }))
    }

    /// The difficulty due now for a client with this rate-limit key, from the sends recorded
    /// in the database (so every process prices alike).
    async fn captcha_max_number(
        &self,
        store: &DynStore,
        key: IpKey,
        now_ms: i64,
    ) -> Result<u64, AppError> {
        let volume = store.phone_send_volume(&key.to_string(), now_ms).await?;
        Ok(self
            .captcha
            .max_number(volume, self.limits.global_per_minute))
    }

    /// One key for every process on the database, so any of them can check a challenge
    /// another issued. The first process to need it generates and stores it.
    async fn captcha_key(&self, store: &DynStore) -> Result<&str, AppError> {
        let key = self
            .captcha_key
            .get_or_try_init(|| async {
                let mut candidate = vec![0u8; 32];
                OsRng.fill_bytes(&mut candidate);
                let key = store.server_key(CAPTCHA_KEY_NAME, candidate).await?;
                Ok::<_, AppError>(hex::encode(key))
            })
            .await?;
        Ok(key)
    }
}

/// The phone routes answer this while phone sign-in is not configured.
pub fn disabled() -> AppError {
    AppError::client(
        StatusCode::NOT_FOUND,
        "phone-disabled",
        "Phone sign-in is not available on this server",
    )
}
