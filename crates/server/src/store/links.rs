//! Links sent to one e-mail address (see migrations 0016_email_links): a password reset or an
//! invitation to sign up. One mechanism for both: a random token, only its hash stored, single
//! use, expiring.

use async_trait::async_trait;
use uuid::Uuid;

use super::{NewUser, StoreResult, UserRecord};

/// What a link does when it is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkPurpose {
    /// Choose a new password for an existing account.
    PasswordReset,
    /// Create an account for the invited address (sign-ups may be closed).
    Invite,
}

impl LinkPurpose {
    pub fn as_str(self) -> &'static str {
        match self {
            LinkPurpose::PasswordReset => "password-reset",
            LinkPurpose::Invite => "invite",
        }
    }

    pub fn from_stored(value: &str) -> Option<LinkPurpose> {
        match value {
            "password-reset" => Some(LinkPurpose::PasswordReset),
            "invite" => Some(LinkPurpose::Invite),
            _ => None,
        }
    }
}

/// A link to store. `user_id` is the account a reset is for; None for an invite.
#[derive(Debug, Clone)]
pub struct NewEmailLink {
    /// SHA-256 (hex) of the token; the token itself is only ever in the e-mail or printout.
    pub token_hash: String,
    pub purpose: LinkPurpose,
    /// Normalised.
    pub email: String,
    pub user_id: Option<Uuid>,
    pub now_ms: i64,
    pub expires_at_ms: i64,
}

/// A link that can still be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmailLink {
    pub purpose: LinkPurpose,
    pub email: String,
    pub user_id: Option<Uuid>,
    pub created_at_ms: i64,
    pub expires_at_ms: i64,
}

/// A password set with a reset link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PasswordReset {
    pub user: UserRecord,
    /// The hashes of the sessions it ended (every one the account had), for their streams.
    pub ended_sessions: Vec<String>,
}

/// What using an invitation did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InviteUse {
    Created(UserRecord),
    /// No live invitation has that token (never, used, or expired).
    Gone,
    /// An account has the invited address by now: nothing was created and the invitation
    /// still stands.
    EmailTaken,
}

/// Reset and invitation links.
#[async_trait]
pub trait LinkStore: Send + Sync {
    /// Stores a link. Links expired by `now_ms` are cleared on the way, and an invitation
    /// replaces any earlier one to the same address (the newest is the one that works).
    async fn create_email_link(&self, link: NewEmailLink) -> StoreResult<()>;
    /// The link with this token hash, if it is live at `now_ms` (not used, not expired).
    async fn find_email_link(
        &self,
        token_hash: &str,
        now_ms: i64,
    ) -> StoreResult<Option<EmailLink>>;
    /// Uses a live reset link, in one transaction: the account gets `password_hash` (chosen by
    /// its holder, so no longer temporary), every one of its sessions ends and every other
    /// reset link for it stops working. None when no live reset link has that token.
    async fn reset_password_with_link(
        &self,
        token_hash: &str,
        password_hash: &str,
        now_ms: i64,
    ) -> StoreResult<Option<PasswordReset>>;
    /// Uses a live invitation, in one transaction: `user` is created with the invited address
    /// (its own `email` is ignored) and the invitation is used up.
    async fn sign_up_with_invite(&self, token_hash: &str, user: NewUser) -> StoreResult<InviteUse>;
}
