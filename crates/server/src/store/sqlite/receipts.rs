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
    let row: Option<(String, i64, i64, Option<String>)> = conn
        .query_row_cached(
            "SELECT user_id, bytes, created_at, version FROM receipts WHERE id = ?1",
            [id.to_string()],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .optional()
        .map_err(db_err)?;
    Ok(match row {
        None => ReceiptHolder::Nobody,
        Some((owner, bytes, created_at_ms, version)) if owner == user_id.to_string() => {
            ReceiptHolder::Me(ReceiptRecord {
                id,
                bytes,
                created_at_ms,
                version,
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
        version: &str,
        now_ms: i64,
        max_bytes: i64,
    ) -> StoreResult<ReceiptInsert> {
        let version = version.to_owned();
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
                    "INSERT INTO receipts (user_id, id, bytes, created_at, version)
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![user_id.to_string(), id.to_string(), bytes, now_ms, version],
                )
                .map_err(db_err)?;
                Ok(ReceiptInsert::Stored(ReceiptRecord {
                    id,
                    bytes,
                    created_at_ms: now_ms,
                    version: Some(version),
                }))
            })
            .await
    }

    async fn delete_receipt(&self, user_id: Uuid, id: Uuid) -> StoreResult<Option<ReceiptRecord>> {
        self.writer
            .write(move |conn| {
                conn.query_row_cached(
                    "DELETE FROM receipts WHERE user_id = ?1 AND id = ?2
                     RETURNING bytes, created_at, version",
                    params![user_id.to_string(), id.to_string()],
                    |r| {
                        Ok(ReceiptRecord {
                            id,
                            bytes: r.get(0)?,
                            created_at_ms: r.get(1)?,
                            version: r.get(2)?,
                        })
                    },
                )
                .optional()
                .map_err(db_err)
            })
            .await
    }

    async fn delete_orphan_receipts(
        &self,
        created_before_ms: i64,
        limit: u32,
    ) -> StoreResult<Vec<(Uuid, ReceiptRecord)>> {
        self.writer
            .write(move |conn| {
                let mut stmt = conn
                    // Each live expense or evidence item of a user with old receipts is read
                    // once per sweep, not once per receipt. An expense lists its photos, an
                    // evidence item names its one.
                    .prepare_cached(
                        "WITH listed (user_id, id) AS (
                             SELECT r.user_id, receipt.value
                             FROM records r, json_each(r.content, '$.receipts') receipt
                             WHERE r.kind = 'expense' AND r.deleted = 0
                               AND r.user_id IN (SELECT user_id FROM receipts
                                                 WHERE created_at < ?1)
                             UNION ALL
                             SELECT r.user_id, json_extract(r.content, '$.photoId')
                             FROM records r
                             WHERE r.kind = 'evidence' AND r.deleted = 0
                               AND json_extract(r.content, '$.photoId') IS NOT NULL
                               AND r.user_id IN (SELECT user_id FROM receipts
                                                 WHERE created_at < ?1))
                         DELETE FROM receipts WHERE (user_id, id) IN (
                             SELECT rc.user_id, rc.id FROM receipts rc
                             WHERE rc.created_at < ?1
                               AND (rc.user_id, rc.id) NOT IN (SELECT user_id, id FROM listed)
                             LIMIT ?2)
                         RETURNING user_id, id, bytes, created_at, version",
                    )
                    .map_err(db_err)?;
                type Row = (String, String, i64, i64, Option<String>);
                let rows = stmt
                    .query_map(params![created_before_ms, limit], |r| {
                        Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
                    })
                    .map_err(db_err)?
                    .collect::<rusqlite::Result<Vec<Row>>>()
                    .map_err(db_err)?;
                rows.into_iter()
                    .map(|(user, id, bytes, created_at_ms, version)| {
                        let parse = |raw: &str| {
                            Uuid::parse_str(raw).map_err(|e| StoreError::Backend(e.into()))
                        };
                        let record = ReceiptRecord {
                            id: parse(&id)?,
                            bytes,
                            created_at_ms,
                            version,
                        };
                        Ok((parse(&user)?, record))
                    })
                    .collect()
            })
            .await
    }
}
