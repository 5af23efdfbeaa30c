//! Records for OpenID Connect sign-in: external identities and pending sign-in requests.

use uuid::Uuid;

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
