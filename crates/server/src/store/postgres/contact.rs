//! Contact messages and the state of their e-mail copies.

use async_trait::async_trait;
use tokio_postgres::Row;
use uuid::Uuid;

use super::{PgStore, db_err};
use crate::store::{
    ContactRecord, ContactStore, EmailAttempt, EmailDelivery, EmailStatus, StoreResult,
};

const COLUMNS: &str = "id, user_id, name, email, subject, message, created_at, email_status, \
                       email_attempts, email_last_error, email_next_attempt_at, emailed_at";

fn contact_from_row(r: &Row) -> ContactRecord {
    let status: String = r.get(7);
    let attempts: i32 = r.get(8);
    ContactRecord {
        id: r.get(0),
        user_id: r.get(1),
        name: r.get(2),
        email: r.get(3),
        subject: r.get(4),
        message: r.get(5),
        created_at_ms: r.get(6),
        delivery: EmailDelivery {
            status: EmailStatus::from_stored(&status),
            attempts: u32::try_from(attempts).unwrap_or_default(),
            last_error: r.get(9),
            next_attempt_at_ms: r.get(10),
            emailed_at_ms: r.get(11),
        },
    }
}

#[async_trait]
impl ContactStore for PgStore {
    async fn create_contact_message(&self, message: ContactRecord) -> StoreResult<()> {
        let client = self.client().await?;
        let delivery = &message.delivery;
        let attempts = i32::try_from(delivery.attempts).unwrap_or(i32::MAX);
        client
            .execute(
                &format!(
                    "INSERT INTO contact_messages ({COLUMNS})
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"
                ),
                &[
                    &message.id,
                    &message.user_id,
                    &message.name,
                    &message.email,
                    &message.subject,
                    &message.message,
                    &message.created_at_ms,
                    &delivery.status.as_str(),
                    &attempts,
                    &delivery.last_error,
                    &delivery.next_attempt_at_ms,
                    &delivery.emailed_at_ms,
                ],
            )
            .await
            .map_err(db_err)?;
        Ok(())
    }

    async fn list_contact_messages(&self, limit: u32) -> StoreResult<Vec<ContactRecord>> {
        let client = self.client().await?;
        let rows = client
            .query(
                &format!(
                    "SELECT {COLUMNS} FROM contact_messages
                     ORDER BY created_at DESC, id DESC LIMIT $1"
                ),
                &[&i64::from(limit)],
            )
            .await
            .map_err(db_err)?;
        Ok(rows.iter().map(contact_from_row).collect())
    }

    /// SKIP LOCKED: two processes claiming at once each get different messages.
    async fn claim_contact_emails(
        &self,
        now_ms: i64,
        lease_until_ms: i64,
        limit: u32,
    ) -> StoreResult<Vec<ContactRecord>> {
        let client = self.client().await?;
        let rows = client
            .query(
                &format!(
                    "UPDATE contact_messages SET email_next_attempt_at = $2
                     WHERE id IN (SELECT id FROM contact_messages
                                  WHERE email_status = 'pending' AND email_next_attempt_at <= $1
                                  ORDER BY email_next_attempt_at, id LIMIT $3
                                  FOR UPDATE SKIP LOCKED)
                     RETURNING {COLUMNS}"
                ),
                &[&now_ms, &lease_until_ms, &i64::from(limit)],
            )
            .await
            .map_err(db_err)?;
        let mut claimed: Vec<_> = rows.iter().map(contact_from_row).collect();
        claimed.sort_by_key(|c| (c.created_at_ms, c.id));
        Ok(claimed)
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
        let client = self.client().await?;
        client
            .execute(
                "UPDATE contact_messages
                 SET email_status = $2, email_attempts = email_attempts + 1,
                     email_last_error = $3, email_next_attempt_at = $4, emailed_at = $5
                 WHERE id = $1 AND email_status = 'pending'",
                &[&id, &status.as_str(), &error, &next_at, &sent_at],
            )
            .await
            .map_err(db_err)?;
        Ok(())
    }

    async fn next_contact_email_at(&self) -> StoreResult<Option<i64>> {
        let client = self.client().await?;
        let row = client
            .query_one(
                "SELECT MIN(email_next_attempt_at) FROM contact_messages
                 WHERE email_status = 'pending'",
                &[],
            )
            .await
            .map_err(db_err)?;
        Ok(row.get(0))
    }
}
