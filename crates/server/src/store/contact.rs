//! Contact-form messages and the state of their e-mail copies.

use async_trait::async_trait;
use uuid::Uuid;

use super::StoreResult;

/// A stored contact-form message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContactRecord {
    pub id: Uuid,
    pub user_id: Option<Uuid>,
    pub name: String,
    pub email: String,
    pub subject: String,
    pub message: String,
    pub created_at_ms: i64,
    /// Whether the operator's e-mail copy went out.
    pub delivery: EmailDelivery,
}

/// Where the e-mail copy of a contact message stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmailStatus {
    /// Stored while SMTP was not configured: never e-mailed.
    NotConfigured,
    /// Waiting for its next try.
    Pending,
    Sent,
    /// Gave up after the last allowed try.
    Failed,
}

impl EmailStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            EmailStatus::NotConfigured => "not-configured",
            EmailStatus::Pending => "pending",
            EmailStatus::Sent => "sent",
            EmailStatus::Failed => "failed",
        }
    }

    pub fn from_stored(value: &str) -> EmailStatus {
        match value {
            "pending" => EmailStatus::Pending,
            "sent" => EmailStatus::Sent,
            "failed" => EmailStatus::Failed,
            _ => EmailStatus::NotConfigured,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmailDelivery {
    pub status: EmailStatus,
    pub attempts: u32,
    pub last_error: Option<String>,
    pub next_attempt_at_ms: Option<i64>,
    pub emailed_at_ms: Option<i64>,
}

impl EmailDelivery {
    pub fn not_configured() -> EmailDelivery {
        EmailDelivery {
            status: EmailStatus::NotConfigured,
            attempts: 0,
            last_error: None,
            next_attempt_at_ms: None,
            emailed_at_ms: None,
        }
    }

    /// Due at once.
    pub fn pending(now_ms: i64) -> EmailDelivery {
        EmailDelivery {
            status: EmailStatus::Pending,
            next_attempt_at_ms: Some(now_ms),
            ..EmailDelivery::not_configured()
        }
    }
}

/// The outcome of one try at e-mailing a claimed message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EmailAttempt {
    Sent {
        at_ms: i64,
    },
    Retry {
        error: String,
        next_attempt_at_ms: i64,
    },
    GaveUp {
        error: String,
    },
}

/// Contact-form messages and the state of their e-mail copies to the operator.
#[async_trait]
pub trait ContactStore: Send + Sync {
    async fn create_contact_message(&self, message: ContactRecord) -> StoreResult<()>;
    /// The newest `limit` messages, newest first.
    async fn list_contact_messages(&self, limit: u32) -> StoreResult<Vec<ContactRecord>>;
    /// Up to `limit` pending messages due by `now_ms`, oldest first, each leased until
    /// `lease_until_ms` so no other worker (process) takes it meanwhile.
    async fn claim_contact_emails(
        &self,
        now_ms: i64,
        lease_until_ms: i64,
        limit: u32,
    ) -> StoreResult<Vec<ContactRecord>>;
    /// Records one try at a pending message (counting it); ignored if it is no longer pending.
    async fn record_contact_email(&self, id: Uuid, attempt: EmailAttempt) -> StoreResult<()>;
    /// When the earliest pending message is due (or its lease ends), if any is pending.
    async fn next_contact_email_at(&self) -> StoreResult<Option<i64>>;
}
