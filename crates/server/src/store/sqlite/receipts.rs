//! Receipt photos' ledger on SQLite. The insert's quota check runs in the same writer job as
//! the insert, and the single writer runs jobs one at a time, so the two are one step.

use super::Cached as _;
use async_trait::async_trait;
use rusqlite::{Connection, OptionalExtension, params};
use uuid::Uuid;

use super::{SqliteStore, db_err};
use crate::store::{
    ReceiptStore, StoreError, StoreResult,
    receipts::{ReceiptHolder, ReceiptInsert, ReceiptRecord},
};

fn holder(conn: &Connection, user_id: Uuid, id: Uuid) -> StoreResult<ReceiptHolder> {
    let row: Option<(String, i64, i64)> = conn
        .query_row_cached(
            "SELECT user_id, bytes, created_at FROM receipts WHERE id = ?1",
            [id.to_string()],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()
        .map_err(db_err)?;
    Ok(match row {
        None => ReceiptHolder::Nobody,
        Some((owner, bytes, created_at_ms)) if owner == user_id.to_string() => {
            ReceiptHolder::Me(ReceiptRecord {
                id,
                bytes,
                created_at_ms,
            })
        }
        Some(_) => ReceiptHolder::Other,
    })
}

fn bytes_held(conn: &Connection, user_id: Uuid) -> StoreResult<i64> {
    conn.query_row_cached(
        "SELECT COALESCE(SUM(bytes), 0) FROM receipts WHERE user_id = ?1",
        [user_id.to_string()],
        |r| r.get(0),
    )
    .map_err(db_err)
}

#[async_trait]
impl ReceiptStore for SqliteStore {
    async fn find_receipt(&self, user_id: Uuid, id: Uuid) -> StoreResult<ReceiptHolder> {
        self.readers
            .read(move |conn| holder(conn, user_id, id))
            .await
    }

    async fn receipt_bytes(&self, user_id: Uuid) -> StoreResult<i64> {
        self.readers
            .read(move |conn| bytes_held(conn, user_id))
            .await
    }

    async fn insert_receipt(
        &self,
        user_id: Uuid,
        id: Uuid,
        bytes: i64,
        now_ms: i64,
        max_bytes: i64,
    ) -> StoreResult<ReceiptInsert> {
        self.writer
            .write(move |conn| {
                match holder(conn, user_id, id)? {
                    ReceiptHolder::Me(record) => return Ok(ReceiptInsert::Existing(record)),
                    ReceiptHolder::Other => return Ok(ReceiptInsert::OtherHolder),
                    ReceiptHolder::Nobody => {}
                }
                if bytes_held(conn, user_id)?.saturating_add(bytes) > max_bytes {
                    return Ok(ReceiptInsert::OverQuota);
                }
                conn.execute_cached(
                    "INSERT INTO receipts (user_id, id, bytes, created_at) VALUES (?1, ?2, ?3, ?4)",
                    params![user_id.to_string(), id.to_string(), bytes, now_ms],
                )
                .map_err(db_err)?;
                Ok(ReceiptInsert::Stored(ReceiptRecord {
                    id,
                    bytes,
                    created_at_ms: now_ms,
                }))
            })
            .await
    }

    async fn delete_receipt(&self, user_id: Uuid, id: Uuid) -> StoreResult<bool> {
        self.writer
            .write(move |conn| {
                let removed = conn
                    .execute_cached(
                        "DELETE FROM receipts WHERE user_id = ?1 AND id = ?2",
                        params![user_id.to_string(), id.to_string()],
                    )
                    .map_err(db_err)?;
                Ok(removed > 0)
            })
            .await
    }

    async fn delete_orphan_receipts(
        &self,
        created_before_ms: i64,
        limit: u32,
    ) -> StoreResult<Vec<(Uuid, Uuid)>> {
        self.writer
            .write(move |conn| {
                let mut stmt = conn
                    // Each live expense of a user with old receipts is read once per sweep,
                    // not once per receipt.
                    .prepare_cached(
                        "WITH listed (user_id, id) AS (
                             SELECT r.user_id, receipt.value
                             FROM records r, json_each(r.content, '$.receipts') receipt
                             WHERE r.kind = 'expense' AND r.deleted = 0
                               AND r.user_id IN (SELECT user_id FROM receipts
                                                 WHERE created_at < ?1))
                         DELETE FROM receipts WHERE (user_id, id) IN (
                             SELECT rc.user_id, rc.id FROM receipts rc
                             WHERE rc.created_at < ?1
                               AND (rc.user_id, rc.id) NOT IN (SELECT user_id, id FROM listed)
                             LIMIT ?2)
                         RETURNING user_id, id",
                    )
                    .map_err(db_err)?;
                let rows = stmt
                    .query_map(params![created_before_ms, limit], |r| {
                        Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
                    })
                    .map_err(db_err)?
                    .collect::<rusqlite::Result<Vec<_>>>()
                    .map_err(db_err)?;
                rows.iter()
                    .map(|(user, id)| {
                        let parse = |raw: &str| {
                            Uuid::parse_str(raw).map_err(|e| StoreError::Backend(e.into()))
                        };
                        Ok((parse(user)?, parse(id)?))
                    })
                    .collect()
            })
            .await
    }
}
