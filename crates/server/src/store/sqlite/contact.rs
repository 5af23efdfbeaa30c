//! Contact messages and the state of their e-mail copies.

use super::Cached as _;
use async_trait::async_trait;
use rusqlite::{Row, params};
use uuid::Uuid;

use super::{SqliteStore, db_err};
use crate::store::{
    ContactRecord, ContactStore, EmailAttempt, EmailDelivery, EmailStatus, StoreResult,
};

const COLUMNS: &str = "id, user_id, name, email, subject, message, created_at, email_status, \
                       email_attempts, email_last_error, email_next_attempt_at, emailed_at";

fn contact_from_row(r: &Row<'_>) -> rusqlite::Result<ContactRecord> {
    let id: String = r.get(0)?;
    let user: Option<String> = r.get(1)?;
    let status: String = r.get(7)?;
    Ok(ContactRecord {
        id: Uuid::parse_str(&id).unwrap_or_default(),
        user_id: user.and_then(|u| Uuid::parse_str(&u).ok()),
        name: r.get(2)?,
        email: r.get(3)?,
        subject: r.get(4)?,
        message: r.get(5)?,
        created_at_ms: r.get(6)?,
        delivery: EmailDelivery {
            status: EmailStatus::from_stored(&status),
            attempts: r.get(8)?,
            last_error: r.get(9)?,
            next_attempt_at_ms: r.get(10)?,
            emailed_at_ms: r.get(11)?,
        },
    })
}

#[async_trait]
impl ContactStore for SqliteStore {
    async fn create_contact_message(&self, message: ContactRecord) -> StoreResult<()> {
        self.writer
            .write(move |conn| {
                let delivery = &message.delivery;
                conn.execute_cached(
                    &format!(
                        "INSERT INTO contact_messages ({COLUMNS})
                              VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)"
                    ),
                    params![
                        message.id.to_string(),
                        message.user_id.map(|id| id.to_string()),
                        message.name,
                        message.email,
                        message.subject,
                        message.message,
                        message.created_at_ms,
                        delivery.status.as_str(),
                        delivery.attempts,
                        delivery.last_error,
                        delivery.next_attempt_at_ms,
                        delivery.emailed_at_ms,
                    ],
                )
                .map_err(db_err)?;
                Ok(())
            })
            .await
    }

    async fn list_contact_messages(&self, limit: u32) -> StoreResult<Vec<ContactRecord>> {
        self.readers
            .read(move |conn| {
                let mut stmt = conn
                    .prepare_cached(&format!(
                        "SELECT {COLUMNS} FROM contact_messages
                         ORDER BY created_at DESC, id DESC LIMIT ?1"
                    ))
                    .map_err(db_err)?;
                stmt.query_map([limit], contact_from_row)
                    .map_err(db_err)?
                    .collect::<rusqlite::Result<Vec<_>>>()
                    .map_err(db_err)
            })
            .await
    }

    async fn claim_contact_emails(
        &self,
        now_ms: i64,
        lease_until_ms: i64,
        limit: u32,
    ) -> StoreResult<Vec<ContactRecord>> {
        self.writer
            .write(move |conn| {
                let mut stmt = conn
                    .prepare_cached(&format!(
                        "UPDATE contact_messages SET email_next_attempt_at = ?2
                         WHERE id IN (SELECT id FROM contact_messages
                                      WHERE email_status = 'pending' AND email_next_attempt_at <= ?1
                                      ORDER BY email_next_attempt_at, id LIMIT ?3)
                         RETURNING {COLUMNS}"
                    ))
                    .map_err(db_err)?;
                let mut claimed = stmt
                    .query_map(params![now_ms, lease_until_ms, limit], contact_from_row)
                    .map_err(db_err)?
                    .collect::<rusqlite::Result<Vec<_>>>()
                    .map_err(db_err)?;
                claimed.sort_by_key(|c| (c.created_at_ms, c.id));
                Ok(claimed)
            })
            .await
    }

    async fn record_contact_email(&self, id: Uuid, attempt: EmailAttempt) -> StoreResult<()> {
        let (status, error, next_at, sent_at) = match attempt {
            EmailAttempt::Sent { at_ms } => (EmailStatus::Sent, None, None, Some(at_ms)),
            EmailAttempt::Retry {
                error,
                next_attempt_at_ms,
            } => (
                EmailStatus::Pending,
                Some(error),
                Some(next_attempt_at_ms),
                None,
            ),
            EmailAttempt::GaveUp { error } => (EmailStatus::Failed, Some(error), None, None),
        };
        self.writer
            .write(move |conn| {
                conn.execute_cached(
                    "UPDATE contact_messages
                     SET email_status = ?2, email_attempts = email_attempts + 1,
                         email_last_error = ?3, email_next_attempt_at = ?4, emailed_at = ?5
                     WHERE id = ?1 AND email_status = 'pending'",
                    params![id.to_string(), status.as_str(), error, next_at, sent_at],
                )
                .map_err(db_err)?;
                Ok(())
            })
            .await
    }

    async fn next_contact_email_at(&self) -> StoreResult<Option<i64>> {
        self.readers
            .read(|conn| {
                conn.query_row_cached(
                    "SELECT MIN(email_next_attempt_at) FROM contact_messages
                     WHERE email_status = 'pending'",
                    [],
                    |r| r.get(0),
                )
                .map_err(db_err)
            })
            .await
    }
}
