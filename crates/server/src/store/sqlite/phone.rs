//! Phone sign-in: identities, codes, send log, used captchas, server keys.

use super::Cached as _;
use async_trait::async_trait;
use domain::phone::{NUMBER_WINDOW_MS, RATE_WINDOW_MS, RecentSends, check_send};
use rusqlite::{Connection, OptionalExtension, params, params_from_iter, types::Value};
use uuid::Uuid;

use super::{SqliteStore, accounts::select_user, db_err, is_unique_violation};
use crate::store::{
    PhoneStore, StoreError, StoreResult, UserRecord,
    phone::{
        Limits, PhoneCodeCheck, PhoneCodeStart, PhoneSignIn, PhoneSignInRequest, SendOutcome,
        SendVolume,
    },
};

const VOLUME_SQL: &str = "SELECT COUNT(*), COALESCE(SUM(CASE WHEN ip = ?2 THEN 1 ELSE 0 END), 0)
                          FROM phone_sends WHERE sent_at > ?1";

fn count(n: i64) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Newest first, at most `limit`, of the send times matching `filter` after `since`.
fn send_times(
    conn: &Connection,
    filter: &str,
    key: Option<&str>,
    since: i64,
    limit: u32,
) -> StoreResult<Vec<i64>> {
    let sql = format!(
        "SELECT sent_at FROM phone_sends WHERE {filter} sent_at > ?1 ORDER BY sent_at DESC LIMIT ?2"
    );
    let mut stmt = conn.prepare_cached(&sql).map_err(db_err)?;
    let mut values = vec![
        Value::Integer(since),
        Value::Integer(i64::from(limit.max(1))),
    ];
    values.extend(key.map(|k| Value::Text(k.to_owned())));
    stmt.query_map(params_from_iter(values), |r| r.get(0))
        .map_err(db_err)?
        .collect::<rusqlite::Result<Vec<i64>>>()
        .map_err(db_err)
}

fn owner_of(conn: &Connection, phone: &str) -> StoreResult<Option<Uuid>> {
    let id: Option<String> = conn
        .query_row_cached(
            "SELECT user_id FROM phone_identities WHERE phone = ?1",
            [phone],
            |r| r.get(0),
        )
        .optional()
        .map_err(db_err)?;
    Ok(id.and_then(|id| Uuid::parse_str(&id).ok()))
}

fn user_or_vanished(conn: &Connection, id: Uuid) -> StoreResult<crate::store::UserRecord> {
    select_user(conn, id)?.ok_or_else(|| StoreError::Backend(anyhow::anyhow!("user {id} vanished")))
}

