//! Phone sign-in: identities, codes, send log, used captchas, server keys.

use async_trait::async_trait;
use deadpool_postgres::Transaction;
use domain::phone::{NUMBER_WINDOW_MS, RATE_WINDOW_MS, RecentSends, check_send};
use uuid::Uuid;

use super::{
    PgStore,
    accounts::{USER_COLUMNS, user_from_row},
    db_err, unique_or,
};
use crate::store::{
    PhoneStore, StoreError, StoreResult, UserRecord,
    phone::{
        Limits, PhoneCodeCheck, PhoneCodeStart, PhoneSignIn, PhoneSignInRequest, SendOutcome,
        SendVolume,
    },
};

/// Serialises code sends across processes, so the limits hold under concurrency (sends are rare).
const SEND_LOCK_KEY: i64 = 0x7068_6f6e_6573_6e64; // "phonesnd"

async fn send_times(
    tx: &Transaction<'_>,
    filter: &str,
    key: Option<&str>,
    since: i64,
    limit: u32,
) -> StoreResult<Vec<i64>> {
    let sql = format!(
        "SELECT sent_at FROM phone_sends WHERE {filter} sent_at > $1 ORDER BY sent_at DESC LIMIT $2"
    );
    let limit = i64::from(limit.max(1));
    let rows = match key {
        Some(key) => tx.query(&sql, &[&since, &limit, &key]).await,
        None => tx.query(&sql, &[&since, &limit]).await,
    }
    .map_err(db_err)?;
    Ok(rows.iter().map(|r| r.get(0)).collect())
}

async fn user(tx: &Transaction<'_>, id: Uuid) -> StoreResult<UserRecord> {
    let row = tx
        .query_opt(
            &format!("SELECT {USER_COLUMNS} FROM users WHERE id = $1"),
            &[&id],
        )
        .await
        .map_err(db_err)?
        .ok_or_else(|| StoreError::Backend(anyhow::anyhow!("user {id} vanished")))?;
    Ok(user_from_row(&row))
}

async fn complete(tx: &Transaction<'_>, request: PhoneSignInRequest) -> StoreResult<PhoneSignIn> {
    let now = request.now_ms;
    let Some(row) = tx
        .query_opt(
            "DELETE FROM phone_codes WHERE id = $1 RETURNING phone",
            &[&request.verification_id],
        )
        .await
        .map_err(db_err)?
    else {
        return Ok(PhoneSignIn::CodeGone);
    };
    let phone: String = row.get(0);
    let owner: Option<Uuid> = tx
        .query_opt(
            "SELECT user_id FROM phone_identities WHERE phone = $1",
            &[&phone],
        )
        .await
        .map_err(db_err)?
        .map(|r| r.get(0));
    let user_id = match (request.link_to, owner) {
        (Some(me), Some(owner)) if me == owner => me,
        (Some(_), Some(_)) => return Ok(PhoneSignIn::IdentityInUse),
        (Some(me), None) => {
            let has_phone = tx
                .query_opt("SELECT 1 FROM phone_identities WHERE user_id = $1", &[&me])
                .await
                .map_err(db_err)?
                .is_some();
            if has_phone {
                return Ok(PhoneSignIn::AlreadyHasPhone);
            }
            tx.execute(
                "INSERT INTO phone_identities (phone, user_id, created_at) VALUES ($1, $2, $3)",
                &[&phone, &me, &now],
            )
            .await
            .map_err(|e| unique_or(e, "phone"))?;
            // No longer a guest: a profile change that every device of the user syncs.
            let cursor: i64 = tx
                .query_one(
                    "UPDATE users SET is_anonymous = FALSE, last_login = $2, updated_at = $2,
                                      change_seq = change_seq + 1, profile_version = change_seq + 1
                     WHERE id = $1 RETURNING change_seq",
                    &[&me, &now],
                )
                .await
                .map_err(db_err)?
                .get(0);
            return Ok(PhoneSignIn::SignedIn {
                user: user(tx, me).await?,
                is_new_user: false,
                profile_cursor: Some(cursor),
            });
        }
        (None, Some(owner)) => owner,
        (None, None) => {
            let new = request.new_user;
            tx.execute(
                "INSERT INTO users (id, email, password_hash, display_name, is_anonymous,
                                    created_at, last_login, updated_at)
                 VALUES ($1, NULL, NULL, $2, FALSE, $3, $3, $3)",
                &[&new.id, &new.display_name, &new.now_ms],
            )
            .await
            .map_err(db_err)?;
            super::sync::insert_starter_records(tx, new.id, new.now_ms).await?;
            tx.execute(
                "INSERT INTO phone_identities (phone, user_id, created_at) VALUES ($1, $2, $3)",
                &[&phone, &new.id, &now],
            )
            .await
            .map_err(|e| unique_or(e, "phone"))?;
            return Ok(PhoneSignIn::SignedIn {
                user: user(tx, new.id).await?,
                is_new_user: true,
                profile_cursor: None,
            });
        }
    };
    tx.execute(
        "UPDATE users SET last_login = $2 WHERE id = $1",
        &[&user_id, &now],
    )
    .await
    .map_err(db_err)?;
    Ok(PhoneSignIn::SignedIn {
        user: user(tx, user_id).await?,
        is_new_user: false,
        profile_cursor: None,
    })
}

