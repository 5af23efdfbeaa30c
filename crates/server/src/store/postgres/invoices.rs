//! Invoice checks on PostgreSQL: the same per-record sync as entries (one change sequence, the
//! one merge rule, contentless tombstones), in their own table. Runs inside the push
//! transaction that holds the user's row lock, like `sync.rs`.

use domain::{
    entry::format_date,
    invoice::Invoice,
    merge::{Decision, Existing, Op, decide},
    sync::{Change, ChangeData, InvoiceData, MutationResult},
    time_fmt::rfc3339_from_ms,
};
use tokio_postgres::{GenericClient, Transaction};
use uuid::Uuid;

use super::{db_err, sync::existing};
use crate::store::{RecordBudget, StoreResult, not_owner};

pub async fn put(
    tx: &Transaction<'_>,
    user_id: Uuid,
    mutation_id: &str,
    invoice: &Invoice,
    (seq, budget): (&mut i64, &mut RecordBudget),
    now_ms: i64,
) -> StoreResult<MutationResult> {
    let (start, end) = (
        format_date(invoice.period_start),
        format_date(invoice.period_end),
    );
    let paid = invoice.paid.pence();
    // Validated to at most 100,000, so it fits an INTEGER column.
    let stops = invoice.stops.map(|s| s as i32);
    match decide(
        Op::Put,
        existing(tx, "invoices", user_id, invoice.id).await?,
    ) {
        Decision::Insert => {
            if let Err(refused) = budget.take(mutation_id) {
                return Ok(refused);
            }
            let version = *seq + 1;
            // Another account may be inserting this id right now: its row wins (see entries).
            let inserted = tx
                .execute(
                    "INSERT INTO invoices (id, user_id, period_start, period_end, paid, stops,
                                           reference, created_at, updated_at, deleted, version)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, FALSE, $9)
                     ON CONFLICT (id) DO NOTHING",
                    &[
                        &invoice.id,
                        &user_id,
                        &start,
                        &end,
                        &paid,
                        &stops,
                        &invoice.reference,
                        &now_ms,
                        &version,
                    ],
                )
                .await
                .map_err(db_err)?;
            if inserted == 0 {
                budget.give_back();
                return Ok(not_owner(mutation_id));
            }
            *seq = version;
        }
        Decision::Update => {
            *seq += 1;
            tx.execute(
                "UPDATE invoices SET period_start = $2, period_end = $3, paid = $4, stops = $5,
                                     reference = $6, updated_at = $7, version = $8
                 WHERE id = $1",
                &[
                    &invoice.id,
                    &start,
                    &end,
                    &paid,
                    &stops,
                    &invoice.reference,
                    &now_ms,
                    &*seq,
                ],
            )
            .await
            .map_err(db_err)?;
        }
        Decision::RejectNotOwner => return Ok(not_owner(mutation_id)),
        Decision::NoOp | Decision::Tombstone => {}
    }
    Ok(MutationResult::applied(mutation_id))
}

pub async fn delete(
    tx: &Transaction<'_>,
    user_id: Uuid,
    mutation_id: &str,
    invoice_id: Uuid,
    (seq, budget): (&mut i64, &mut RecordBudget),
    now_ms: i64,
) -> StoreResult<MutationResult> {
    let state = existing(tx, "invoices", user_id, invoice_id).await?;
    match decide(Op::Delete, state) {
        Decision::Tombstone if state == Existing::Absent => {
            // Deleted on one device before another synced it: the tombstone claims the id so a
            // late put cannot bring it back.
            if let Err(refused) = budget.take(mutation_id) {
                return Ok(refused);
            }
            let version = *seq + 1;
            let inserted = tx
                .execute(
                    "INSERT INTO invoices (id, user_id, period_start, period_end, paid, stops,
                                           reference, created_at, updated_at, deleted, version)
                     VALUES ($1, $2, '', '', 0, NULL, '', $3, $3, TRUE, $4)
                     ON CONFLICT (id) DO NOTHING",
                    &[&invoice_id, &user_id, &now_ms, &version],
                )
                .await
                .map_err(db_err)?;
            if inserted == 0 {
                budget.give_back();
                return Ok(not_owner(mutation_id));
            }
            *seq = version;
        }
        Decision::Tombstone => {
            *seq += 1;
            // The tombstone keeps no content: a deleted statement is gone, not hidden.
            tx.execute(
                "UPDATE invoices SET deleted = TRUE, period_start = '', period_end = '', paid = 0,
                                     stops = NULL, reference = '', updated_at = $2, version = $3
                 WHERE id = $1",
                &[&invoice_id, &now_ms, &*seq],
            )
            .await
            .map_err(db_err)?;
        }
        Decision::RejectNotOwner => return Ok(not_owner(mutation_id)),
        Decision::NoOp | Decision::Insert | Decision::Update => {}
    }
    Ok(MutationResult::applied(mutation_id))
}

/// The user's invoices changed after `cursor`, oldest first, at most `limit + 1` (see
/// `merge_page`).
pub async fn changed_after(
    client: &impl GenericClient,
    user_id: Uuid,
    cursor: i64,
    limit: u32,
) -> StoreResult<Vec<Change>> {
    let rows = client
        .query(
            "SELECT id, version, deleted, period_start, period_end, paid, stops, reference,
                    created_at, updated_at
             FROM invoices WHERE user_id = $1 AND version > $2 ORDER BY version LIMIT $3",
            &[&user_id, &cursor, &(i64::from(limit) + 1)],
        )
        .await
        .map_err(db_err)?;
    Ok(rows
        .iter()
        .map(|r| {
            let deleted: bool = r.get(2);
            Change {
                kind: "invoice".into(),
                id: r.get::<_, Uuid>(0).to_string(),
                version: r.get(1),
                deleted,
                data: (!deleted).then(|| {
                    ChangeData::Invoice(InvoiceData {
                        period_start: r.get(3),
                        period_end: r.get(4),
                        paid: r.get(5),
                        stops: r.get::<_, Option<i32>>(6).map(|s| s as u32),
                        reference: r.get(7),
                        created_at: rfc3339_from_ms(r.get(8)),
                        updated_at: rfc3339_from_ms(r.get(9)),
                    })
                }),
            }
        })
        .collect())
}