fn complete(conn: &Connection, request: PhoneSignInRequest) -> StoreResult<PhoneSignIn> {
    let now = request.now_ms;
    let phone: Option<String> = conn
        .query_row_cached(
            "DELETE FROM phone_codes WHERE id = ?1 RETURNING phone",
            [request.verification_id.to_string()],
            |r| r.get(0),
        )
        .optional()
        .map_err(db_err)?;
    let Some(phone) = phone else {
        return Ok(PhoneSignIn::CodeGone);
    };
    let owner = owner_of(conn, &phone)?;
    let user_id = match (request.link_to, owner) {
        (Some(me), Some(owner)) if me == owner => me,
        (Some(_), Some(_)) => return Ok(PhoneSignIn::IdentityInUse),
        (Some(me), None) => {
            let has_phone: bool = conn
                .query_row_cached(
                    "SELECT EXISTS(SELECT 1 FROM phone_identities WHERE user_id = ?1)",
                    [me.to_string()],
                    |r| r.get(0),
                )
                .map_err(db_err)?;
            if has_phone {
                return Ok(PhoneSignIn::AlreadyHasPhone);
            }
            conn.execute_cached(
                "INSERT INTO phone_identities (phone, user_id, created_at) VALUES (?1, ?2, ?3)",
                params![phone, me.to_string(), now],
            )
            .map_err(db_err)?;
            // No longer a guest: a profile change that every device of the user syncs.
            let cursor: i64 = conn
                .query_row_cached(
                    "UPDATE users SET is_anonymous = 0, last_login = ?2, updated_at = ?2,
                                      change_seq = change_seq + 1, profile_version = change_seq + 1
                     WHERE id = ?1 RETURNING change_seq",
                    params![me.to_string(), now],
                    |r| r.get(0),
                )
                .map_err(db_err)?;
            return Ok(PhoneSignIn::SignedIn {
                user: user_or_vanished(conn, me)?,
                is_new_user: false,
                profile_cursor: Some(cursor),
            });
        }
        (None, Some(owner)) => owner,
        (None, None) => {
            let new = request.new_user;
            conn.execute_cached(
                "INSERT INTO users (id, email, password_hash, display_name, is_anonymous,
                                    created_at, last_login, updated_at)
                 VALUES (?1, NULL, NULL, ?2, 0, ?3, ?3, ?3)",
                params![new.id.to_string(), new.display_name, new.now_ms],
            )
            .map_err(db_err)?;
            super::sync::insert_starter_records(conn, new.id, new.now_ms)?;
            conn.execute_cached(
                "INSERT INTO phone_identities (phone, user_id, created_at) VALUES (?1, ?2, ?3)",
                params![phone, new.id.to_string(), now],
            )
            .map_err(db_err)?;
            return Ok(PhoneSignIn::SignedIn {
                user: user_or_vanished(conn, new.id)?,
                is_new_user: true,
                profile_cursor: None,
            });
        }
    };
    conn.execute_cached(
        "UPDATE users SET last_login = ?2 WHERE id = ?1",
        params![user_id.to_string(), now],
    )
    .map_err(db_err)?;
    Ok(PhoneSignIn::SignedIn {
        user: user_or_vanished(conn, user_id)?,
        is_new_user: false,
        profile_cursor: None,
    })
}

#[async_trait]
impl PhoneStore for SqliteStore {
    async fn find_user_by_phone(&self, phone: &str) -> StoreResult<Option<UserRecord>> {
        let phone = phone.to_owned();
        self.readers
            .read(move |conn| {
                let user_id: Option<String> = conn
                    .query_row_cached(
                        "SELECT user_id FROM phone_identities WHERE phone = ?1",
                        [phone],
                        |row| row.get(0),
                    )
                    .optional()
                    .map_err(db_err)?;
                match user_id.map(|id| Uuid::parse_str(&id)) {
                    Some(Ok(id)) => select_user(conn, id),
                    Some(Err(err)) => Err(StoreError::Backend(err.into())),
                    None => Ok(None),
                }
            })
            .await
    }

