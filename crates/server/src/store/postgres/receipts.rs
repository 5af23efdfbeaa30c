//! Receipt photos' ledger on PostgreSQL. The insert locks the user's row first, so one user's
//! inserts (and their quota checks) run one at a time across every server process.

use async_trait::async_trait;
use deadpool_postgres::GenericClient;
use uuid::Uuid;

use super::{PgStore, db_err};
use crate::store::{
    ReceiptStore, StoreResult,
    receipts::{ReceiptHolder, ReceiptInsert, ReceiptRecord},
};

async fn holder(
    client: &impl GenericClient,
    user_id: Uuid,
    id: Uuid,
) -> StoreResult<ReceiptHolder> {
    let row = client
        .query_opt(
            "SELECT user_id, bytes, created_at, version FROM receipts WHERE id = $1",
            &[&id],
        )
        .await
        .map_err(db_err)?;
    Ok(match row {
        None => ReceiptHolder::Nobody,
        Some(row) if row.get::<_, Uuid>(0) == user_id => ReceiptHolder::Me(ReceiptRecord {
            id,
            bytes: row.get(1),
            created_at_ms: row.get(2),
            version: row.get(3),
        }),
        Some(_) => ReceiptHolder::Other,
    })
}

async fn bytes_held(client: &impl GenericClient, user_id: Uuid) -> StoreResult<i64> {
    let row = client
        .query_one(
            "SELECT COALESCE(SUM(bytes), 0)::BIGINT FROM receipts WHERE user_id = $1",
            &[&user_id],
        )
        .await
        .map_err(db_err)?;
    Ok(row.get(0))
}

#[async_trait]
impl ReceiptStore for PgStore {
    async fn find_receipt(&self, user_id: Uuid, id: Uuid) -> StoreResult<ReceiptHolder> {
        let client = self.client().await?;
        holder(&client, user_id, id).await
    }

    async fn receipt_bytes(&self, user_id: Uuid) -> StoreResult<i64> {
        let client = self.client().await?;
        bytes_held(&client, user_id).await
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
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(db_err)?;
        tx.execute("SELECT 1 FROM users WHERE id = $1 FOR UPDATE", &[&user_id])
            .await
            .map_err(db_err)?;
        match holder(&tx, user_id, id).await? {
            ReceiptHolder::Me(record) => return Ok(ReceiptInsert::Existing(record)),
            ReceiptHolder::Other => return Ok(ReceiptInsert::OtherHolder),
            ReceiptHolder::Nobody => {}
        }
        if bytes_held(&tx, user_id).await?.saturating_add(bytes) > max_bytes {
            return Ok(ReceiptInsert::OverQuota);
        }
        // Another account may claim the id at the same moment (only this user is locked).
        let inserted = tx
            .execute(
                "INSERT INTO receipts (user_id, id, bytes, created_at, version)
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
                &[&user_id, &id, &bytes, &now_ms, &version],
            )
            .await
            .map_err(db_err)?;
        tx.commit().await.map_err(db_err)?;
        Ok(if inserted == 1 {
            ReceiptInsert::Stored(ReceiptRecord {
                id,
                bytes,
                created_at_ms: now_ms,
                version: Some(version.to_owned()),
            })
        } else {
            ReceiptInsert::OtherHolder
        })
    }

    async fn delete_receipt(&self, user_id: Uuid, id: Uuid) -> StoreResult<Option<ReceiptRecord>> {
        let client = self.client().await?;
        let removed = client
            .query_opt(
                "DELETE FROM receipts WHERE user_id = $1 AND id = $2
                 RETURNING bytes, created_at, version",
                &[&user_id, &id],
            )
            .await
            .map_err(db_err)?;
        Ok(removed.map(|row| ReceiptRecord {
            id,
            bytes: row.get(0),
            created_at_ms: row.get(1),
            version: row.get(2),
        }))
    }

    async fn delete_orphan_receipts(
        &self,
        created_before_ms: i64,
        limit: u32,
    ) -> StoreResult<Vec<(Uuid, ReceiptRecord)>> {
        let client = self.client().await?;
        let rows = client
            .query(
                // Each live expense or evidence item of a user with old receipts is parsed once
                // per sweep, not once per receipt. An expense lists its photos, an evidence item
                // names its one.
                "WITH listed AS MATERIALIZED (
                     SELECT r.user_id,
                            jsonb_array_elements_text(r.content::jsonb -> 'receipts')::uuid AS id
                     FROM records r
                     WHERE r.kind = 'expense' AND NOT r.deleted
                       AND r.user_id IN (SELECT user_id FROM receipts WHERE created_at < $1)
                     UNION ALL
                     SELECT r.user_id, (r.content::jsonb ->> 'photoId')::uuid AS id
                     FROM records r
                     WHERE r.kind = 'evidence' AND NOT r.deleted
                       AND r.content::jsonb ->> 'photoId' IS NOT NULL
                       AND r.user_id IN (SELECT user_id FROM receipts WHERE created_at < $1))
                 DELETE FROM receipts WHERE (user_id, id) IN (
                     SELECT rc.user_id, rc.id FROM receipts rc
                     WHERE rc.created_at < $1
                       AND NOT EXISTS (SELECT 1 FROM listed
                                       WHERE listed.user_id = rc.user_id AND listed.id = rc.id)
                     LIMIT $2
                     FOR UPDATE SKIP LOCKED)
                 RETURNING user_id, id, bytes, created_at, version",
                &[&created_before_ms, &i64::from(limit)],
            )
            .await
            .map_err(db_err)?;
        Ok(rows
            .iter()
            .map(|r| {
                let record = ReceiptRecord {
                    id: r.get(1),
                    bytes: r.get(2),
                    created_at_ms: r.get(3),
                    version: r.get(4),
                };
                (r.get(0), record)
            })
            .collect())
    }
}
