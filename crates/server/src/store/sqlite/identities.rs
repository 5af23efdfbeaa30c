//! OpenID identities and pending sign-ins. Each write runs in one writer job (a savepoint),
//! so a user and its identity appear together or not at all.

use super::Cached as _;
use async_trait::async_trait;
use rusqlite::{Connection, OptionalExtension, params};
use uuid::Uuid;

use super::{SqliteStore, accounts::select_user, conflict_as, db_err};
use crate::store::{
    ExternalIdentity, IdentityStore, NewUser, OidcRequest, StoreError, StoreResult, UserRecord,
};

fn insert_identity(
    conn: &Connection,
    user_id: Uuid,
    identity: &ExternalIdentity,
    now_ms: i64,
) -> StoreResult<()> {
    conn.execute_cached(
        "INSERT INTO user_identities (issuer, subject, user_id, created_at)
         VALUES (?1, ?2, ?3, ?4)",
        params![
            identity.issuer,
            identity.subject,
            user_id.to_string(),
            now_ms
        ],
    )
    .map_err(conflict_as("identity"))?;
    Ok(())
}

fn vanished() -> StoreError {
    StoreError::Backend(anyhow::anyhow!("user vanished during an identity write"))
}

#[async_trait]
impl IdentityStore for SqliteStore {
    async fn find_identity_user(&self, identity: &ExternalIdentity) -> StoreResult<Option<Uuid>> {
        let identity = identity.clone();
        self.readers
            .read(move |conn| {
                let id: Option<String> = conn
                    .query_row_cached(
                        "SELECT user_id FROM user_identities WHERE issuer = ?1 AND subject = ?2",
                        params![identity.issuer, identity.subject],
                        |r| r.get(0),
                    )
                    .optional()
                    .map_err(db_err)?;
                Ok(id.and_then(|id| Uuid::parse_str(&id).ok()))
            })
            .await
    }

    async fn create_user_with_identity(
        &self,
        user: NewUser,
        identity: ExternalIdentity,
    ) -> StoreResult<UserRecord> {
        self.writer
            .write(move |conn| {
                conn.execute_cached(
                    "INSERT INTO users (id, email, password_hash, display_name, is_anonymous,
                                        created_at, last_login, updated_at)
                     VALUES (?1, ?2, NULL, ?3, 0, ?4, ?4, ?4)",
                    params![
                        user.id.to_string(),
                        user.email,
                        user.display_name,
                        user.now_ms
                    ],
                )
                .map_err(conflict_as("email"))?;
                super::sync::insert_starter_records(conn, user.id, user.now_ms)?;
                insert_identity(conn, user.id, &identity, user.now_ms)?;
                select_user(conn, user.id)?.ok_or_else(vanished)
            })
            .await
    }

    async fn link_identity(
        &self,
        user_id: Uuid,
        identity: ExternalIdentity,
        display_name: Option<String>,
        now_ms: i64,
    ) -> StoreResult<UserRecord> {
        self.writer
            .write(move |conn| {
                insert_identity(conn, user_id, &identity, now_ms)?;
                // The profile record changes (no longer anonymous): move the change sequence
                // so the user's other devices pull it.
                let updated = conn
                    .execute_cached(
                        "UPDATE users SET is_anonymous = 0,
                                          display_name = COALESCE(display_name, ?2),
                                          last_login = ?3, updated_at = ?3,
                                          change_seq = change_seq + 1,
                                          profile_version = change_seq + 1
                         WHERE id = ?1",
                        params![user_id.to_string(), display_name, now_ms],
                    )
                    .map_err(db_err)?;
                if updated == 0 {
                    return Err(vanished());
                }
                select_user(conn, user_id)?.ok_or_else(vanished)
            })
            .await
    }

    async fn put_oidc_request(&self, request: OidcRequest) -> StoreResult<()> {
        self.writer
            .write(move |conn| {
                conn.execute_cached(
                    "DELETE FROM oidc_requests WHERE expires_at <= ?1",
                    [request.created_at_ms],
                )
                .map_err(db_err)?;
                conn.execute_cached(
                    "INSERT INTO oidc_requests
                         (state, nonce, pkce_verifier, link_user_id, created_at, expires_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    params![
                        request.state,
                        request.nonce,
                        request.pkce_verifier,
                        request.link_user_id.map(|id| id.to_string()),
                        request.created_at_ms,
                        request.expires_at_ms
                    ],
                )
                .map_err(db_err)?;
                Ok(())
            })
            .await
    }

    async fn take_oidc_request(
        &self,
        state: &str,
        now_ms: i64,
    ) -> StoreResult<Option<OidcRequest>> {
        let state = state.to_owned();
        self.writer
            .write(move |conn| {
                conn.query_row_cached(
                    "DELETE FROM oidc_requests WHERE state = ?1
                     RETURNING state, nonce, pkce_verifier, link_user_id, created_at, expires_at",
                    [state],
                    |r| {
                        let link: Option<String> = r.get(3)?;
                        Ok(OidcRequest {
                            state: r.get(0)?,
                            nonce: r.get(1)?,
                            pkce_verifier: r.get(2)?,
                            link_user_id: link.and_then(|id| Uuid::parse_str(&id).ok()),
                            created_at_ms: r.get(4)?,
                            expires_at_ms: r.get(5)?,
                        })
                    },
                )
                .optional()
                .map_err(db_err)
                .map(|found| found.filter(|request| request.expires_at_ms > now_ms))
            })
            .await
    }
}