    async fn user_phones(&self) -> StoreResult<Vec<(Uuid, String)>> {
        self.readers
            .read(|conn| {
                let mut stmt = conn
                    .prepare("SELECT user_id, phone FROM phone_identities")
                    .map_err(db_err)?;
                let rows = stmt
                    .query_map([], |row| {
                        Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?))
                    })
                    .map_err(db_err)?;
                let mut phones = Vec::new();
                for row in rows {
                    let (id, phone) = row.map_err(db_err)?;
                    let id = Uuid::parse_str(&id).map_err(|e| StoreError::Backend(e.into()))?;
                    phones.push((id, phone));
                }
                Ok(phones)
            })
            .await
    }

    async fn server_key(&self, name: &str, candidate: Vec<u8>) -> StoreResult<Vec<u8>> {
        let name = name.to_owned();
        self.writer
            .write(move |conn| {
                conn.execute_cached(
                    "INSERT INTO server_keys (name, key) VALUES (?1, ?2) ON CONFLICT DO NOTHING",
                    params![name, candidate],
                )
                .map_err(db_err)?;
                conn.query_row_cached("SELECT key FROM server_keys WHERE name = ?1", [name], |r| {
                    r.get(0)
                })
                .map_err(db_err)
            })
            .await
    }

    async fn use_captcha(
        &self,
        challenge: &str,
        expires_at_ms: i64,
        now_ms: i64,
    ) -> StoreResult<bool> {
        let challenge = challenge.to_owned();
        self.writer
            .write(move |conn| {
                conn.execute_cached(
                    "DELETE FROM captcha_solutions WHERE expires_at <= ?1",
                    [now_ms],
                )
                .map_err(db_err)?;
                match conn.execute_cached(
                    "INSERT INTO captcha_solutions (challenge, expires_at) VALUES (?1, ?2)",
                    params![challenge, expires_at_ms],
                ) {
                    Ok(_) => Ok(true),
                    Err(err) if is_unique_violation(&err) => Ok(false),
                    Err(err) => Err(db_err(err)),
                }
            })
            .await
    }

    async fn phone_send_volume(&self, ip: &str, now_ms: i64) -> StoreResult<SendVolume> {
        let ip = ip.to_owned();
        self.readers
            .read(move |conn| {
                conn.query_row_cached(VOLUME_SQL, params![now_ms - RATE_WINDOW_MS, ip], |r| {
                    Ok(SendVolume {
                        global: count(r.get(0)?),
                        prefix: count(r.get(1)?),
                    })
                })
                .map_err(db_err)
            })
            .await
    }

    async fn start_phone_code(
        &self,
        start: PhoneCodeStart,
        limits: Limits,
    ) -> StoreResult<SendOutcome> {
        self.writer
            .write(move |conn| {
                let now = start.now_ms;
                conn.execute_cached(
                    "DELETE FROM phone_sends WHERE sent_at <= ?1",
                    [now - NUMBER_WINDOW_MS],
                )
                .map_err(db_err)?;
                conn.execute_cached("DELETE FROM phone_codes WHERE expires_at <= ?1", [now])
                    .map_err(db_err)?;
                let recent = RecentSends {
                    number: send_times(
                        conn,
                        "phone = ?3 AND",
                        Some(&start.phone),
                        now - NUMBER_WINDOW_MS,
                        limits.per_number_per_hour,
                    )?,
                    ip: send_times(
                        conn,
                        "ip = ?3 AND",
                        Some(&start.ip),
                        now - RATE_WINDOW_MS,
                        limits.per_ip_per_minute,
                    )?,
                    global: send_times(
                        conn,
                        "",
                        None,
                        now - RATE_WINDOW_MS,
                        limits.global_per_minute,
                    )?,
                };
                if let Err(refusal) = check_send(&recent, &limits, now) {
                    return Ok(Err(refusal));
                }
                conn.execute_cached(
                    "INSERT INTO phone_sends (phone, ip, sent_at) VALUES (?1, ?2, ?3)",
                    params![start.phone, start.ip, now],
                )
                .map_err(db_err)?;
                conn.execute_cached(
                    "INSERT INTO phone_codes (phone, id, code_salt, code_hash, attempts_left, expires_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                     ON CONFLICT (phone) DO UPDATE SET
                         id = excluded.id, code_salt = excluded.code_salt,
                         code_hash = excluded.code_hash, attempts_left = excluded.attempts_left,
                         expires_at = excluded.expires_at",
                    params![
                        start.phone,
                        start.verification_id.to_string(),
                        start.code_salt,
                        start.code_hash,
                        start.attempts,
                        start.expires_at_ms
                    ],
                )
                .map_err(db_err)?;
                Ok(Ok(()))
            })
            .await
    }

    async fn spend_phone_code_attempt(
        &self,
        verification_id: Uuid,
        now_ms: i64,
    ) -> StoreResult<Option<PhoneCodeCheck>> {
        self.writer
            .write(move |conn| {
                conn.query_row_cached(
                    "UPDATE phone_codes SET attempts_left = attempts_left - 1
                     WHERE id = ?1 AND attempts_left > 0 AND expires_at > ?2
                     RETURNING phone, code_salt, code_hash",
                    params![verification_id.to_string(), now_ms],
                    |r| {
                        Ok(PhoneCodeCheck {
                            phone: r.get(0)?,
                            code_salt: r.get(1)?,
                            code_hash: r.get(2)?,
                        })
                    },
                )
                .optional()
                .map_err(db_err)
            })
            .await
    }

    async fn complete_phone_sign_in(
        &self,
        request: PhoneSignInRequest,
    ) -> StoreResult<PhoneSignIn> {
        self.writer.write(move |conn| complete(conn, request)).await
    }
}
