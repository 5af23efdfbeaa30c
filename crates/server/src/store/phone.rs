//! What the Store keeps for phone sign-in (see migrations 0008_phone).

use async_trait::async_trait;
pub use domain::phone::SendVolume;
use domain::phone::{SendLimits, SendRefusal};
use uuid::Uuid;

use super::{NewUser, StoreResult, UserRecord};

/// A code to store (replacing any live code for the number) and the send it records.
#[derive(Debug, Clone)]
pub struct PhoneCodeStart {
    pub verification_id: Uuid,
    /// E.164.
    pub phone: String,
    /// Where the request came from (its rate-limit key: an IPv4 address or an IPv6 /64), for
    /// the per-IP send limit.
    pub ip: String,
    pub code_salt: String,
    pub code_hash: String,
    pub attempts: u32,
    pub expires_at_ms: i64,
    pub now_ms: i64,
}

/// A live code after one of its attempts was spent on checking it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhoneCodeCheck {
    pub phone: String,
    pub code_salt: String,
    pub code_hash: String,
}

/// What proving a number does: sign in (or up), or link the number to a signed-in user.
#[derive(Debug, Clone)]
pub struct PhoneSignInRequest {
    pub verification_id: Uuid,
    /// The signed-in user (a guest, typically) to link the number to, in place.
    pub link_to: Option<Uuid>,
    /// The account to create when the number is new and nobody is signed in.
    pub new_user: NewUser,
    pub now_ms: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PhoneSignIn {
    SignedIn {
        user: UserRecord,
        is_new_user: bool,
        /// Whether a signed-in user's profile changed (linking): other devices need a poke.
        profile_cursor: Option<i64>,
    },
    /// The code was used meanwhile (a concurrent verify won).
    CodeGone,
    /// Linking: the number belongs to another account. Nothing is merged.
    IdentityInUse,
    /// Linking: this account already has another number.
    AlreadyHasPhone,
}

pub type SendOutcome = Result<(), SendRefusal>;
pub type Limits = SendLimits;

/// Phone sign-in: server keys, used captchas, the send log and limits, codes and their
/// attempts.
#[async_trait]
pub trait PhoneStore: Send + Sync {
    /// The user a phone identity (E.164) belongs to.
    async fn find_user_by_phone(&self, phone: &str) -> StoreResult<Option<UserRecord>>;
    /// Every phone identity as (user, E.164 number), for the operator's `users list`.
    async fn user_phones(&self) -> StoreResult<Vec<(Uuid, String)>>;
    /// The key stored under `name`, or `candidate` after storing it if there was none.
    async fn server_key(&self, name: &str, candidate: Vec<u8>) -> StoreResult<Vec<u8>>;
    /// Records a captcha solution; false if it was already used (a replay).
    async fn use_captcha(
        &self,
        challenge: &str,
        expires_at_ms: i64,
        now_ms: i64,
    ) -> StoreResult<bool>;
    /// Sends accepted in the last minute, overall and from `ip` (a rate-limit key), which
    /// price the next captcha.
    async fn phone_send_volume(&self, ip: &str, now_ms: i64) -> StoreResult<SendVolume>;
    /// Checks the send limits and, if they allow it, records the send and stores the code
    /// (replacing the number's previous one), atomically across processes.
    async fn start_phone_code(
        &self,
        start: PhoneCodeStart,
        limits: Limits,
    ) -> StoreResult<SendOutcome>;
    /// Spends one attempt of a live (unexpired, not exhausted) code and returns it to check.
    async fn spend_phone_code_attempt(
        &self,
        verification_id: Uuid,
        now_ms: i64,
    ) -> StoreResult<Option<PhoneCodeCheck>>;
    /// Uses up a checked code and signs its number in, signs it up, or links it.
    async fn complete_phone_sign_in(&self, request: PhoneSignInRequest)
    -> StoreResult<PhoneSignIn>;
}
