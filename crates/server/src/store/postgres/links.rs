//! Reset and invitation links.

use async_trait::async_trait;
use tokio_postgres::Row;
use uuid::Uuid;

use super::{
    PgStore, accounts::USER_COLUMNS, accounts::insert_user, accounts::user_from_row, db_err,
};
use crate::store::{
    NewUser, StoreError, StoreResult,
    links::{EmailLink, InviteUse, LinkPurpose, LinkStore, NewEmailLink, PasswordReset},
};

fn link_from_row(row: &Row) -> StoreResult<EmailLink> {
    let purpose: String = row.get(0);
    Ok(EmailLink {
        purpose: LinkPurpose::from_stored(&purpose).ok_or_else(|| {
            StoreError::Backend(anyhow::anyhow!("unknown link purpose {purpose}"))
        })?,
        email: row.get(1),
        user_id: row.get(2),
        created_at_ms: row.get(3),
        expires_at_ms: row.get(4),
    })
}

#[async_trait]
impl LinkStore for PgStore {
    async fn create_email_link(&self, link: NewEmailLink) -> StoreResult<()> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(db_err)?;
        tx.execute(
            "DELETE FROM email_links WHERE expires_at <= $1",
            &[&link.now_ms],
        )
        .await
        .map_err(db_err)?;
        if link.purpose == LinkPurpose::Invite {
            tx.execute(
                "DELETE FROM email_links WHERE purpose = 'invite' AND email = $1",
                &[&link.email],
            )
            .await
            .map_err(db_err)?;
        }
        tx.execute(
            "INSERT INTO email_links (token_hash, purpose, email, user_id, created_at, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6)",
            &[
                &link.token_hash,
                &link.purpose.as_str(),
                &link.email,
                &link.user_id,
                &link.now_ms,
                &link.expires_at_ms,
            ],
        )
        .await
        .map_err(db_err)?;
        tx.commit().await.map_err(db_err)
    }

    async fn find_email_link(
        &self,
        token_hash: &str,
        now_ms: i64,
    ) -> StoreResult<Option<EmailLink>> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                "SELECT purpose, email, user_id, created_at, expires_at FROM email_links
                 WHERE token_hash = $1 AND expires_at > $2",
                &[&token_hash, &now_ms],
            )
            .await
            .map_err(db_err)?;
        row.as_ref().map(link_from_row).transpose()
    }

    async fn reset_password_with_link(
        &self,
        token_hash: &str,
        password_hash: &str,
        now_ms: i64,
    ) -> StoreResult<Option<PasswordReset>> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(db_err)?;
        // Deleting the row locks it: of two uses at once, the second finds nothing.
        let Some(row) = tx
            .query_opt(
                "DELETE FROM email_links
                 WHERE token_hash = $1 AND purpose = 'password-reset' AND expires_at > $2
                 RETURNING user_id",
                &[&token_hash, &now_ms],
            )
            .await
            .map_err(db_err)?
        else {
            return Ok(None);
        };
        let user_id: Uuid = row.get(0);
        tx.execute(
            "DELETE FROM email_links WHERE user_id = $1 AND purpose = 'password-reset'",
            &[&user_id],
        )
        .await
        .map_err(db_err)?;
        let user = tx
            .query_one(
                &format!(
                    "UPDATE users SET password_hash = $2, must_change_password = FALSE,
                                      updated_at = $3
                     WHERE id = $1 RETURNING {USER_COLUMNS}"
                ),
                &[&user_id, &password_hash, &now_ms],
            )
            .await
            .map_err(db_err)?;
        let ended = tx
            .query(
                "DELETE FROM sessions WHERE user_id = $1 RETURNING token_hash",
                &[&user_id],
            )
            .await
            .map_err(db_err)?;
        tx.commit().await.map_err(db_err)?;
        Ok(Some(PasswordReset {
            user: user_from_row(&user),
            ended_sessions: ended.iter().map(|r| r.get(0)).collect(),
        }))
    }

    async fn sign_up_with_invite(&self, token_hash: &str, user: NewUser) -> StoreResult<InviteUse> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(db_err)?;
        // Deleting the row locks it: of two uses at once, the second finds nothing.
        let Some(row) = tx
            .query_opt(
                "DELETE FROM email_links
                 WHERE token_hash = $1 AND purpose = 'invite' AND expires_at > $2
                 RETURNING email",
                &[&token_hash, &user.now_ms],
            )
            .await
            .map_err(db_err)?
        else {
            return Ok(InviteUse::Gone);
        };
        let user = NewUser {
            email: Some(row.get(0)),
            ..user
        };
        match insert_user(&tx, &user).await {
            Ok(created) => {
                tx.commit().await.map_err(db_err)?;
                Ok(InviteUse::Created(created))
            }
            // Rolling back keeps the invitation.
            Err(StoreError::Conflict(_)) => {
                tx.rollback().await.map_err(db_err)?;
                Ok(InviteUse::EmailTaken)
            }
            Err(err) => Err(err),
        }
    }
}