#[async_trait]
impl PhoneStore for PgStore {
    async fn find_user_by_phone(&self, phone: &str) -> StoreResult<Option<UserRecord>> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                &format!(
                    "SELECT {USER_COLUMNS} FROM users
                     WHERE id = (SELECT user_id FROM phone_identities WHERE phone = $1)"
                ),
                &[&phone],
            )
            .await
            .map_err(db_err)?;
        Ok(row.as_ref().map(user_from_row))
    }

    async fn user_phones(&self) -> StoreResult<Vec<(Uuid, String)>> {
        let client = self.client().await?;
        let rows = client
            .query("SELECT user_id, phone FROM phone_identities", &[])
            .await
            .map_err(db_err)?;
        Ok(rows.iter().map(|row| (row.get(0), row.get(1))).collect())
    }

    async fn server_key(&self, name: &str, candidate: Vec<u8>) -> StoreResult<Vec<u8>> {
        let client = self.client().await?;
        client
            .execute(
                "INSERT INTO server_keys (name, key) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                &[&name, &candidate],
            )
            .await
            .map_err(db_err)?;
        let row = client
            .query_one("SELECT key FROM server_keys WHERE name = $1", &[&name])
            .await
            .map_err(db_err)?;
        Ok(row.get(0))
    }

    async fn use_captcha(
        &self,
        challenge: &str,
        expires_at_ms: i64,
        now_ms: i64,
    ) -> StoreResult<bool> {
        let client = self.client().await?;
        client
            .execute(
                "DELETE FROM captcha_solutions WHERE expires_at <= $1",
                &[&now_ms],
            )
            .await
            .map_err(db_err)?;
        let inserted = client
            .execute(
                "INSERT INTO captcha_solutions (challenge, expires_at) VALUES ($1, $2)
                 ON CONFLICT DO NOTHING",
                &[&challenge, &expires_at_ms],
            )
            .await
            .map_err(db_err)?;
        Ok(inserted == 1)
    }

    async fn phone_send_volume(&self, ip: &str, now_ms: i64) -> StoreResult<SendVolume> {
        let client = self.client().await?;
        let row = client
            .query_one(
                "SELECT COUNT(*), COALESCE(SUM(CASE WHEN ip = $2 THEN 1 ELSE 0 END), 0)::BIGINT
                 FROM phone_sends WHERE sent_at > $1",
                &[&(now_ms - RATE_WINDOW_MS), &ip],
            )
            .await
            .map_err(db_err)?;
        let count = |n: i64| u32::try_from(n).unwrap_or(u32::MAX);
        Ok(SendVolume {
            global: count(row.get(0)),
            prefix: count(row.get(1)),
        })
    }

    async fn start_phone_code(
        &self,
        start: PhoneCodeStart,
        limits: Limits,
    ) -> StoreResult<SendOutcome> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(db_err)?;
        let now = start.now_ms;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&SEND_LOCK_KEY])
            .await
            .map_err(db_err)?;
        tx.execute(
            "DELETE FROM phone_sends WHERE sent_at <= $1",
            &[&(now - NUMBER_WINDOW_MS)],
        )
        .await
        .map_err(db_err)?;
        tx.execute("DELETE FROM phone_codes WHERE expires_at <= $1", &[&now])
            .await
            .map_err(db_err)?;
        let recent = RecentSends {
            number: send_times(
                &tx,
                "phone = $3 AND",
                Some(&start.phone),
                now - NUMBER_WINDOW_MS,
                limits.per_number_per_hour,
            )
            .await?,
            ip: send_times(
                &tx,
                "ip = $3 AND",
                Some(&start.ip),
                now - RATE_WINDOW_MS,
                limits.per_ip_per_minute,
            )
            .await?,
            global: send_times(
                &tx,
                "",
                None,
                now - RATE_WINDOW_MS,
                limits.global_per_minute,
            )
            .await?,
        };
        if let Err(refusal) = check_send(&recent, &limits, now) {
            return Ok(Err(refusal));
        }
        tx.execute(
            "INSERT INTO phone_sends (phone, ip, sent_at) VALUES ($1, $2, $3)",
            &[&start.phone, &start.ip, &now],
        )
        .await
        .map_err(db_err)?;
        tx.execute(
            "INSERT INTO phone_codes (phone, id, code_salt, code_hash, attempts_left, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (phone) DO UPDATE SET
                 id = excluded.id, code_salt = excluded.code_salt,
                 code_hash = excluded.code_hash, attempts_left = excluded.attempts_left,
                 expires_at = excluded.expires_at",
            &[
                &start.phone,
                &start.verification_id,
                &start.code_salt,
                &start.code_hash,
                &i64::from(start.attempts),
                &start.expires_at_ms,
            ],
        )
        .await
        .map_err(db_err)?;
        tx.commit().await.map_err(db_err)?;
        Ok(Ok(()))
    }

    async fn spend_phone_code_attempt(
        &self,
        verification_id: Uuid,
        now_ms: i64,
    ) -> StoreResult<Option<PhoneCodeCheck>> {
        let client = self.client().await?;
        let row = client
            .query_opt(
                "UPDATE phone_codes SET attempts_left = attempts_left - 1
                 WHERE id = $1 AND attempts_left > 0 AND expires_at > $2
                 RETURNING phone, code_salt, code_hash",
                &[&verification_id, &now_ms],
            )
            .await
            .map_err(db_err)?;
        Ok(row.map(|r| PhoneCodeCheck {
            phone: r.get(0),
            code_salt: r.get(1),
            code_hash: r.get(2),
        }))
    }

    async fn complete_phone_sign_in(
        &self,
        request: PhoneSignInRequest,
    ) -> StoreResult<PhoneSignIn> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(db_err)?;
        let outcome = complete(&tx, request).await?;
        tx.commit().await.map_err(db_err)?;
        Ok(outcome)
    }
}
