//! OpenID identities and pending sign-ins. A user and its identity are written in one
//! transaction, so they appear together or not at all.

use async_trait::async_trait;
use deadpool_postgres::GenericClient;
use uuid::Uuid;

use super::{
    PgStore,
    accounts::{USER_COLUMNS, user_from_row},
    db_err, unique_or,
};
use crate::store::{
    ExternalIdentity, IdentityStore, NewUser, OidcRequest, StoreError, StoreResult, UserRecord,
};

async fn insert_identity(
    client: &impl GenericClient,
    user_id: Uuid,
    identity: &ExternalIdentity,
    now_ms: i64,
) -> StoreResult<()> {
    client
        .execute(
            "INSERT INTO user_identities (issuer, subject, user_id, created_at)
             VALUES ($1, $2, $3, $4)",
            &[&identity.issuer, &identity.subject, &user_id, &now_ms],
        )
        .await
        .map_err(|e| unique_or(e, "identity"))?;
    Ok(())
}

fn vanished() -> StoreError {
    StoreError::Backend(anyhow::anyhow!("user vanished during an identity write"))
}

#[async_trait]
impl IdentityStore for PgStore {
    async fn find_identity_user(&self, identity: &ExternalIdentity) -> StoreResult<Option<Uuid>> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                "SELECT user_id FROM user_identities WHERE issuer = $1 AND subject = $2",
                &[&identity.issuer, &identity.subject],
            )
            .await
            .map_err(db_err)?;
        Ok(row.map(|r| r.get(0)))
    }

    async fn create_user_with_identity(
        &self,
        user: NewUser,
        identity: ExternalIdentity,
    ) -> StoreResult<UserRecord> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(db_err)?;
        let row = tx
            .query_one(
                &format!(
                    "INSERT INTO users (id, email, password_hash, display_name, is_anonymous,
                                        created_at, last_login, updated_at)
                     VALUES ($1, $2, NULL, $3, FALSE, $4, $4, $4)
                     RETURNING {USER_COLUMNS}"
                ),
                &[&user.id, &user.email, &user.display_name, &user.now_ms],
            )
            .await
            .map_err(|e| unique_or(e, "email"))?;
        super::sync::insert_starter_records(&tx, user.id, user.now_ms).await?;
        insert_identity(&tx, user.id, &identity, user.now_ms).await?;
        tx.commit().await.map_err(db_err)?;
        Ok(user_from_row(&row))
    }

    async fn link_identity(
        &self,
        user_id: Uuid,
        identity: ExternalIdentity,
        display_name: Option<String>,
        now_ms: i64,
    ) -> StoreResult<UserRecord> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(db_err)?;
        insert_identity(&tx, user_id, &identity, now_ms).await?;
        // The profile record changes (no longer anonymous): move the change sequence so the
        // user's other devices pull it.
        let row = tx
            .query_opt(
                &format!(
                    "UPDATE users SET is_anonymous = FALSE,
                                      display_name = COALESCE(display_name, $2),
                                      last_login = $3, updated_at = $3,
                                      change_seq = change_seq + 1,
                                      profile_version = change_seq + 1
                     WHERE id = $1 RETURNING {USER_COLUMNS}"
                ),
                &[&user_id, &display_name, &now_ms],
            )
            .await
            .map_err(db_err)?
            .ok_or_else(vanished)?;
        tx.commit().await.map_err(db_err)?;
        Ok(user_from_row(&row))
    }

    async fn put_oidc_request(&self, request: OidcRequest) -> StoreResult<()> {
        let client = self.client().await?;
        client
            .execute(
                "DELETE FROM oidc_requests WHERE expires_at <= $1",
                &[&request.created_at_ms],
            )
            .await
            .map_err(db_err)?;
        client
            .execute(
                "INSERT INTO oidc_requests
                     (state, nonce, pkce_verifier, link_user_id, created_at, expires_at)
                 VALUES ($1, $2, $3, $4, $5, $6)",
                &[
                    &request.state,
                    &request.nonce,
                    &request.pkce_verifier,
                    &request.link_user_id,
                    &request.created_at_ms,
                    &request.expires_at_ms,
                ],
            )
            .await
            .map_err(db_err)?;
        Ok(())
    }

    async fn take_oidc_request(
        &self,
        state: &str,
        now_ms: i64,
    ) -> StoreResult<Option<OidcRequest>> {
        let client = self.client().await?;
        // DELETE … RETURNING: of two racing callbacks only one gets the row.
        let row = client
            .query_opt(
                "DELETE FROM oidc_requests WHERE state = $1
                 RETURNING state, nonce, pkce_verifier, link_user_id, created_at, expires_at",
                &[&state],
            )
            .await
            .map_err(db_err)?;
        Ok(row
            .map(|r| OidcRequest {
                state: r.get(0),
                nonce: r.get(1),
                pkce_verifier: r.get(2),
                link_user_id: r.get(3),
                created_at_ms: r.get(4),
                expires_at_ms: r.get(5),
            })
            .filter(|request| request.expires_at_ms > now_ms))
    }
}
