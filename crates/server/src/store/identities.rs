//! Records for OpenID Connect sign-in: external identities and pending sign-in requests.

use async_trait::async_trait;
use uuid::Uuid;

use super::{NewUser, StoreResult, UserRecord};

/// An account at an OpenID provider. `(issuer, subject)` is the key, never the e-mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExternalIdentity {
    pub issuer: String,
    pub subject: String,
}

/// A sign-in popup between `/oidc/start` and `/oidc/callback` (the "pre-auth" record).
#[derive(Clone, PartialEq, Eq)]
pub struct OidcRequest {
    pub state: String,
    pub nonce: String,
    pub pkce_verifier: String,
    /// The signed-in guest that the identity is to join, for a link.
    pub link_user_id: Option<Uuid>,
    pub created_at_ms: i64,
    pub expires_at_ms: i64,
}

impl std::fmt::Debug for OidcRequest {
    // The PKCE verifier and nonce are secrets until the callback has used them.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OidcRequest")
            .field("link_user_id", &self.link_user_id)
            .field("expires_at_ms", &self.expires_at_ms)
            .finish_non_exhaustive()
    }
}

/// OpenID Connect sign-in: external identities and the pending sign-in requests between start
/// and callback.
#[async_trait]
pub trait IdentityStore: Send + Sync {
    /// The user an OpenID identity belongs to, if any.
    async fn find_identity_user(&self, identity: &ExternalIdentity) -> StoreResult<Option<Uuid>>;
    /// Creates a user owning `identity`, atomically. `Conflict("identity")` when another
    /// sign-in claimed it first, `Conflict("email")` when the e-mail is taken.
    async fn create_user_with_identity(
        &self,
        user: NewUser,
        identity: ExternalIdentity,
    ) -> StoreResult<UserRecord>;
    /// Attaches `identity` to an existing (guest) user in place: same id and data, no longer
    /// anonymous. `Conflict("identity")` when the identity already belongs to any account.
    async fn link_identity(
        &self,
        user_id: Uuid,
        identity: ExternalIdentity,
        display_name: Option<String>,
        now_ms: i64,
    ) -> StoreResult<UserRecord>;
    /// Stores a pending sign-in and drops the expired ones.
    async fn put_oidc_request(&self, request: OidcRequest) -> StoreResult<()>;
    /// Removes and returns the pending sign-in for `state` (single use); None when unknown,
    /// already used or expired at `now_ms`.
    async fn take_oidc_request(&self, state: &str, now_ms: i64)
    -> StoreResult<Option<OidcRequest>>;
}
